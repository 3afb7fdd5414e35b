// ufx/version.hpp: the version macros, ufx::version(), the library's version and the check that
// the headers and libufx are one installation's.
#include "common.hpp"

#include <sstream>

TEST_CASE("version: the macros, ufx::version() and its order") {
  constexpr ufx::version_info v = ufx::version();
  static_assert(v.major == UFX_VERSION_MAJOR && v.minor == UFX_VERSION_MINOR && v.patch == UFX_VERSION_PATCH);
  static_assert(UFX_VERSION == UFX_VERSION_MAJOR * 10000 + UFX_VERSION_MINOR * 100 + UFX_VERSION_PATCH);
  static_assert(UFX_VERSION_NUMBER(0, 2, 0) < UFX_VERSION_NUMBER(0, 10, 0));
  static_assert(ufx::version_info{0, 2, 0} < ufx::version_info{0, 10, 0});
  static_assert(ufx::version_info{1, 0, 0} > ufx::version_info{0, 99, 99});
  static_assert(ufx::version_info{0, 2, 1} > ufx::version_info{0, 2, 0});
  CHECK(ufx::to_string(ufx::version_info{0, 12, 3}) == "0.12.3");
  std::ostringstream os;
  os << v;
  CHECK(os.str() == std::to_string(UFX_VERSION_MAJOR) + "." + std::to_string(UFX_VERSION_MINOR) + "." +
                        std::to_string(UFX_VERSION_PATCH));
}

TEST_CASE("version: libufx is the headers' version; a mismatch names both") {
  CHECK(ufx::library_version() == ufx::version());
  CHECK_NOTHROW(ufx::check_library_version());
  CHECK_NOTHROW(ufx::detail::check_same_version({0, 2, 0}, {0, 2, 0}));
  CHECK_THROWS_WITH_AS(ufx::detail::check_same_version({0, 3, 0}, {0, 2, 1}),
                       "ufx: this program was compiled with ufx 0.3.0's headers but is linked with libufx 0.2.1: use "
                       "the headers and the library of one installation",
                       ufx::value_error);
}
