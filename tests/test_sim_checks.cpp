// The host block runner's checks (src/sim/, listed at the head of block.cpp; ufx::sim, and ufx::serial / ufx::host,
// which run kernels the same way), issue 27 items 5-7:
// - atomics on a ufx::shared element are not races among themselves, on every target (ufx::cuda
//   too, where a GPU answers), while an atomic and a plain access in one barrier interval are;
// - every check ends as the error it reports, whichever thread of a block raises it and whatever
//   the other threads are doing (started or not, waiting at a barrier or not);
// - ufx::sim checks a kernel's ndview indices in every build, Release included.
#include "common.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

using ufx_test::error_message;
using ufx_test::kernel_runnable;

namespace {

constexpr int bins = 8;
constexpr int hist_threads = 64;

/// numba-cuda's test_atomics, shared-memory histograms: every thread adds into a contended bin
/// and subtracts from the next one, both atomically, between two barriers.
template <class T>
struct histogram_body {
  UFX_HD void operator()(const ufx::thread& t, ufx::shared<T[bins]> h, ufx::ndview<const int, 1> key,
                         ufx::ndview<T, 2> out) const {
    const unsigned i = t.thread_idx().x;
    if (i < bins) h[i] = T(100);
    t.sync();
    const int k = key(t.grid<1>());
    ufx::atomic_add(h[k], T(3));
    ufx::atomic_sub(h[(k + 1) % bins], T(1));
    t.sync();
    if (i < bins) out(t.block_idx().x, i) = h[i];
  }
};

/// atomic_min and atomic_max on one-element shared arrays, every thread of the block contending.
template <class T>
struct extremes_body {
  UFX_HD void operator()(const ufx::thread& t, ufx::shared<T[1]> lo, ufx::shared<T[1]> hi, ufx::ndview<const T, 1> x,
                         ufx::ndview<T, 2> out) const {
    const auto g = t.grid<1>();
    if (t.thread_idx().x == 0) {
      lo[0] = x(g);
      hi[0] = x(g);
    }
    t.sync();
    ufx::atomic_min(lo[0], x(g));
    ufx::atomic_max(hi[0], x(g));
    t.sync();
    if (t.thread_idx().x == 0) {
      out(t.block_idx().x, 0) = lo[0];
      out(t.block_idx().x, 1) = hi[0];
    }
  }
};

template <class Target, class T>
void check_histogram() {
  CAPTURE(sizeof(T));
  const int blocks = 3, n = blocks * hist_threads;
  std::vector<int> key(static_cast<std::size_t>(n));
  for (int g = 0; g < n; ++g) key[static_cast<std::size_t>(g)] = (g * 5 + g / 7) % bins;
  ufx::ndarray<T, 2> out({blocks, bins}, T(0));
  ufx::kernel(histogram_body<T>{}, "histogram")[{blocks, hist_threads}](Target{}, key, out);
  for (int b = 0; b < blocks; ++b)
    for (int j = 0; j < bins; ++j) {
      long long want = 100;
      for (int i = 0; i < hist_threads; ++i) {
        const int k = key[static_cast<std::size_t>(b * hist_threads + i)];
        if (k == j) want += 3;
        if ((k + 1) % bins == j) want -= 1;
      }
      CAPTURE(b);
      CAPTURE(j);
      CHECK(out(b, j) == T(want));
    }
}

template <class T>
T extreme_value(int g) {
  const int v = (g * 37) % 101;
  if constexpr (std::is_unsigned_v<T>) return T(v) * T(40000000u); // up to 4e9: above INT32_MAX
  else if constexpr (std::is_integral_v<T>) return T(v - 50);
  else return T(v - 50) * T(0.25);
}

template <class Target, class T>
void check_extremes() {
  CAPTURE(sizeof(T));
  const int blocks = 3, threads = 96, n = blocks * threads;
  std::vector<T> x(static_cast<std::size_t>(n));
  for (int g = 0; g < n; ++g) x[static_cast<std::size_t>(g)] = extreme_value<T>(g);
  ufx::ndarray<T, 2> out({blocks, 2}, T(0));
  ufx::kernel(extremes_body<T>{}, "extremes")[{blocks, threads}](Target{}, x, out);
  for (int b = 0; b < blocks; ++b) {
    T lo = x[static_cast<std::size_t>(b * threads)], hi = lo;
    for (int i = 0; i < threads; ++i) {
      const T v = x[static_cast<std::size_t>(b * threads + i)];
      lo = v < lo ? v : lo;
      hi = hi < v ? v : hi;
    }
    CAPTURE(b);
    CHECK(out(b, 0) == lo);
    CHECK(out(b, 1) == hi);
  }
}

} // namespace

TEST_CASE_TEMPLATE("kernel: atomic_add and atomic_sub on contended shared bins (int32, uint32, float, double, float16, "
                   "bfloat16)",
                   Target, UFX_TEST_TARGETS) {
  if (!kernel_runnable<Target>()) return;
  check_histogram<Target, std::int32_t>();
  check_histogram<Target, std::uint32_t>();
  check_histogram<Target, float>();
  check_histogram<Target, double>();
  check_histogram<Target, ufx::float16>(); // 2-byte bins, four to a 4-byte word; every partial sum exact
  check_histogram<Target, ufx::bfloat16>();
}

