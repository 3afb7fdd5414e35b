#pragma once
/// \file version.hpp
/// ufx's version, MAJOR.MINOR.PATCH by semantic versioning (docs/install.md, "Versions": before
/// 1.0 a minor release may change the API or a result, and CHANGELOG.md says what changed; a patch
/// release changes neither, except to fix a bug it names). The CMake package carries the same
/// number: `find_package(ufx 0.2)` accepts 0.2.x only. CMakeLists.txt reads it from this file.
///
/// \code
///   #if UFX_VERSION >= UFX_VERSION_NUMBER(0, 2, 0)     // at compile time
///   std::cout << ufx::version() << '\n';                 // 0.2.0
///   ufx::check_library_version();                        // throws if libufx is another version
/// \endcode

#include <compare>
#include <iosfwd>
#include <string>

#include "ufx/errors.hpp"

/// The major version (CMakeLists.txt reads these three lines).
#define UFX_VERSION_MAJOR 0
/// The minor version.
#define UFX_VERSION_MINOR 2
/// The patch version.
#define UFX_VERSION_PATCH 0
/// One integer that orders versions: major * 10000 + minor * 100 + patch.
#define UFX_VERSION_NUMBER(major, minor, patch) ((major)*10000 + (minor)*100 + (patch))
/// This version as one integer (UFX_VERSION_NUMBER).
#define UFX_VERSION UFX_VERSION_NUMBER(UFX_VERSION_MAJOR, UFX_VERSION_MINOR, UFX_VERSION_PATCH)

namespace ufx {

/// A version: three numbers, ordered as the numbers are.
struct version_info {
  /// Incremented for a release that changes the API or a result (after 1.0; before it, minor is).
  int major = 0;
  /// Incremented for a release that adds; before 1.0, for any release that may change the API.
  int minor = 0;
  /// Incremented for a release that fixes bugs only.
  int patch = 0;
  /// Equal when all three numbers are (written out: nvcc 13 leaves a defaulted `<=>`'s implied `==` undefined in host
  /// code).
  friend constexpr bool operator==(const version_info& a, const version_info& b) {
    return a.major == b.major && a.minor == b.minor && a.patch == b.patch;
  }
  /// Ordered by major, then minor, then patch.
  friend constexpr std::strong_ordering operator<=>(const version_info& a, const version_info& b) {
    if (a.major != b.major) return a.major <=> b.major;
    if (a.minor != b.minor) return a.minor <=> b.minor;
    return a.patch <=> b.patch;
  }
};

/// The version of the headers this code was compiled with.
constexpr version_info version() noexcept { return {UFX_VERSION_MAJOR, UFX_VERSION_MINOR, UFX_VERSION_PATCH}; }

/// The version of the ufx library (libufx) this program is linked with: the same as version()
/// unless the headers and the library come from two installations.
version_info library_version() noexcept;

/// "0.2.0".
std::string to_string(const version_info& v);

/// Throws ufx::value_error naming both versions when library_version() is not version(): a
/// program that finds its headers in one ufx and links another's library.
inline void check_library_version();

namespace detail {
/// check_library_version's test: throws when the two differ.
inline void check_same_version(const version_info& headers, const version_info& library) {
  if (headers != library) {
    throw value_error("ufx: this program was compiled with ufx " + to_string(headers) +
                      "'s headers but is linked with libufx " + to_string(library) +
                      ": use the headers and the library of one installation");
  }
}
} // namespace detail

inline void check_library_version() { detail::check_same_version(version(), library_version()); }

/// Writes to_string(v).
std::ostream& operator<<(std::ostream& os, const version_info& v);

} // namespace ufx
