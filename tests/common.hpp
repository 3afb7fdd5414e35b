#pragma once
// Shared by every test file: the list of targets a test body runs on, and the run-time skip of
// ufx::cuda when no device answers.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include <ufx/ufx.hpp>

#if defined(__CUDACC__) && defined(UFX_TEST_CUDA_ONLY)
// the cuda-ci preset's CUDA build of most test files (UFX_CUDA_TESTS_CUDA_ONLY): ufx::cuda only, beside the
// cpu-asan build, which runs serial, host and sim
#  define UFX_TEST_TARGETS ufx::cuda_t
#elif defined(__CUDACC__) && defined(UFX_TEST_DEVICE_TARGETS_ONLY)
// the CUDA build beside a CPU build that runs serial and host (the cuda-ci preset): the device
// targets only, which halves nvcc's work
#  define UFX_TEST_TARGETS ufx::sim_t, ufx::cuda_t
#elif defined(__CUDACC__)
#  define UFX_TEST_TARGETS ufx::serial_t, ufx::host_t, ufx::sim_t, ufx::cuda_t
#else
#  define UFX_TEST_TARGETS ufx::serial_t, ufx::host_t, ufx::sim_t
#endif

namespace ufx_test {

/// Whether this build runs under AddressSanitizer (the cpu-asan preset): sweeps that check accuracy rather than memory
/// (test_math.cpp's samples of every 257th float, 2^20 doubles) take a sparser sample there; the cpu preset runs them
/// whole.
#if defined(__SANITIZE_ADDRESS__)
#  define UFX_TEST_SANITIZED 1
#elif defined(__has_feature)
#  if __has_feature(address_sanitizer)
#    define UFX_TEST_SANITIZED 1
#  endif
#endif
#if defined(UFX_TEST_SANITIZED)
inline constexpr bool sanitized = true;
#else
inline constexpr bool sanitized = false;
#endif

/// False (with a message) when Target is ufx::cuda and no device answers.
template <class Target>
bool runnable() {
  if constexpr (std::is_same_v<Target, ufx::cuda_t>) {
    if (!ufx::cuda_available()) {
      MESSAGE("skipping ufx::cuda: " << std::string(ufx::cuda_unavailable_reason()));
      return false;
    }
  }
  return true;
}

/// runnable<Target>(), and for a raw kernel on ufx::serial, ufx::host or ufx::sim also a ufx built
/// with Boost.Context (false with a message otherwise: such a launch throws, tested in
/// test_kernel.cpp).
template <class Target>
bool kernel_runnable() {
  if constexpr (!std::is_same_v<Target, ufx::cuda_t>) {
    if (!ufx::host_kernels_available()) {
      MESSAGE("skipping raw kernels on " << std::string(Target{}.name()) << ": ufx was built without Boost.Context");
      return false;
    }
  }
  return runnable<Target>();
}

/// True when the call's message contains `part`.
template <class Fn>
std::string error_message(Fn&& fn) {
  try {
    fn();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "<no exception>";
}

/// a + b for any arithmetic type (a functor, since nvcc rejects generic __host__ __device__ lambdas).
struct add_f {
  template <class T>
  UFX_HD T operator()(T a, T b) const {
    return a + b;
  }
};

/// The VmFlags of the mapping that holds `p` (Linux's /proc/self/smaps; "hg" is madvise's
/// MADV_HUGEPAGE), or "" where there is none.
inline std::string vm_flags_of(const void* p) {
  std::ifstream smaps("/proc/self/smaps");
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  bool inside = false;
  for (std::string line; std::getline(smaps, line);) {
    const auto dash = line.find('-'), space = line.find(' ');
    if (dash != std::string::npos && space != std::string::npos && dash < space &&
        line.find_first_not_of("0123456789abcdef") == dash) { // a mapping's header: start-end perms ...
      const auto lo = std::stoull(line.substr(0, dash), nullptr, 16),
                 hi = std::stoull(line.substr(dash + 1, space - dash - 1), nullptr, 16);
      inside = lo <= a && a < hi;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line.substr(8) + " ";
    }
  }
  return "";
}
/// Whether this kernel has transparent huge pages at all (madvise's MADV_HUGEPAGE then sets "hg").
inline bool kernel_has_thp() { return std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled").good(); }

inline std::vector<float> iota_f(int n, float start = 0.f) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = start + static_cast<float>(i);
  return v;
}

} // namespace ufx_test