TEST_CASE_TEMPLATE("kernel: atomic_min and atomic_max on a one-element shared array (int32, uint32, float, double, "
                   "float16, bfloat16)",
                   Target, UFX_TEST_TARGETS) {
  if (!kernel_runnable<Target>()) return;
  check_extremes<Target, std::int32_t>();
  check_extremes<Target, std::uint32_t>();
  check_extremes<Target, float>();
  check_extremes<Target, double>();
  check_extremes<Target, ufx::float16>();
  check_extremes<Target, ufx::bfloat16>();
}

namespace {
/// Thread 1 writes a shared element that thread 0 reads, with no barrier between them (defined outside the host-only
/// block below: the seeded sim test near the end uses it in the CUDA build too, whose kernel calls
/// compile a functor for ufx::cuda as well: hence UFX_HD).
struct missing_sync_body {
  UFX_HD void operator()(const ufx::thread& t, ufx::shared<int[2]> s, ufx::ndview<int, 1> out) const {
    const int i = static_cast<int>(t.thread_idx().x);
    if (i == 1) s[0] = 5;
    if (i == 0) out(0) = s[0]; // a t.sync() belongs before this read
    t.sync();
  }
};
} // namespace

#if !defined(__CUDACC__) // the sim's checks, host code only (these bodies write plainly and atomically)
namespace {
/// Thread 0 zeroes s[0]; after a barrier thread `a` adds to it atomically while thread `p` reads it
/// (mode 0), writes it (mode 1) or reads then writes it (mode 2) in the same barrier interval.
struct mixed_body {
  void operator()(const ufx::thread& t, ufx::shared<float[1]> s, ufx::ndview<float, 1> out, int a, int p,
                  int mode) const {
    const int i = static_cast<int>(t.thread_idx().x);
    if (i == 0) s[0] = 0.f;
    t.sync();
    if (i == a) ufx::atomic_add(s[0], 1.f);
    if (i == p && mode != 1) out(0) = s[0];
    if (i == p && mode != 0) s[0] = 5.f;
    t.sync();
    if (i == 0) out(1) = s[0];
  }
};
} // namespace

TEST_CASE_TEMPLATE("kernel: an atomic and a plain access of one shared element in one barrier interval race", Target,
                   ufx::serial_t, ufx::host_t, ufx::sim_t) {
  if (!kernel_runnable<Target>()) return;
  constexpr bool sim = std::is_same_v<Target, ufx::sim_t>;
  const std::string where = "kernel 'mixed' on " +
                            (sim ? std::string("ufx::sim device 0") : std::string(Target{}.name())) +
                            ", block (0, 0, 0), ";
  const std::string elem = "element (0) of shared array 0 (parameter 1)";
  const std::string tail = " since the last sync() (put a t.sync() between the two accesses, or a t.syncwarp() naming "
                           "both lanes when they are "
                           "of one warp)";
  std::vector<float> out{-1.f, -1.f};
  auto k = ufx::kernel(mixed_body{}, "mixed");
  // an atomic first, then another thread's plain read / write
  CHECK(error_message([&] {
          k[{1, 3}](Target{}, out, 0, 2, 0);
        }) == where + "thread (2, 0, 0): shared-memory race: this thread reads " + elem +
                  ", which thread (0, 0, 0) updated atomically" + tail);
  CHECK(error_message([&] {
          k[{1, 3}](Target{}, out, 1, 2, 1);
        }) == where + "thread (2, 0, 0): shared-memory race: this thread writes " + elem +
                  ", which thread (1, 0, 0) updated atomically" + tail);
  // a plain read / write first, then another thread's atomic
  CHECK(error_message([&] {
          k[{1, 3}](Target{}, out, 2, 0, 0);
        }) == where + "thread (2, 0, 0): shared-memory race: this thread updates " + elem +
                  " atomically, which thread (0, 0, 0) read" + tail);
  CHECK(error_message([&] {
          k[{1, 3}](Target{}, out, 1, 0, 2);
        }) == where + "thread (1, 0, 0): shared-memory race: this thread updates " + elem +
                  " atomically, which thread (0, 0, 0) wrote" + tail);
  if (sim) CHECK(out == std::vector<float>{-1.f, -1.f}); // nothing copied back from a failed kernel
  // one thread's own atomic, read and write of the element race with no one
  k[{1, 3}](Target{}, out, 1, 1, 2);
  CHECK(out == std::vector<float>{1.f, 5.f});
}

// ---- item 6: every check ends as its error, raised by any thread, before or after a barrier

