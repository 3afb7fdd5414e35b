// Atomics (ufx/atomic.hpp) on the host: the old value returned and the new one stored for every
// element type, NaN and signed zeros, and several std::threads on one element. (The device branch
// is libcu++'s cuda::atomic_ref; here, as in ufx_tests_cuda's host code, std::atomic_ref runs.)
// Then float16 and bfloat16 in a raw kernel on every target that runs kernels (ufx::cuda when a
// GPU answers): counts, rounding once per update, max / min, shared memory.
#include "common.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <thread>

namespace {

// int64_t is long on LP64, so long long and unsigned long long are types of their own there.
#define UFX_ATOMIC_TYPES                                                                                               \
  std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, long long, unsigned long long, float, double
#define UFX_ATOMIC_FLOAT_TYPES float, double, ufx::float16, ufx::bfloat16

constexpr int n_threads = 4;
constexpr int n_per_thread = 100000;

/// Runs fn(t) on n_threads std::threads, t = 0 .. n_threads - 1, and waits for them.
template <class Fn>
void on_threads(Fn fn) {
  std::vector<std::thread> threads;
  for (int t = 0; t < n_threads; ++t) threads.emplace_back(fn, t);
  for (auto& th : threads) th.join();
}

} // namespace

TEST_CASE_TEMPLATE("atomic_add, atomic_sub and atomic_exch return the old value and store the new one", T,
                   UFX_ATOMIC_TYPES) {
  T x = T(10);
  CHECK(ufx::atomic_add(x, T(5)) == T(10));
  CHECK(x == T(15));
  CHECK(ufx::atomic_sub(x, T(3)) == T(15));
  CHECK(x == T(12));
  CHECK(ufx::atomic_exch(x, T(40)) == T(12));
  CHECK(x == T(40));
  // the value may have another arithmetic type: it is converted to T
  CHECK(ufx::atomic_add(x, 2) == T(40));
  CHECK(x == T(42));
  CHECK(ufx::atomic_sub(x, 2.0) == T(42));
  CHECK(x == T(40));
  static_assert(std::is_same_v<decltype(ufx::atomic_add(x, 1)), T>);
  static_assert(std::is_same_v<decltype(ufx::atomic_cas(x, 1, 2)), T>);
}

TEST_CASE_TEMPLATE("atomic_min and atomic_max return the old value and store only a winner", T, UFX_ATOMIC_TYPES,
                   ufx::float16, ufx::bfloat16) {
  T x = T(10);
  CHECK(ufx::atomic_min(x, T(20)) == T(10));
  CHECK(x == T(10));
  CHECK(ufx::atomic_min(x, T(3)) == T(10));
  CHECK(x == T(3));
  CHECK(ufx::atomic_max(x, T(1)) == T(3));
  CHECK(x == T(3));
  CHECK(ufx::atomic_max(x, T(30)) == T(3));
  CHECK(x == T(30));
  if constexpr (std::numeric_limits<T>::is_signed) {
    CHECK(ufx::atomic_min(x, T(-5)) == T(30));
    CHECK(x == T(-5));
    CHECK(ufx::atomic_max(x, T(-7)) == T(-5));
    CHECK(x == T(-5));
  } else {
    // unsigned: the largest value is the largest, not -1
    CHECK(ufx::atomic_max(x, std::numeric_limits<T>::max()) == T(30));
    CHECK(x == std::numeric_limits<T>::max());
    CHECK(ufx::atomic_min(x, T(0)) == std::numeric_limits<T>::max());
    CHECK(x == T(0));
  }
}

TEST_CASE_TEMPLATE("atomic_cas swaps when the element equals expected and returns the old value either way", T,
                   UFX_ATOMIC_TYPES) {
  T x = T(7);
  CHECK(ufx::atomic_cas(x, T(7), T(9)) == T(7)); // success
  CHECK(x == T(9));
  CHECK(ufx::atomic_cas(x, T(7), T(11)) == T(9)); // failure: x unchanged
  CHECK(x == T(9));
  CHECK(ufx::atomic_cas(x, 9, 12) == T(9)); // int arguments converted to T
  CHECK(x == T(12));
}

TEST_CASE_TEMPLATE("atomic integers wrap around", T, std::int32_t, std::uint32_t, std::int64_t, std::uint64_t) {
  using lim = std::numeric_limits<T>;
  T x = lim::max();
  CHECK(ufx::atomic_add(x, T(1)) == lim::max());
  CHECK(x == lim::min());
  CHECK(ufx::atomic_sub(x, T(1)) == lim::min());
  CHECK(x == lim::max());
}

