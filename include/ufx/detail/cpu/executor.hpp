#pragma once
// The CPU targets' one parallel primitive: an executor that runs body(begin, end) over disjoint
// ranges of [0, n), on the calling thread (ufx::serial, small work) or on ufx::host's threads.
// Exceptions thrown by any range are rethrown on the calling thread.
//
// ufx::host's scheduler is oneTBB's work stealing when ufx was built with it (UFX_WITH_TBB) and
// the environment does not say UFX_HOST_SCHEDULER=openmp, else OpenMP. With oneTBB the work is
// cut into ranges that idle threads steal and the calling thread works too, so a call ends when
// the work is done: it never waits for a thread the OS has descheduled, as an OpenMP region's
// closing barrier does (on a loaded machine a whole time slice, 4-8 ms, per call:
// docs/performance.md).
#include <algorithm>
#include <exception>

#if defined(_OPENMP)
#  include <omp.h>
#endif
#if UFX_WITH_TBB
#  include <atomic>
#  include <cstdlib>
#  include <map>
#  include <memory>
#  include <mutex>
#  include <string_view>

#  include <oneapi/tbb/blocked_range.h>
#  include <oneapi/tbb/parallel_for.h>
#  include <oneapi/tbb/partitioner.h>
#  include <oneapi/tbb/task_arena.h>
#endif

#include "ufx/config.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// Below this many elements (a gufunc: units of core work; a reduction: positions read) a call on
/// ufx::host runs on the calling thread. Measured on this project's 2-core EPYC with oneTBB (issue
/// #11's table, -march=native, quiet): host over serial was 1.13 (add) and 1.15 (sum) at 2^16,
/// 0.59 and 0.75 at 2^18.
inline constexpr index_t host_serial_cutoff = index_t{1} << 17;

/// The same for work cut in even blocks of elements (cpu_executor::blocks: elementwise rows,
/// first touch of fresh arrays), which oneTBB hands out once per thread, each thread keeping the
/// same part of the data from call to call. Measured (bench_load, add into ufx::out, -march=native,
/// medians of 31): at 2^16 host took 5.2 us against serial's 9.2 and a two-thread OpenMP loop's
/// 5.0 (2^17 cutoff: 8.9, serial); at 2^14 two threads gain nothing (2.0 against 2.2 us); loaded
/// with two busy processes, host stayed within 1.06x serial at 2^14 to 2^22.
inline constexpr index_t host_blocks_cutoff = index_t{1} << 15;

/// ufx::host's threads: as many as OpenMP would give a parallel region here (OMP_NUM_THREADS, with
/// either scheduler), else oneTBB's default.
inline int host_threads() {
#if defined(_OPENMP)
  return omp_get_max_threads();
#elif UFX_WITH_TBB
  return tbb::this_task_arena::max_concurrency();
#else
  return 1;
#endif
}

#if UFX_WITH_TBB
/// Whether ufx::host schedules with oneTBB: yes, unless the environment variable
/// UFX_HOST_SCHEDULER is "openmp" when the program starts (read once; the benchmarks set it).
inline std::atomic<bool>& host_uses_tbb() {
  static std::atomic<bool> tbb = [] {
    const char* v = std::getenv("UFX_HOST_SCHEDULER");
    return !(v && std::string_view(v) == "openmp");
  }();
  return tbb;
}

/// A oneTBB arena of `threads` threads, made on first use and kept (one per thread count).
inline tbb::task_arena& host_arena(int threads) {
  static std::mutex m;
  static std::map<int, std::unique_ptr<tbb::task_arena>> arenas;
  const std::lock_guard lock(m);
  auto& a = arenas[threads];
  if (!a) a = std::make_unique<tbb::task_arena>(threads);
  return *a;
}
#endif

class cpu_executor {
public:
  /// One thread: the calling one.
  constexpr cpu_executor() = default;
  /// ufx::serial's: the calling thread.
  constexpr explicit cpu_executor(const serial_t&) {}
  /// ufx::host's threads, bounded by `host.threads(n)`.
  explicit cpu_executor(const host_t& t)
      : threads_(t.max_threads > 0 ? std::min(t.max_threads, host_threads()) : host_threads()) {}

  int threads() const { return threads_; }

  /// Calls body(begin, end) on disjoint ranges covering [0, n) whose items are tasks, such as
  /// partial reductions: each item is one unit of work for a thread (oneTBB: any range of them;
  /// OpenMP: one even, contiguous share per thread). On the calling thread when n < 2 or there is
  /// one thread.
  template <class Body>
  void operator()(index_t n, Body&& body) const {
    if (n < 2 || threads_ == 1) return body(index_t{0}, n);
#if UFX_WITH_TBB
    if (host_uses_tbb()) return run_ranges(n, 1, 1, body);
#endif
    run(static_cast<int>(std::min<index_t>(threads_, n)),
        [&](index_t t, index_t nt) { body(n * t / nt, n * (t + 1) / nt); });
  }

  /// Calls body(begin, end) on blocks of elements covering [0, n), each aligned to 64 elements so
  /// threads do not share cache lines of dense outputs; on the calling thread when n < cutoff.
  /// One block per thread, the same thread taking the same block from call to call (the data it
  /// wrote last is in its cache): oneTBB's static partitioner, whose blocks wait in the calling
  /// thread's queue too, so that a thread the OS has descheduled is not waited for unless it has
  /// started; OpenMP: a static schedule.
  template <class Body>
  void blocks(index_t n, Body&& body, index_t cutoff = host_blocks_cutoff) const {
    if (n < cutoff || threads_ == 1) return body(index_t{0}, n);
#if UFX_WITH_TBB
    if (host_uses_tbb()) return run_ranges(n, cutoff >= 256 ? 64 : 1, 1, body, tbb::static_partitioner{});
#endif
    run(threads_, [&](index_t t, index_t nt) {
      const index_t chunk = ((n + nt - 1) / nt + 63) / 64 * 64;
      const index_t b = std::min(n, t * chunk), e = std::min(n, b + chunk);
      body(b, e);
    });
  }

private:
#if UFX_WITH_TBB
  /// body(begin, end) over [0, n) in units of `align` items, ranges of at least `grain` units,
  /// handed to the threads of an arena of threads_ threads by oneTBB's `partitioner` (auto: stolen
  /// by idle threads; static: one range per thread); the first exception is rethrown.
  template <class Body, class Partitioner = tbb::auto_partitioner>
  void run_ranges(index_t n, index_t align, index_t grain, Body& body, const Partitioner& partitioner = {}) const {
    const index_t units = (n + align - 1) / align;
    auto loop = [&] {
      tbb::parallel_for(
          tbb::blocked_range<index_t>(0, units, grain),
          [&](const tbb::blocked_range<index_t>& r) { body(r.begin() * align, std::min(n, r.end() * align)); },
          partitioner);
    };
    if (threads_ >= tbb::this_task_arena::max_concurrency()) loop();
    else host_arena(threads_).execute(loop);
  }
#endif

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

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