namespace {
enum failure { race, uninit, divergence, shared_index, ndview_index, thrown, n_failures };
const char* const failure_names[] = {"race",         "uninitialised read", "divergence",
                                     "shared index", "ndview index",       "exception"};

/// A 3-thread block where thread `who` fails in the way `kind` says, in the first barrier interval
/// (after == 0) or in the second (after == 1); the threads that do not fail go on to a barrier.
struct failing_body {
  void operator()(const ufx::thread& t, ufx::shared<int[4]> s, ufx::ndview<int, 1> a, int kind, int who,
                  int after) const {
    const int i = static_cast<int>(t.thread_idx().x);
    const bool failing = t.block_idx().x == 1; // the other blocks run cleanly and write nothing to a
    if (after) {
      s[i] = i;
      t.sync();
      if (failing) a(i) = s[(i + 1) % 3];
      t.sync();
    }
    const int other = who == 0 ? 1 : 0; // the race's partner
    if (kind == race && failing) {      // two writers of s[3]; the later one reports
      if (i == who) s[3] = 7;
      if (i == other) s[3] = 5;
    } else if (kind == uninit && failing) {
      if (i == who) a(3) = s[3]; // no thread writes s[3]
    } else if (kind != race && failing && i == who) {
      if (kind == divergence) return;
      if (kind == shared_index) s[4 + i] = 1;
      if (kind == ndview_index) a(a.extent(0) + i) = 1;
      if (kind == thrown) throw std::runtime_error("bad value in thread " + std::to_string(i));
    }
    t.sync();
    if (failing) a(i) += 10;
    t.sync();
  }
};

std::string expected_failure(const std::string& where, int kind, int who) {
  const std::string prefix = "kernel 'fails' on " + where + ", block (1, 0, 0), thread (";
  const std::string w = std::to_string(who) + ", 0, 0)";
  const int other = who == 0 ? 1 : 0;
  const std::string o = "(" + std::to_string(other) + ", 0, 0)";
  switch (kind) {
  case race:
    return prefix + (who == 0 ? std::string("1, 0, 0)") : w) +
           ": shared-memory race: this thread writes element (3) of shared array 0 (parameter 1), which thread " +
           (who == 0 ? std::string("(0, 0, 0)") : o) +
           " wrote since the last sync() (put a t.sync() between the two accesses, or a t.syncwarp() naming both lanes "
           "when they are of one warp)";
  case uninit:
    return prefix + w +
           ": uninitialised shared-memory read: this thread reads element (3) of shared array 0 (parameter 1), which "
           "no thread of this block has written (shared memory starts undefined, as on a GPU)";
  case divergence:
    return prefix + w + ": barrier divergence: this thread returned while thread " + o + " waits at t.sync() on line";
  case shared_index:
    return prefix + w + ": ufx::shared: index (" + std::to_string(4 + who) + ") out of range for shape (4)";
  case ndview_index:
    return prefix + w + ": ufx::ndview: index (" + std::to_string(6 + who) + ") out of range for shape (6)";
  default: return prefix + w + ": bad value in thread " + std::to_string(who);
  }
}
} // namespace

TEST_CASE_TEMPLATE("kernel: every check of the block runner ends as its error, whichever thread raises it and when",
                   Target, ufx::serial_t, ufx::host_t, ufx::sim_t) {
  if (!kernel_runnable<Target>()) return;
  const std::string where =
      std::is_same_v<Target, ufx::sim_t> ? std::string("ufx::sim device 0") : std::string(Target{}.name());
  auto k = ufx::kernel(failing_body{}, "fails");
  for (int kind = 0; kind < n_failures; ++kind) {
    // the ndview check runs on ufx::sim in every build, on serial and host with UFX_BOUNDS_CHECK
    if (kind == ndview_index && !std::is_same_v<Target, ufx::sim_t> && !UFX_BOUNDS_CHECK) continue;
    for (int who = 0; who < 3; ++who)
      for (int after = 0; after < 2; ++after) {
        CAPTURE(failure_names[kind]);
        CAPTURE(who);
        CAPTURE(after);
        std::vector<int> a(6, -1);
        // block 0 runs cleanly, block 1 fails (blocks 2 and 3 are skipped or fail after it)
        const std::string msg = error_message([&] { k[{4, 3}](Target{}, a, kind, who, after); });
        const std::string want = expected_failure(where, kind, who);
        if (kind == divergence) CHECK(msg.rfind(want, 0) == 0);
        else CHECK(msg == want);
        if (std::is_same_v<Target, ufx::sim_t>) CHECK(a == std::vector<int>(6, -1)); // nothing copied back
      }
  }
  // the block runner is whole after them: a correct launch runs and gives its values
  std::vector<int> a(6, 0);
  ufx::kernel(
      [](const ufx::thread& t, ufx::shared<int[4]> s, ufx::ndview<int, 1> out) {
        const int i = static_cast<int>(t.thread_idx().x);
        s[i] = 10 * i;
        t.sync();
        out(i) = s[(i + 1) % 3];
      },
      "after")[{1, 3}](Target{}, a);
  CHECK(a == std::vector<int>{10, 20, 0, 0, 0, 0});
}