TEST_CASE_TEMPLATE("atomic_min and atomic_max on floats: a NaN argument is never stored, a stored NaN stays", T,
                   UFX_ATOMIC_FLOAT_TYPES) {
  const T nan = std::numeric_limits<T>::quiet_NaN();
  T x = T(1);
  CHECK(ufx::atomic_min(x, nan) == T(1));
  CHECK(x == T(1));
  CHECK(ufx::atomic_max(x, nan) == T(1));
  CHECK(x == T(1));
  x = nan;
  CHECK(std::isnan(ufx::atomic_min(x, T(0))));
  CHECK(std::isnan(x));
  CHECK(std::isnan(ufx::atomic_max(x, T(0))));
  CHECK(std::isnan(x));
  CHECK(std::isnan(ufx::atomic_max(x, std::numeric_limits<T>::infinity())));
  CHECK(std::isnan(x));
  // -0.0 and +0.0 compare equal: the stored one stays
  x = T(0);
  CHECK(!std::signbit(ufx::atomic_min(x, T(-0.0))));
  CHECK(!std::signbit(x));
  x = T(-0.0);
  CHECK(std::signbit(ufx::atomic_max(x, T(0))));
  CHECK(std::signbit(x));
  // infinities are ordinary values
  CHECK(ufx::atomic_min(x, -std::numeric_limits<T>::infinity()) == T(0));
  CHECK(x == -std::numeric_limits<T>::infinity());
}

TEST_CASE_TEMPLATE("atomic_cas on floats compares bits: -0.0 does not match +0.0, a NaN matches itself", T,
                   UFX_ATOMIC_FLOAT_TYPES) {
  T x = T(0);
  CHECK(!std::signbit(ufx::atomic_cas(x, T(-0.0), T(5))));
  CHECK(x == T(0)); // no swap although -0.0 == +0.0
  const T nan = std::numeric_limits<T>::quiet_NaN();
  x = nan;
  CHECK(std::isnan(ufx::atomic_cas(x, nan, T(5))));
  CHECK(x == T(5)); // swapped although nan != nan
}

TEST_CASE_TEMPLATE("atomic_add and atomic_sub from several threads lose no update", T, UFX_ATOMIC_TYPES) {
  // integral increments, so the float and double sums are exact (400000 < 2^24)
  T x = T(0);
  on_threads([&](int) {
    for (int j = 0; j < n_per_thread; ++j) ufx::atomic_add(x, T(1));
  });
  CHECK(x == T(n_threads * n_per_thread));
  on_threads([&](int) {
    for (int j = 0; j < n_per_thread; ++j) ufx::atomic_sub(x, 1);
  });
  CHECK(x == T(0));
}

TEST_CASE_TEMPLATE("an atomic_cas loop from several threads loses no update", T, UFX_ATOMIC_TYPES) {
  // each thread guesses the current value and learns the real one from a failed swap
  T x = T(0);
  on_threads([&](int) {
    T guess = T(0);
    for (int j = 0; j < n_per_thread; ++j) {
      for (T seen; (seen = ufx::atomic_cas(x, guess, T(guess + T(1)))) != guess;) guess = seen;
      guess = T(guess + T(1));
    }
  });
  CHECK(x == T(n_threads * n_per_thread));
}

TEST_CASE_TEMPLATE("atomic_exch from several threads hands every value on once", T, UFX_ATOMIC_TYPES) {
  // thread t writes t * n + 1 .. t * n + n; the old values returned and the last one stored are
  // the initial 0 and every value written, each exactly once
  constexpr int n = 10000;
  T x = T(0);
  std::vector<std::vector<T>> olds(n_threads);
  on_threads([&](int t) {
    for (int j = 0; j < n; ++j) olds[static_cast<std::size_t>(t)].push_back(ufx::atomic_exch(x, T(t * n + j + 1)));
  });
  std::vector<T> seen{x};
  for (const auto& o : olds) seen.insert(seen.end(), o.begin(), o.end());
  std::sort(seen.begin(), seen.end());
  REQUIRE(seen.size() == std::size_t{n_threads * n + 1});
  bool each_once = true;
  for (std::size_t k = 0; k < seen.size(); ++k) each_once = each_once && seen[k] == T(static_cast<int>(k));
  CHECK(each_once);
}

TEST_CASE_TEMPLATE("atomic_min and atomic_max from several threads keep the extreme", T, UFX_ATOMIC_TYPES) {
  // thread t offers n_threads * j + t, j descending for min and ascending for max, so the threads
  // keep overtaking each other; each thread's old values move one way only (one element's values
  // are seen in one order)
  T lo = std::numeric_limits<T>::max();
  T hi = std::numeric_limits<T>::lowest();
  std::vector<int> monotone(n_threads, 1);
  on_threads([&](int t) {
    T last_lo = std::numeric_limits<T>::max(), last_hi = std::numeric_limits<T>::lowest();
    for (int j = n_per_thread - 1; j >= 0; --j) {
      const T old_lo = ufx::atomic_min(lo, T(n_threads * j + t));
      const T old_hi = ufx::atomic_max(hi, T(n_threads * (n_per_thread - 1 - j) + t));
      if (old_lo > last_lo || old_hi < last_hi) monotone[static_cast<std::size_t>(t)] = 0;
      last_lo = old_lo;
      last_hi = old_hi;
    }
  });
  CHECK(lo == T(0));
  CHECK(hi == T(n_threads * n_per_thread - 1));
  CHECK(std::count(monotone.begin(), monotone.end(), 1) == n_threads);
}

