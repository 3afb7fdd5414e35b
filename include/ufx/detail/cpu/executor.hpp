#pragma once
// The CPU targets' one parallel primitive: an executor that runs body(begin, end) over disjoint
// ranges of [0, n), on the calling thread (ufx::serial, small work) or one range per thread
// (ufx::host, OpenMP). Exceptions thrown by any range are rethrown on the calling thread.
#include <algorithm>
#include <exception>

#if defined(_OPENMP)
#  include <omp.h>
#endif

#include "ufx/config.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {

/// Below this many elements an elementwise call runs on the calling thread.
inline constexpr index_t host_serial_cutoff = index_t{1} << 15;

/// Threads OpenMP would give a parallel region here.
inline int host_threads() {
#if defined(_OPENMP)
  return omp_get_max_threads();
#else
  return 1;
#endif
}

class cpu_executor {
public:
  /// One thread: the calling one.
  constexpr cpu_executor() = default;
  /// ufx::host's threads, bounded by `host.threads(n)`.
  explicit cpu_executor(const host_t& t)
      : threads_(t.max_threads > 0 ? std::min(t.max_threads, host_threads()) : host_threads()) {}

  int threads() const { return threads_; }

  /// Calls body(begin, end) on one even, contiguous share of [0, n) per thread (the items are
  /// tasks, such as partial reductions). On the calling thread when n < 2 or there is one thread.
  template <class Body>
  void operator()(index_t n, Body&& body) const {
    if (n < 2 || threads_ == 1) return body(index_t{0}, n);
    run(static_cast<int>(std::min<index_t>(threads_, n)), [&](index_t t, index_t nt) {
      body(n * t / nt, n * (t + 1) / nt);
    });
  }

  /// Calls body(begin, end) on blocks of elements covering [0, n), one per thread, each aligned to
  /// 64 elements so threads do not share cache lines of dense outputs; on the calling thread when
  /// n < cutoff.
  template <class Body>
  void blocks(index_t n, Body&& body, index_t cutoff = host_serial_cutoff) const {
    if (n < cutoff || threads_ == 1) return body(index_t{0}, n);
    run(threads_, [&](index_t t, index_t nt) {
      const index_t chunk = ((n + nt - 1) / nt + 63) / 64 * 64;
      const index_t b = std::min(n, t * chunk), e = std::min(n, b + chunk);
      body(b, e);
    });
  }

private:
  template <class Part>
  void run(int threads, Part&& part) const {
    std::exception_ptr error;
#if defined(_OPENMP)
#  pragma omp parallel num_threads(threads)
    {
      const index_t t = omp_get_thread_num(), nt = omp_get_num_threads();
      try {
        part(t, nt);
      } catch (...) {
#  pragma omp critical(ufx_parallel_error)
        if (!error) error = std::current_exception();
      }
    }
#else
    (void)threads;
    part(index_t{0}, index_t{1});
#endif
    if (error) std::rethrow_exception(error);
  }

  int threads_ = 1;
};

} // namespace ufx::detail