TEST_CASE_TEMPLATE(
    "kernel: a shared read that another thread's later write would have filled says a barrier is missing", Target,
    ufx::serial_t, ufx::host_t, ufx::sim_t) {
  if (!kernel_runnable<Target>()) return;
  const std::string where =
      std::is_same_v<Target, ufx::sim_t> ? std::string("ufx::sim device 0") : std::string(Target{}.name());
  auto k = ufx::kernel(missing_sync_body{}, "missing_sync");
  std::vector<int> out(1, -1);
  // the fixed order runs the reader (thread 0) first: the write comes later in the interval
  CHECK(error_message([&] {
          k[{1, 2}](Target{}, out);
        }) ==
        "kernel 'missing_sync' on " + where +
            ", block (0, 0, 0), thread (0, 0, 0): uninitialised shared-memory read: this thread reads element (0) of "
            "shared array 0 (parameter 1), which thread (1, 0, 0) writes later in the same barrier interval: a barrier "
            "(t.sync()) is probably missing between the write and the read (between barriers a block's threads run "
            "in no set order, and shared memory starts undefined, as on a GPU)");
  // a read that no thread writes in the interval keeps its own message
  auto unwritten = ufx::kernel(
      [](const ufx::thread& t, ufx::shared<int[2]> s, ufx::ndview<int, 1> o) {
        if (t.thread_idx().x == 0) o(0) = s[1];
        if (t.thread_idx().x == 1) s[0] = 5;
      },
      "unwritten");
  CHECK(error_message([&] {
          unwritten[{1, 2}](Target{}, out);
        })
            .find("thread (0, 0, 0): uninitialised shared-memory read: this thread reads element (1) of shared array 0 "
                  "(parameter 1), which no thread of this block has written (shared memory starts undefined, as on a "
                  "GPU)") != std::string::npos);
}

TEST_CASE("kernel on sim: a host pointer is refused before any thread of a barrier kernel starts") {
  if (!kernel_runnable<ufx::sim_t>()) return;
  int host_value = 0;
  auto k = ufx::kernel(
      [](const ufx::thread& t, int* p) {
        t.sync();
        if (t.thread_idx().x == 2) *p = 1;
        t.sync();
      },
      "ptr");
  CHECK(error_message([&] {
          k[{2, 3}](ufx::sim, &host_value);
        }) ==
        "ufx::kernel: argument 1 is a pointer to host memory but the kernel runs on ufx::sim device 0 (pass arrays as "
        "containers or ndviews, which ufx copies; or allocate the memory there)");
  CHECK(host_value == 0);
  auto dev = ufx::to_device(std::vector<int>{0}, ufx::sim);
  k[{2, 3}](ufx::sim, dev.data());
  CHECK(dev.to_host()(0) == 1);
}

// ---- item 7: the sim checks a kernel's ndview indices in every build

TEST_CASE("kernel on sim: the tutorial's add without its bounds guard is an index error in every build") {
  if (!kernel_runnable<ufx::sim_t>()) return;
  auto add = ufx::kernel(
      [](const ufx::thread& t, ufx::ndview<const float, 1> x, ufx::ndview<const float, 1> y,
         ufx::ndview<float, 1> out) {
        const ufx::index_t i = t.grid<1>();
        out(i) = x(i) + y(i); // no `if (i < out.extent(0))`
      },
      "add");
  const int n = 1000, threads = 128, blocks = (n + threads - 1) / threads;
  std::vector<float> x(n, 1.f), y(n, 2.f), out(n, 0.f);
  CHECK(error_message([&] {
          add[{blocks, threads}](ufx::sim, x, y, out);
        }) ==
        "kernel 'add' on ufx::sim device 0, block (7, 0, 0), thread (104, 0, 0): ufx::ndview: index (1000) out of "
        "range for shape (1000)");
  CHECK(out[0] == 0.f); // nothing copied back
  // a 2-D view, a column past the end
  auto col =
      ufx::kernel([](const ufx::thread& t, ufx::ndview<int, 2> m) { m(t.block_idx().x, t.thread_idx().x) = 1; }, "col");
  ufx::ndarray<int, 2> m({2, 3}, 0);
  CHECK(error_message([&] {
          col[{2, 4}](ufx::sim, m);
        }) ==
        "kernel 'col' on ufx::sim device 0, block (0, 0, 0), thread (3, 0, 0): ufx::ndview: index (0, 3) out of range "
        "for shape (2, 3)");
  // with the guard the same launch runs
  col[{2, 3}](ufx::sim, m);
  CHECK(m(1, 2) == 1);
  // outside a kernel a view checks as UFX_BOUNDS_CHECK says (a Release build's gufunc cores and
  // loops pay nothing); one made with index_checked(), as the sim's arguments are, always does
  std::vector<int> buf(3, 7);
  const ufx::ndview<int, 1> plain(buf.data(), {3});
  CHECK(plain.index_checks() == static_cast<bool>(UFX_BOUNDS_CHECK));
  CHECK(plain.index_checked().index_checks());
  CHECK(ufx::ndview<const int, 1>(plain.index_checked()).index_checks()); // kept by the const view
  CHECK(error_message([&] { (void)plain.index_checked()(3); }) == "ufx::ndview: index (3) out of range for shape (3)");
  CHECK(plain.index_checked()(2) == 7);
}
#endif