TEST_CASE("atomic_add through an ndview's element, as a kernel does: out(0) += x(i) from several threads") {
  const std::vector<float> xs = ufx_test::iota_f(n_threads * 1000); // 0 .. 3999, sum exact in float
  ufx::ndarray<float, 1> out_array({2}, 0.f);
  const ufx::ndview<const float, 1> x(xs.data(), {static_cast<ufx::index_t>(xs.size())});
  const ufx::ndview<float, 1> out = out_array.view();
  on_threads([&](int t) {
    for (ufx::index_t i = t; i < x.extent(0); i += n_threads) {
      ufx::atomic_add(out(0), x(i));
      ufx::atomic_max(out(1), x(i));
    }
  });
  CHECK(out_array(0) == 3999.f * 4000.f / 2);
  CHECK(out_array(1) == 3999.f);
}

TEST_CASE_TEMPLATE("atomic_add and atomic_sub on float16 and bfloat16 round once, as a + b and a - b", T, ufx::float16,
                   ufx::bfloat16) {
  T x = T(1);
  CHECK(ufx::atomic_add(x, T(0.1f)) == T(1));
  CHECK(x.bits() == (T(1) + T(0.1f)).bits()); // 1.0996 in float16, 1.1016 in bfloat16
  CHECK(ufx::atomic_sub(x, T(0.1f)).bits() == (T(1) + T(0.1f)).bits());
  CHECK(x.bits() == (T(1) + T(0.1f) - T(0.1f)).bits());
  CHECK(ufx::atomic_exch(x, T(-0.0)) == T(1) + T(0.1f) - T(0.1f));
  CHECK(x.bits() == 0x8000);
  // from several threads: 4 x 64 ones, every partial sum exact
  x = T(0);
  on_threads([&](int) {
    for (int j = 0; j < 64; ++j) ufx::atomic_add(x, T(1));
  });
  CHECK(x.bits() == T(256).bits());
}

namespace {

/// 256 threads in two blocks: each adds 1 to acc(0) (its old value into olds), `step` to acc(1), offers vals(i) to the
/// max in acc(2) and the min in acc(3) (neighbours in one 4-byte word), takes 1 from acc(4), and adds 1 to its block's
/// shared counter, which thread 0 adds to acc(5).
template <class T>
struct half_atomics_body {
  T step;
  UFX_HD void operator()(const ufx::thread& t, ufx::shared<T[1]> count, ufx::ndview<T, 1> acc,
                         ufx::ndview<const T, 1> vals, ufx::ndview<T, 1> olds) const {
    const auto i = t.grid<1>();
    if (t.thread_idx().x == 0) count[0] = T(0);
    t.sync();
    olds(i) = ufx::atomic_add(acc(0), T(1));
    ufx::atomic_add(acc(1), step);
    ufx::atomic_max(acc(2), vals(i));
    ufx::atomic_min(acc(3), vals(i));
    ufx::atomic_sub(acc(4), T(1));
    ufx::atomic_add(count[0], T(1));
    t.sync();
    if (t.thread_idx().x == 0) ufx::atomic_add(acc(5), count[0]);
  }
};

template <class Target, class T>
void check_half_atomics(T start, T step, std::uint16_t expect) {
  // every update of acc(1) rounds acc(1) + step once; all add the same step, so any order gives these bits
  T serial = start;
  for (int k = 0; k < 256; ++k) serial = serial + step;
  REQUIRE(serial.bits() == expect);
  std::vector<T> vals;
  for (int i = 0; i < 256; ++i) vals.push_back(T(i - 200)); // -200 .. 55, exact in both types
  vals[7] = std::numeric_limits<T>::quiet_NaN();            // never stored, as a float's
  vals[9] = T(-0.0);
  const T inf = std::numeric_limits<T>::infinity();
  std::vector<T> acc{T(0), start, -inf, inf, T(256), T(0)}, olds(256);
  ufx::kernel(half_atomics_body<T>{step}, "half_atomics")[{2, 128}](Target{}, acc, vals, olds);
  CHECK(acc[0].bits() == T(256).bits());
  CHECK(acc[1].bits() == expect);
  CHECK(acc[2].bits() == T(55).bits());
  CHECK(acc[3].bits() == T(-200).bits());
  CHECK(acc[4].bits() == T(0).bits());
  CHECK(acc[5].bits() == T(256).bits());
  std::sort(olds.begin(), olds.end()); // the counter's old values: each of 0 .. 255 once
  bool each_once = true;
  for (int k = 0; k < 256; ++k) each_once = each_once && olds[static_cast<std::size_t>(k)].bits() == T(k).bits();
  CHECK(each_once);
}

} // namespace

TEST_CASE_TEMPLATE("float16 and bfloat16 atomics in a kernel: exact counts, one rounding per add, max / min", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::kernel_runnable<Target>()) return;
  // float16: 2048 + 3 rounds to 2052 (a tie, to even), ... up to 3072; the exact sum would be 2816
  check_half_atomics<Target>(ufx::float16(2048), ufx::float16(3), 0x6a00);
  // bfloat16: exact up to 258, then 261 rounds to 260 (a tie, to even), ... up to 936; the exact sum would be 768
  check_half_atomics<Target>(ufx::bfloat16(0), ufx::bfloat16(3), 0x446a);
}
