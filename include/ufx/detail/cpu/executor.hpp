#pragma once
// The CPU targets' one parallel primitive: an executor running body(begin, end) over disjoint ranges of [0, n) on the
// calling thread (ufx::serial, small work) or ufx::host's threads; any range's exception is rethrown by the caller.
//
// The scheduling is compiled into libufx (src/host_executor.cpp), reached by a pointer and a one-range function: no
// translation unit calling ufx includes oneTBB's or OpenMP's headers or instantiates their templates (oneTBB's
// parallel_for: 2.0 s per include of ufx.hpp, issue #29), for an indirect call per range, a trifle beside its work.
//
// ufx::host's scheduler is oneTBB's work stealing when ufx was built with it (UFX_WITH_TBB) unless the environment says
// UFX_HOST_SCHEDULER=openmp, else OpenMP. With oneTBB idle threads steal ranges and the calling thread works too, so a
// call ends when the work is done: it never waits for a thread the OS has descheduled, as an OpenMP region's closing
// barrier does (on a loaded machine a whole time slice, 4-8 ms, per call: docs/performance.md).
#include <algorithm>
#include <type_traits>

#include "ufx/config.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {

/// ufx::host's threads: OpenMP's for a parallel region (OMP_NUM_THREADS, either scheduler), else oneTBB's, else 1.
int host_threads();
/// Whether ufx::host schedules with oneTBB: yes when ufx was built with it, unless the environment variable
/// UFX_HOST_SCHEDULER is "openmp" when the program starts. The benchmarks switch it.
bool host_uses_tbb();
void set_host_uses_tbb(bool on);

/// One range of a parallel loop: fn(context, begin, end).
using range_fn = void (*)(const void* context, index_t begin, index_t end);
/// How host_parallel_for cuts [0, n): `align` items a unit, ranges of at least `grain` units; `static_blocks`: one
/// even, 64-aligned block per thread, the same thread's from call to call (oneTBB's static partitioner; OpenMP's static
/// schedule), else ranges idle threads steal (oneTBB's auto partitioner; OpenMP: an even share per thread).
struct parallel_cut {
  index_t align = 1, grain = 1;
  bool static_blocks = false;
};
/// Runs fn over disjoint ranges covering [0, n) on `threads` host threads; rethrows the first exception thrown.
void host_parallel_for(int threads, index_t n, parallel_cut cut, range_fn fn, const void* context);

UFX_TU_NAMESPACE_BEGIN

/// Below this many elements (a gufunc: units of core work; a reduction: positions read) a call on ufx::host runs on the
/// calling thread. Measured on this project's 2-core EPYC with oneTBB (issue #11's table, -march=native, quiet): host
/// over serial was 1.13 (add) and 1.15 (sum) at 2^16, 0.59 and 0.75 at 2^18.
inline constexpr index_t host_serial_cutoff = index_t{1} << 17;

/// The same for work cut in even blocks of elements (cpu_executor::blocks: elementwise rows, first touch of fresh
/// arrays), which oneTBB hands out once per thread, each thread keeping the same part of the data from call to call.
/// Measured (bench_load, add into ufx::out, -march=native, medians of 31): at 2^16 host took 5.2 us against serial's
/// 9.2 and a two-thread OpenMP loop's 5.0 (2^17 cutoff: 8.9, serial); at 2^14 two threads gain nothing (2.0 against 2.2
/// us); loaded with two busy processes, host stayed within 1.06x serial at 2^14 to 2^22.
inline constexpr index_t host_blocks_cutoff = index_t{1} << 15;

/// Below this many elements (outputs times positions) a reduction on ufx::host stays on the calling thread. A reduction
/// only reads and runs at about 8 floats a cycle, so an OpenMP region's ~2 us (measured) pays off later than for
/// elementwise loops: around 2^17 elements on two cores (an estimate from those figures).
inline constexpr index_t host_reduce_cutoff = index_t{1} << 17;

class cpu_executor {
public:
  constexpr cpu_executor() = default;
  constexpr explicit cpu_executor(const serial_t&) {}
  /// ufx::host's threads, bounded by `host.threads(n)`.
  explicit cpu_executor(const host_t& t)
      : threads_(t.max_threads > 0 ? std::min(t.max_threads, host_threads()) : host_threads()) {}

  int threads() const { return threads_; }

  /// Calls body(begin, end) on disjoint ranges covering [0, n) whose items are tasks, such as partial reductions: each
  /// item is one unit of work for a thread (oneTBB: any range of them; OpenMP: one even, contiguous share per thread).
  /// On the calling thread when n < 2 or there is one thread.
  template <class Body>
  void operator()(index_t n, Body&& body) const {
    if (n < 2 || threads_ == 1) return body(index_t{0}, n);
    run(n, parallel_cut{}, body);
  }

  /// Calls body(begin, end) on blocks of elements covering [0, n), each aligned to 64 elements so threads share no
  /// cache lines of dense outputs; on the calling thread when n < cutoff. One block per thread, the same from call to
  /// call (the data it wrote last is in its cache): oneTBB's static partitioner, whose blocks wait in the calling
  /// thread's queue too, so a descheduled thread is not waited for unless it has started; OpenMP: a static schedule.
  template <class Body>
  void blocks(index_t n, Body&& body, index_t cutoff = host_blocks_cutoff) const {
    if (n < cutoff || threads_ == 1) return body(index_t{0}, n);
    run(n, parallel_cut{cutoff >= 256 ? 64 : 1, 1, true}, body);
  }

private:
  template <class Body>
  void run(index_t n, parallel_cut cut, Body& body) const {
    host_parallel_for(
        threads_, n, cut,
        [](const void* c, index_t b, index_t e) {
          (*static_cast<std::remove_reference_t<Body>*>(const_cast<void*>(c)))(b, e);
        },
        static_cast<const void*>(&body));
  }

  int threads_ = 1;
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
