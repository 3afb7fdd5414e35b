#pragma once
// Shared by every test file: the list of targets a test body runs on, and the run-time skip of
// ufx::cuda when no device answers.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include <ufx/ufx.hpp>

#if defined(__CUDACC__) && defined(UFX_TEST_DEVICE_TARGETS_ONLY)
// the CUDA build beside a CPU build that runs serial and host (the cuda-ci preset): the device
// targets only, which halves nvcc's work
#  define UFX_TEST_TARGETS ufx::sim_t, ufx::cuda_t
#elif defined(__CUDACC__)
#  define UFX_TEST_TARGETS ufx::serial_t, ufx::host_t, ufx::sim_t, ufx::cuda_t
#elif defined(UFX_TEST_NO_SERIAL)
// the sanitizer build beside a CPU build that runs serial (the cpu-asan preset): ufx::serial is
// ufx::host's code on one thread, so host and sim cover its memory accesses
#  define UFX_TEST_TARGETS ufx::host_t, ufx::sim_t
#else
#  define UFX_TEST_TARGETS ufx::serial_t, ufx::host_t, ufx::sim_t
#endif

namespace ufx_test {

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

inline std::vector<float> iota_f(int n, float start = 0.f) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = start + static_cast<float>(i);
  return v;
}

} // namespace ufx_test
