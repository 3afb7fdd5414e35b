// ufx/version.hpp's library half: the version libufx was built as, compared by the headers'
// check_library_version() with the version they carry.
#include "ufx/version.hpp"

#include <ostream>

namespace ufx {

version_info library_version() noexcept { return version(); }

std::string to_string(const version_info& v) {
  return std::to_string(v.major) + '.' + std::to_string(v.minor) + '.' + std::to_string(v.patch);
}

std::ostream& operator<<(std::ostream& os, const version_info& v) { return os << to_string(v); }

} // namespace ufx