// ---- global memory (ufx::sim's tracked arguments): races within a block and across blocks, reads
// of device memory nothing has written; each planted bug reported, its correction accepted

TEST_CASE("sim global checks: a race within a block, and the same accesses ordered by a barrier") {
  if (!kernel_runnable<ufx::sim_t>()) return;
  auto k = ufx::kernel(
      [](const ufx::thread& t, bool with_sync, ufx::ndview<int, 1> a) {
        const unsigned i = t.thread_idx().x;
        if (i == 0) a(0) = 7;
        if (with_sync) t.sync();
        if (i == 1) a(1) = a(0);
      },
      "neighbour");
  auto d = ufx::to_device(std::vector<int>{0, 0}, ufx::sim);
  const std::string msg = error_message([&] { k[{1, 2}](ufx::sim, false, d); });
  CHECK(msg ==
        "kernel 'neighbour' on ufx::sim device 0, block (0, 0, 0), thread (1, 0, 0): global-memory race: this thread "
        "reads element (0) of argument 2 (parameter 2), which thread (0, 0, 0) wrote since the last sync() (put a "
        "t.sync() between the two accesses, or a t.syncwarp() naming both lanes when they are of one warp)");
  k[{1, 2}](ufx::sim, true, d);
  CHECK(ufx::to_vector(d.to_host()) == std::vector<int>{7, 7});
  // host arrays staged to the device are checked the same way
  std::vector<int> h{0, 0};
  CHECK_THROWS_AS((k[{1, 2}](ufx::sim, false, h)), ufx::kernel_error);
}

TEST_CASE("sim global checks: a race across blocks, and the same work split into two launches") {
  if (!kernel_runnable<ufx::sim_t>()) return;
  // each block writes its partial sum, then block 1 adds up every block's: a cross-block race
  auto partials = ufx::kernel(
      [](const ufx::thread& t, bool add_up, ufx::ndview<const float, 1> x, ufx::ndview<float, 1> part) {
        const unsigned b = t.block_idx().x;
        if (t.thread_idx().x != 0) return;
        float s = 0;
        for (int i = 0; i < 4; ++i) s += x(b * 4 + i);
        part(b) = s;
        if (add_up && b == 1) part(2) = part(0) + part(1);
      },
      "partials");
  std::vector<float> x{1, 2, 3, 4, 5, 6, 7, 8};
  ufx::device_array<float, 1> part({3}, ufx::sim);
  const std::string msg = error_message([&] { partials[{2, 4}](ufx::sim, true, x, part); });
  CHECK(msg == "kernel 'partials' on ufx::sim device 0, block (1, 0, 0), thread (0, 0, 0): global-memory race: this "
               "thread reads element (0) of argument 3 (parameter 3), which thread (0, 0, 0) of block (0, 0, 0) "
               "wrote in this launch (threads of different blocks are not ordered within a launch: split the kernel "
               "into two launches, or launch it cooperatively and put a t.grid_sync() between)");
  // corrected: the blocks write their partials, a second launch adds them up
  partials[{2, 4}](ufx::sim, false, x, part);
  auto total = ufx::kernel([](const ufx::thread&, ufx::ndview<float, 1> p) { p(2) = p(0) + p(1); }, "total");
  total[{1, 1}](ufx::sim, part);
  CHECK(ufx::to_vector(part.to_host()) == std::vector<float>{10, 26, 36});
  // atomics from every block do not race; an atomic and another block's plain read do
  auto count = ufx::kernel(
      [](const ufx::thread& t, bool peek, ufx::ndview<unsigned, 1> c) {
        if (peek && t.block_idx().x == 1 && t.thread_idx().x == 0) c(1) = c(0);
        else ufx::atomic_add(c(0), 1u);
      },
      "count");
  auto c = ufx::to_device(std::vector<unsigned>{0, 0}, ufx::sim);
  count[{3, 8}](ufx::sim, false, c);
  CHECK(ufx::to_vector(c.to_host()) == std::vector<unsigned>{24, 0});
  const std::string m2 = error_message([&] { count[{3, 8}](ufx::sim, true, c); });
  CHECK(m2.find("block (1, 0, 0), thread (0, 0, 0): global-memory race: this thread reads element (0) of argument 2 "
                "(parameter 2), which thread (0, 0, 0) of block (0, 0, 0) updated atomically in this launch") !=
        std::string::npos);
  // two blocks storing the value already there is not reported (benign; numba's tests rely on it)
  auto flag = ufx::kernel([](const ufx::thread&, ufx::ndview<int, 1> f) { f(0) = 1; }, "flag");
  auto f = ufx::to_device(std::vector<int>{1}, ufx::sim);
  flag[{4, 4}](ufx::sim, f);
  CHECK(ufx::to_vector(f.to_host()) == std::vector<int>{1});
}

