#pragma once
// The host target's one parallel primitive: split [0, n) into a contiguous block per thread.
#include <algorithm>
#include <exception>

#if defined(_OPENMP)
#  include <omp.h>
#endif

#include "ufx/config.hpp"

namespace ufx::detail {

/// Below this many elements a call runs on the calling thread.
inline constexpr index_t host_serial_cutoff = index_t{1} << 15;

inline int host_threads() {
#if defined(_OPENMP)
  return omp_get_max_threads();
#else
  return 1;
#endif
}

/// Calls `body(begin, end)` on disjoint blocks covering [0, n), in parallel when n is large.
/// An exception thrown by any block is rethrown on the calling thread.
template <class Body>
void parallel_blocks(index_t n, Body&& body, index_t cutoff = host_serial_cutoff) {
  const int threads = host_threads();
  if (n < cutoff || threads == 1) {
    body(index_t{0}, n);
    return;
  }
  std::exception_ptr error;
#if defined(_OPENMP)
#  pragma omp parallel num_threads(threads)
  {
    const index_t t = omp_get_thread_num(), nt = omp_get_num_threads();
    // blocks aligned to 64 elements so threads do not share cache lines of dense outputs
    const index_t chunk = ((n + nt - 1) / nt + 63) / 64 * 64;
    const index_t b = std::min(n, t * chunk), e = std::min(n, b + chunk);
    try {
      body(b, e);
    } catch (...) {
#  pragma omp critical(ufx_parallel_error)
      if (!error) error = std::current_exception();
    }
  }
#endif
  if (error) std::rethrow_exception(error);
}

/// Calls `body(begin, end)` on one even, contiguous share of [0, n) per thread (no alignment:
/// the items are tasks, such as partial reductions, not elements). Runs on the calling thread
/// when n < 2 or there is one thread. Exceptions are rethrown on the calling thread.
template <class Body>
void parallel_ranges(index_t n, Body&& body) {
  const int threads = host_threads();
  if (n < 2 || threads == 1) {
    body(index_t{0}, n);
    return;
  }
  std::exception_ptr error;
#if defined(_OPENMP)
#  pragma omp parallel num_threads(static_cast<int>(std::min<index_t>(threads, n)))
  {
    const index_t t = omp_get_thread_num(), nt = omp_get_num_threads();
    const index_t b = n * t / nt, e = n * (t + 1) / nt;
    try {
      body(b, e);
    } catch (...) {
#  pragma omp critical(ufx_parallel_error)
      if (!error) error = std::current_exception();
    }
  }
#endif
  if (error) std::rethrow_exception(error);
}

} // namespace ufx::detail