TEST_CASE("sim global checks: a grid_sync orders blocks in a cooperative launch; without it, a race") {
  if (!kernel_runnable<ufx::sim_t>()) return;
  auto rows = ufx::kernel(
      [](const ufx::thread& t, bool sync, ufx::ndview<int, 2> m) {
        const auto col = t.grid<1>();
        for (ufx::index_t row = 1; row < m.extent(0); ++row) {
          m(row, col) = m(row - 1, m.extent(1) - col - 1) + 1;
          if (sync) t.grid_sync();
        }
      },
      "rows");
  ufx::ndarray<int, 2> m({8, 8}, 0);
  rows[ufx::cooperative({2, 4})](ufx::sim, true, m);
  CHECK(m(7, 0) == 7);
  ufx::ndarray<int, 2> m0({8, 8}, 0); // (over m, whose rows hold these values already, the writes
                                      // would store the value there: benign, not reported)
  const std::string msg = error_message([&] { rows[{2, 4}](ufx::sim, false, m0); });
  // block 0 reads row 0's elements 7 to 4 for row 1; block 1 then writes row 1's elements 4 to 7
  CHECK(msg == "kernel 'rows' on ufx::sim device 0, block (1, 0, 0), thread (0, 0, 0): global-memory race: this "
               "thread writes element (1, 4) of argument 2 (parameter 2), which thread (3, 0, 0) of block (0, 0, 0) "
               "read in this launch (threads of different blocks are not ordered within a launch: split the kernel "
               "into two launches, or launch it cooperatively and put a t.grid_sync() between)");
  const std::string m2 = error_message([&] { rows[{2, 4}](ufx::sim, false, m0); });
  CHECK(m2 == msg); // the same report every time: the checked blocks run in a fixed order
}

TEST_CASE("sim global checks: reads of device memory nothing has written, and an array a kernel fills in full") {
  if (!kernel_runnable<ufx::sim_t>()) return;
  auto copy = ufx::kernel(
      [](const ufx::thread& t, ufx::ndview<const float, 1> src, ufx::ndview<float, 1> dst) {
        const auto i = t.grid<1>();
        if (i < dst.extent(0)) dst(i) = src(i) * 2;
      },
      "copy");
  ufx::device_array<float, 1> fresh({8}, ufx::sim), out({8}, ufx::sim);
  std::string msg = error_message([&] { copy[{1, 8}](ufx::sim, fresh, out); });
  CHECK(msg == "kernel 'copy' on ufx::sim device 0, block (0, 0, 0), thread (0, 0, 0): uninitialised device-memory "
               "read: this thread reads element (0) of argument 1 (parameter 1), which nothing has written since it "
               "was allocated (a new device_array, empty_like or device_array_like holds undefined values, as "
               "cudaMalloc's memory does)");
  // a kernel that fills the array in full, then one that reads it: no false alarm
  auto fill = ufx::kernel([](const ufx::thread& t, ufx::ndview<float, 1> a) { a(t.grid<1>()) = 1.5f; }, "fill");
  fill[{1, 8}](ufx::sim, fresh);
  copy[{1, 8}](ufx::sim, fresh, out);
  CHECK(ufx::to_vector(out.to_host()) == std::vector<float>(8, 3.f));
  // a half-filled array: the first element never written is reported
  auto half = ufx::device_array_like(fresh);
  auto fill_half = ufx::kernel(
      [](const ufx::thread& t, ufx::ndview<float, 1> a) {
        if (t.grid<1>() < 4) a(t.grid<1>()) = 0.f;
      },
      "fill_half");
  fill_half[{1, 8}](ufx::sim, half);
  msg = error_message([&] { copy[{1, 8}](ufx::sim, half, out); });
  INFO(msg); // (at df501fb device_array_like put `half` on ufx::cuda where a GPU answered: a staged copy, no report)
  CHECK(msg.find("thread (4, 0, 0): uninitialised device-memory read: this thread reads element (4) of argument 1") !=
        std::string::npos);
  // written by a copy, by a library call's output, or by a kernel's read-modify-write of a copy: fine
  auto by_copy = ufx::device_array_like(fresh);
  by_copy.copy_from_host(std::vector<float>(8, 2.f));
  copy[{1, 8}](ufx::sim, by_copy, out);
  auto by_call = ufx::device_array_like(fresh);
  ufx::vectorize([](float v) { return v + 1.f; })(ufx::sim, fresh, ufx::out(by_call));
  copy[{1, 8}](ufx::sim, by_call, out);
  CHECK(ufx::to_vector(out.to_host()) == std::vector<float>(8, 5.f));
  // a read-modify-write of a never-written element through a writable view
  auto bump = ufx::kernel([](const ufx::thread& t, ufx::ndview<unsigned, 1> a) { ufx::atomic_add(a(t.grid<1>()), 1u); },
                          "bump");
  ufx::device_array<unsigned, 1> counters({4}, ufx::sim);
  msg = error_message([&] { bump[{1, 4}](ufx::sim, counters); });
  CHECK(msg.find("uninitialised device-memory read: this thread updates element (0) of argument 1") !=
        std::string::npos);
  // of a 2-byte float16 too (whose plain reads are not checked: a program may write the fill's bytes)
  auto top = ufx::kernel(
      [](const ufx::thread& t, ufx::ndview<ufx::float16, 1> a) { ufx::atomic_max(a(t.grid<1>()), ufx::float16(1)); },
      "top");
  ufx::device_array<ufx::float16, 1> maxima({4}, ufx::sim);
  msg = error_message([&] { top[{1, 4}](ufx::sim, maxima); });
  CHECK(msg.find("uninitialised device-memory read: this thread updates element (0) of argument 1") !=
        std::string::npos);
}

// ---- thread order is not a contract: seeded orders (UFX_SIM_SEED, ufx::set_sim_seed)

namespace {
/// Restores the seed a test changed.
struct seed_scope {
  std::uint64_t saved = ufx::sim_seed();
  explicit seed_scope(std::uint64_t s) { ufx::set_sim_seed(s); }
  ~seed_scope() { ufx::set_sim_seed(saved); }
};

/// Each thread takes the next slot of a counter and writes its index there: correct as a set, but
/// the slots' order is the order the threads ran in.
struct ticket_body {
  UFX_HD void operator()(const ufx::thread& t, ufx::ndview<unsigned, 1> counter, ufx::ndview<int, 1> out) const {
    const unsigned slot = ufx::atomic_add(counter(0), 1u);
    out(slot) = static_cast<int>(t.grid<1>());
  }
};
} // namespace

TEST_CASE("sim seeded order: a kernel that depends on thread order passes in the fixed order and fails under seeds") {
  if (!kernel_runnable<ufx::sim_t>()) return;
  auto k = ufx::kernel(ticket_body{}, "tickets");
  const auto run = [&] {
    std::vector<unsigned> counter{0};
    std::vector<int> out(64, -1);
    k[{2, 32}](ufx::sim, counter, out);
    return out;
  };
  std::vector<int> iota(64);
  std::iota(iota.begin(), iota.end(), 0);
  {
    const seed_scope fixed(0);
    CHECK(run() == iota); // the fixed order: blocks, then threads, by index
  }
  int differing = 0;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    const seed_scope s(seed);
    CHECK(ufx::sim_seed() == seed);
    auto out = run();
    differing += out != iota ? 1 : 0;
    std::sort(out.begin(), out.end());
    CHECK(out == iota); // every thread got a slot, whatever the order
  }
  CHECK(differing >= 6); // the order changes under (almost) every seed

  // the same seed and the same launches give the same order; an error names its seed
  std::vector<int> first, second;
  {
    const seed_scope s(42);
    first = run();
  }
  {
    const seed_scope s(42);
    second = run();
  }
  CHECK(first == second);
  const seed_scope s(7);
  auto racy = ufx::kernel(
      [](const ufx::thread& t, ufx::shared<int[4]> sh, ufx::ndview<int, 1> o) {
        sh[t.thread_idx().x] = 1;
        t.sync();
        if (t.thread_idx().x == 0) sh[1] = 2;
        o(t.thread_idx().x) = sh[1];
      },
      "racy");
  std::vector<int> o(4);
  const std::string msg = error_message([&] { racy[{1, 4}](ufx::sim, o); });
  CHECK(msg.find("shared-memory race") != std::string::npos);
  CHECK(msg.find("(thread order: UFX_SIM_SEED=7)") != std::string::npos);
}

TEST_CASE("kernel on sim: a missing barrier between a shared write and a read is reported in any thread order") {
  if (!kernel_runnable<ufx::sim_t>()) return;
  auto k = ufx::kernel(missing_sync_body{}, "missing_sync");
  int reader_first = 0, writer_first = 0;
  for (std::uint64_t seed = 1; seed <= 16; ++seed) {
    const seed_scope scope(seed);
    std::vector<int> out(1, -1);
    const std::string msg = error_message([&] { k[{1, 2}](ufx::sim, out); });
    CAPTURE(msg);
    // reader first: the read of unwritten memory, with the missing barrier named
    if (msg.find("thread (0, 0, 0): uninitialised shared-memory read: this thread reads element (0) of shared array 0 "
                 "(parameter 1), which thread (1, 0, 0) writes later in the same barrier interval: a barrier "
                 "(t.sync()) is probably missing") != std::string::npos)
      ++reader_first;
    // writer first: the read sees the write, unordered: a race, which says where the barrier goes
    else if (msg.find(
                 "thread (0, 0, 0): shared-memory race: this thread reads element (0) of shared array 0 (parameter "
                 "1), which thread (1, 0, 0) wrote since the last sync() (put a t.sync() between the two "
                 "accesses") != std::string::npos)
      ++writer_first;
    else FAIL("neither message");
  }
  CHECK(reader_first > 0);
  CHECK(writer_first > 0);
}

TEST_CASE("sim seeded order: correct kernels give the same results under any seed") {
  if (!kernel_runnable<ufx::sim_t>()) return;
  std::vector<float> x(1000);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 7);
  for (std::uint64_t seed : {0ull, 3ull, 99ull}) {
    const seed_scope s(seed);
    // a shared-memory reduction with barriers and a warp shuffle finish
    auto k = ufx::kernel(
        [](const ufx::thread& t, ufx::shared<float[32]> scratch, ufx::ndview<const float, 1> in,
           ufx::ndview<float, 1> out) {
          const auto i = t.grid<1>();
          const float v = i < in.extent(0) ? in(i) : 0.f;
          const float sum = ufx::block_reduce(t, scratch, v, [](float a, float b) { return a + b; });
          if (t.thread_rank() == 0) out(t.block_idx().x) = sum;
        },
        "block_sums");
    std::vector<float> out(4, 0.f);
    k[{4, 256}](ufx::sim, x, out);
    float total = 0;
    for (float v : out) total += v;
    CHECK(total == 2997.f); // 0..6 repeated: exact in floats
    // a cooperative launch under a seeded block order
    ufx::ndarray<int, 2> m({8, 8}, 0);
    ufx::kernel(
        [](const ufx::thread& t, ufx::ndview<int, 2> mm) {
          const auto col = t.grid<1>();
          for (ufx::index_t row = 1; row < mm.extent(0); ++row) {
            mm(row, col) = mm(row - 1, mm.extent(1) - col - 1) + 1;
            t.grid_sync();
          }
        },
        "rows")[ufx::cooperative({2, 4})](ufx::sim, m);
    CHECK(m(7, 5) == 7);
  }
}

TEST_CASE("sim global checks: CUDA's threadfence reduction (fence, then an atomic ticket) orders the last block's "
          "reads; without the fence, a race") {
  if (!kernel_runnable<ufx::sim_t>()) return;
  // CUDA's threadFenceReduction sample: each block stores its partial sum, fences, takes a ticket;
  // the block that takes the last ticket adds up the partials and resets the counter
  auto k = ufx::kernel(
      [](const ufx::thread& t, ufx::shared<float[32]> scratch, ufx::shared<bool[1]> last, bool fence,
         ufx::ndview<const float, 1> x, ufx::ndview<float, 1> partial, ufx::ndview<unsigned, 1> count,
         ufx::ndview<float, 1> result) {
        const auto i = t.grid<1>();
        const float s = ufx::block_reduce(t, scratch, x(i), [](float a, float b) { return a + b; });
        const unsigned blocks = t.grid_dim().x;
        if (t.thread_rank() == 0) {
          partial(t.block_idx().x) = s;
          if (fence) ufx::threadfence();
          const unsigned ticket = ufx::atomic_inc(count(0), blocks - 1);
          last[0] = ticket == blocks - 1;
        }
        t.sync();
        if (last[0] && t.thread_rank() == 0) {
          float total = 0;
          for (unsigned b = 0; b < blocks; ++b) total += partial(b);
          result(0) = total;
          count(0) = 0;
        }
      },
      "fence_reduce");
  std::vector<float> x(4 * 64, 1.f), result{0.f};
  ufx::device_array<float, 1> partial({4}, ufx::sim);
  auto count = ufx::to_device(std::vector<unsigned>{0}, ufx::sim);
  k[{4, 64}](ufx::sim, true, x, partial, count, result);
  CHECK(result[0] == 256.f);
  CHECK(ufx::to_vector(count.to_host()) == std::vector<unsigned>{0});
  ufx::device_array<float, 1> fresh({4}, ufx::sim); // (the partials again would store the values there)
  const std::string msg = error_message([&] { k[{4, 64}](ufx::sim, false, x, fresh, count, result); });
  CHECK(msg.find("block (3, 0, 0), thread (0, 0, 0): global-memory race: this thread reads element (0) of argument 3 "
                 "(parameter 5), which thread (0, 0, 0) of block (0, 0, 0) wrote in this launch") != std::string::npos);
}

// ---- ufx's own block bodies on the sim (device/thread.hpp's block_body, run by run_block_grid)

namespace {
/// Reads its block's first shared word before any thread wrote it, then writes it: the value read
/// is what the block's shared memory starts as.
struct first_shared_word {
  using state_type = int;
  int* out;
  UFX_HD int step(const ufx::detail::thread_pos& t, int&, unsigned char* shared, int) const {
    int v;
    std::memcpy(&v, shared, sizeof v);
    out[t.block_idx.x] = v;
    std::memcpy(shared, &t.block_idx.x, sizeof v); // what the next block would see, if it were kept
    return -1;
  }
};
} // namespace

TEST_CASE("a block body's shared memory starts as all-ones bytes in every block on the sim") {
  // so a body that reads a slot its block never wrote gets NaN (float, double) or -1 (integers), which
  // shows in its results, not a zero or the previous block's value, which may pass for right
  ufx::device_array<int, 1> out({3}, ufx::sim);
  ufx::detail::launch_hook<ufx::sim_t>::run(ufx::sim, ufx::launch_config{ufx::dim3(3), ufx::dim3(1), 16},
                                            first_shared_word{out.data()}, "first_shared_word");
  const auto h = out.to_host();
  CHECK(h(0) == -1);
  CHECK(h(1) == -1);
  CHECK(h(2) == -1);
}
