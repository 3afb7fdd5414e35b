// ufx::vectorize on every target: values, broadcasting, result containers, out, errors.
#include "common.hpp"

#include <atomic>
#include <cmath>
#include <complex>
#include <cstdint>
#include <tuple>
#include <mutex>
#include <set>
#include <span>
#include <stdexcept>
#include <thread>

using ufx_test::add_f;
using ufx_test::error_message;
using ufx_test::iota_f;

namespace {
struct divmod_f {
  UFX_HD std::tuple<int, int> operator()(int a, int b) const { return {a / b, a % b}; }
};
} // namespace

TEST_CASE_TEMPLATE("vectorize adds two std::vectors into a std::vector", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto add = ufx::vectorize([] UFX_HD(float a, float b) { return a + b; });
  const auto x = iota_f(1000), y = iota_f(1000, 10.f);
  std::vector<float> z = add(Target{}, x, y);
  REQUIRE(z.size() == 1000);
  for (int i = 0; i < 1000; ++i) CHECK(z[i] == 2.f * i + 10.f);
}

#if defined(__linux__)
TEST_CASE_TEMPLATE("a large fresh std::vector result is marked for huge pages and holds the call's values", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto add = ufx::vectorize([] UFX_HD(float a, float b) { return a + b; });
  const int n = (8 << 20) / 4 + 3; // 8 MiB and a bit: malloc's own mapping, not 2 MiB aligned
  const auto x = iota_f(n), y = iota_f(n, 1.f);
  std::vector<float> z = add(Target{}, x, y);
  REQUIRE(z.size() == static_cast<std::size_t>(n));
  bool all = true;
  for (int i = 0; i < n; ++i) all = all && z[i] == 2.f * static_cast<float>(i) + 1.f;
  CHECK(all);
  if (ufx_test::kernel_has_thp()) {
    CHECK(ufx_test::vm_flags_of(z.data() + n / 2).find(" hg ") != std::string::npos);
  }
  std::vector<float> small = add(Target{}, iota_f(10), 1.f); // below 4 MiB: as std::vector makes it
  CHECK(small[9] == 10.f);
}
#endif

TEST_CASE_TEMPLATE("scalars broadcast on either side and a scalar call returns a scalar", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto axpy = ufx::vectorize([] UFX_HD(float a, float x, float y) { return a * x + y; });
  const auto x = iota_f(5);
  std::vector<float> r = axpy(Target{}, 2.f, x, 1.f);
  CHECK(r == std::vector<float>{1, 3, 5, 7, 9});
  float s = axpy(Target{}, 2.f, 3.f, 1.f);
  CHECK(s == 7.f);
}

TEST_CASE_TEMPLATE("(3,1) + (1,4) broadcasts to a (3,4) ndarray", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  ufx::ndarray<int, 2> col({3, 1}), row({1, 4});
  for (int i = 0; i < 3; ++i) col(i, 0) = 10 * i;
  for (int j = 0; j < 4; ++j) row(0, j) = j;
  auto add = ufx::vectorize(add_f{});
  ufx::ndarray<int, 2> r = add(Target{}, col, row);
  REQUIRE(r.shape() == std::array<ufx::index_t, 2>{3, 4});
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) CHECK(r(i, j) == 10 * i + j);
}

TEST_CASE_TEMPLATE("a large (n,1) + (1,n) broadcast is right on the parallel path", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const int n = 700; // 490000 elements: above the host target's serial cutoff
  ufx::ndarray<double, 2> a({n, 1}), b({1, n});
  for (int i = 0; i < n; ++i) a(i, 0) = i, b(0, i) = 1000.0 * i;
  auto sub = ufx::vectorize([] UFX_HD(double x, double y) { return y - x; });
  auto r = sub(Target{}, a, b);
  long bad = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) bad += r(i, j) != 1000.0 * j - i;
  CHECK(bad == 0);
}

TEST_CASE_TEMPLATE("the result element type is the function's return type", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto half = ufx::vectorize([] UFX_HD(int a) { return a / 2.0; });
  std::vector<double> r = half(Target{}, std::vector<int>{1, 2, 3});
  CHECK(r == std::vector<double>{0.5, 1.0, 1.5});
  auto is_pos = ufx::vectorize([] UFX_HD(float a) { return a > 0.f; });
  ufx::ndarray<bool, 1> b = is_pos(Target{}, ufx::ndarray<float, 1>::of({-1.f, 2.f}));
  CHECK(b(0) == false);
  CHECK(b(1) == true);
}

TEST_CASE_TEMPLATE("containers mix: std::array, std::span, ndview, ndarray", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto add = ufx::vectorize(add_f{});
  std::array<float, 3> a{1, 2, 3};
  std::vector<float> v{10, 20, 30};
  std::vector<float> r1 = add(Target{}, a, std::span<const float>(v));
  CHECK(r1 == std::vector<float>{11, 22, 33});
  float buf[6] = {0, 1, 2, 3, 4, 5};
  ufx::ndview<float, 2> t(buf, {3, 2}, {1, 3}); // transpose of a 2x3 buffer
  ufx::ndarray<float, 2> r2 = add(Target{}, t, ufx::ndarray<float, 1>::of({100, 200}));
  CHECK(r2(2, 0) == 102.f);
  CHECK(r2(1, 1) == 204.f);
  CHECK_THROWS_AS(add(Target{}, t, v), ufx::shape_error); // (3,2) + (3,) does not broadcast
}

TEST_CASE_TEMPLATE("out writes into an existing container, in place included", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto add = ufx::vectorize(add_f{});
  auto x = iota_f(6);
  const auto y = iota_f(6, 1.f);
  std::vector<float> z(6, -1.f);
  add(Target{}, x, y, ufx::out(z));
  CHECK(z == std::vector<float>{1, 3, 5, 7, 9, 11});
  add(Target{}, x, y, ufx::out(x));
  CHECK(x == std::vector<float>{1, 3, 5, 7, 9, 11});
  std::vector<double> wide(6);
  add(Target{}, y, y, ufx::out(wide)); // float results into double: same kind
  CHECK(wide[5] == 12.0);
  ufx::ndarray<float, 2> big({2, 6}, 0.f); // inputs broadcast to the out's shape
  add(Target{}, y, 1.f, ufx::out(big));
  CHECK(big(1, 5) == 7.f);
}

TEST_CASE_TEMPLATE("operands of one shape (the dense path on CPU targets) give a plain loop's values", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto fma3 = ufx::vectorize([] UFX_HD(float a, float b, float c) { return a * b + c; });
  for (const std::size_t n : {std::size_t{1}, std::size_t{63}, std::size_t{4096}, std::size_t{3 << 16} + 5}) {
    CAPTURE(n);
    const auto x = iota_f(n), y = iota_f(n, 0.5f);
    std::vector<float> want(n), fused(n), z(n, -1.f);
    for (std::size_t i = 0; i < n; ++i) want[i] = x[i] * y[i] + 2.f, fused[i] = std::fma(x[i], y[i], 2.f);
    // ufx runs the function as the target's compiler built it (docs/vectorize.md, "Across
    // targets"): g++ at -O2 for x86-64 rounds a * b and then + c, as this loop does; nvcc contracts
    // a * b + c into one FMA where it chooses to (-fmad=true, its default), so on ufx::cuda each
    // element is one of the two roundings (they differ from n = 196613 on: products past 24 bits)
    const auto as_written = [&](const std::vector<float>& got) {
      if constexpr (std::is_same_v<Target, ufx::cuda_t>) {
        if (got.size() != n) return false;
        for (std::size_t i = 0; i < n; ++i)
          if (got[i] != want[i] && got[i] != fused[i]) return false;
        return true;
      } else {
        return got == want;
      }
    };
    fma3(Target{}, x, y, 2.f, ufx::out(z)); // two arrays and a scalar
    CHECK(as_written(z));
    CHECK(as_written(fma3(Target{}, x, y, 2.f))); // a fresh result
    std::vector<float> w = x;
    fma3(Target{}, w, y, 2.f, ufx::out(w)); // in place
    CHECK(as_written(w));
    ufx::ndarray<float, 2> m({2, static_cast<ufx::index_t>(n)}, 1.f), r({2, static_cast<ufx::index_t>(n)}, 0.f);
    fma3(Target{}, m, m, 1.f, ufx::out(r)); // rank 2
    CHECK(r(1, static_cast<ufx::index_t>(n) - 1) == 2.f);
    CHECK(r(0, 0) == 2.f);
  }
}

TEST_CASE_TEMPLATE("an out that partially overlaps an input reads the input as it was", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  // np.add(x[:-1], 0, out=x[1:]) shifts x right by one
  auto copy = ufx::vectorize([] UFX_HD(float a, float b) { return a + b; });
  auto x = iota_f(8);
  ufx::ndview<const float, 1> head(x.data(), {7});
  ufx::ndview<float, 1> tail(x.data() + 1, {7});
  copy(Target{}, head, 0.f, ufx::out(tail));
  CHECK(x == std::vector<float>{0, 0, 1, 2, 3, 4, 5, 6});
  // a reversed view onto the same memory: out = x[::-1] + 0 reverses x
  auto y = iota_f(5);
  ufx::ndview<const float, 1> rev(y.data() + 4, {5}, {-1});
  copy(Target{}, rev, 0.f, ufx::out(y));
  CHECK(y == std::vector<float>{4, 3, 2, 1, 0});
}

TEST_CASE_TEMPLATE("a function returning a tuple has several outputs, like np.divmod", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto divmod = ufx::vectorize(divmod_f{});
  const std::vector<int> a{7, 9, 20, 3};
  auto [q, r] = divmod(Target{}, a, 4);
  CHECK(q == std::vector<int>{1, 2, 5, 0});
  CHECK(r == std::vector<int>{3, 1, 0, 3});
  std::vector<int> q2(4), r2(4);
  divmod(Target{}, a, 4, ufx::out(q2, r2));
  CHECK(q2 == q);
  CHECK(r2 == r);
}

TEST_CASE_TEMPLATE("zero-size operands give empty results without calling the function", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto add = ufx::vectorize(add_f{});
  std::vector<float> e = add(Target{}, std::vector<float>{}, 1.f);
  CHECK(e.empty());
  ufx::ndarray<float, 2> a({3, 0}), b({1, 0});
  auto r = add(Target{}, a, b);
  CHECK(r.shape() == std::array<ufx::index_t, 2>{3, 0});
  ufx::ndarray<float, 2> c({0, 1}), d({1, 5});
  CHECK(add(Target{}, c, d).shape() == std::array<ufx::index_t, 2>{0, 5});
  CHECK_THROWS_AS(add(Target{}, ufx::ndarray<float, 1>({0}), ufx::ndarray<float, 1>({2})), ufx::shape_error);
}

TEST_CASE_TEMPLATE("shapes that do not broadcast name every operand's shape", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto add = ufx::vectorize(add_f{});
  const std::vector<float> x(3), y(4);
  CHECK(error_message([&] { add(Target{}, x, y); }) ==
        "ufx::vectorize: operands could not be broadcast together with shapes (3,) (4,)");
  ufx::ndarray<float, 2> a({2, 3});
  auto fma = ufx::vectorize([] UFX_HD(float p, float q, float r) { return p * q + r; });
  CHECK(error_message([&] { fma(Target{}, a, 1.f, y); }) ==
        "ufx::vectorize: operands could not be broadcast together with shapes (2,3) () (4,)");
  CHECK_THROWS_AS(add(Target{}, a, y), ufx::shape_error);
}

TEST_CASE("a broadcast shape with more elements than index_t counts is an error, as in NumPy") {
  // found by tests/fuzz: np.broadcast_shapes((2**62, 1), (1, 4)) raises "broadcast dimensions too large."
  float x = 1.f;
  const ufx::ndview<const float, 2> tall(&x, {ufx::index_t(1) << 62, 1}, {0, 0}), wide(&x, {1, 4}, {0, 0});
  auto add = ufx::vectorize([] UFX_HD(float a, float b) { return a + b; });
  CHECK(error_message([&] { add(ufx::serial, tall, wide); }) ==
        "ufx::vectorize: broadcast dimensions too large: the shape (4611686018427387904,4) has more elements than "
        "index_t can count");
  // NumPy multiplies the extents left to right and stops at a 0, as dims::size() does
  using ufx::index_t;
  using ufx::detail::dims;
  const index_t big = index_t(1) << 62;
  const dims over[] = {dims(std::array<index_t, 3>{big, 4, 0})}, empty[] = {dims(std::array<index_t, 3>{0, big, 4})},
             fits[] = {dims(std::array<index_t, 2>{big, 1}), dims(std::array<index_t, 1>{1})};
  CHECK_THROWS_AS(ufx::detail::broadcast(over), ufx::shape_error);
  CHECK(ufx::detail::broadcast(empty) == empty[0]);
  CHECK(ufx::detail::broadcast(fits) == fits[0]);
}

TEST_CASE_TEMPLATE("a wrong out shape is an error and nothing is written", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto add = ufx::vectorize(add_f{});
  ufx::ndarray<float, 2> a({2, 3}, 1.f);
  std::vector<float> small(3, -7.f);
  CHECK(error_message([&] { add(Target{}, a, a, ufx::out(small)); }) ==
        "ufx::vectorize: non-broadcastable output operand 0 with shape (3,) doesn't match the broadcast shape (2,3)");
  CHECK(small == std::vector<float>(3, -7.f));
  std::vector<float> other(4, -7.f);
  CHECK_THROWS_AS(add(Target{}, a, a, ufx::out(other)), ufx::shape_error);
  CHECK(other == std::vector<float>(4, -7.f));
  auto divmod = ufx::vectorize(divmod_f{});
  std::vector<int> q(2, -1), r(3, -1);
  CHECK_THROWS_AS(divmod(Target{}, std::vector<int>{1, 2}, 3, ufx::out(q, r)), ufx::shape_error);
  CHECK(q == std::vector<int>(2, -1));
}

TEST_CASE("a run-time ufx::target value picks the target") {
  auto add = ufx::vectorize(add_f{});
  const auto x = iota_f(4);
  for (ufx::target t : {ufx::target(ufx::serial), ufx::target(ufx::host), ufx::target(ufx::sim)}) {
    std::vector<float> r = add(t, x, x);
    CHECK(r == std::vector<float>{0, 2, 4, 6});
  }
#if !defined(__CUDACC__)
  CHECK(ufx::default_target() == ufx::target(ufx::host));
#endif
}

TEST_CASE("ufx::cuda that cannot run throws device_error saying why") {
  if (ufx::cuda_available()) return;
  auto add = ufx::vectorize(add_f{});
  const auto x = iota_f(4);
  const std::string msg = error_message([&] { add(ufx::cuda, x, x); });
  CHECK(msg.find("ufx::cuda is not available here") != std::string::npos);
  CHECK_THROWS_AS(add(ufx::cuda, x, x), ufx::device_error);
}

#if !defined(__CUDACC__) // host-only function (it throws)
TEST_CASE("an exception thrown by the function reaches the caller from every host thread") {
  auto check_positive = ufx::vectorize([](double v) {
    if (v < 0) throw std::domain_error("negative input");
    return v;
  });
  std::vector<double> x(1 << 18, 1.0);
  x[200000] = -1.0;
  CHECK_THROWS_AS(check_positive(ufx::host, x), std::domain_error);
  CHECK_THROWS_AS(check_positive(ufx::serial, x), std::domain_error);
}
#endif

#if !defined(__CUDACC__) // host-only functions (they throw, lock, record threads)
// ufx::host's scheduler (oneTBB's work stealing, or OpenMP: detail/cpu/executor.hpp) under what
// users do with it: calls inside calls, every range throwing, thread limits, several callers.
TEST_CASE("ufx::host's scheduler: nested calls, exceptions from every range, thread limits, concurrent callers") {
  const ufx::index_t n = 1 << 18;
  std::vector<double> x(n);
  for (ufx::index_t i = 0; i < n; ++i) x[i] = static_cast<double>(i % 1000);

  SUBCASE("a call inside a call") { // each row's sum is a host reduction run from a host gufunc's thread
    ufx::ndarray<double, 2> m({64, 4096});
    for (ufx::index_t i = 0; i < 64; ++i)
      for (ufx::index_t j = 0; j < 4096; ++j) m(i, j) = static_cast<double>(i + j % 7);
    auto row_sum = ufx::guvectorize<"(n)->()">(
        [](ufx::ndview<const double, 1> r, double& s) { s = ufx::reduce(ufx::host, r, ufx::plus{}, 0.0); });
    const ufx::ndarray<double, 1> s = row_sum(ufx::host, m);
    for (ufx::index_t i = 0; i < 64; ++i) {
      double e = 0; // small integers: exact in any order
      for (ufx::index_t j = 0; j < 4096; ++j) e += m(i, j);
      CHECK(s(i) == e);
    }
  }
  SUBCASE("every range throws: one exception reaches the caller, and the next call runs") {
    auto always = ufx::vectorize([](double) -> double { throw std::runtime_error("always"); });
    for (int k = 0; k < 3; ++k) CHECK_THROWS_WITH_AS(always(ufx::host, x), "always", std::runtime_error);
    auto twice = ufx::vectorize([](double v) { return 2 * v; });
    const std::vector<double> y = twice(ufx::host, x);
    CHECK(y[n - 1] == 2 * x[n - 1]);
  }
  SUBCASE("sizes about the elementwise cutoff: every element once, whatever the blocks") {
    auto twice = ufx::vectorize([](double v) { return 2 * v; });
    const ufx::index_t c = ufx::detail::host_blocks_cutoff;
    for (ufx::index_t m : {c - 1, c, c + 1, c + 65, 3 * c + 7}) {
      CAPTURE(m);
      std::vector<double> in(x.begin(), x.begin() + m), y(static_cast<std::size_t>(m), -1.0);
      twice(ufx::host, in, ufx::out(y));
      int bad = 0;
      for (ufx::index_t i = 0; i < m; ++i) bad += y[i] != 2 * in[i];
      CHECK(bad == 0);
    }
  }
  SUBCASE("host.threads(k) bounds the threads a call uses") {
    std::mutex m;
    std::set<std::thread::id> seen;
    auto note = ufx::vectorize([&](double v) {
      const std::lock_guard lock(m);
      seen.insert(std::this_thread::get_id());
      return v;
    });
    const std::vector<double> one = note(ufx::host.threads(1), x);
    CHECK(seen.size() == 1);
    CHECK(seen.count(std::this_thread::get_id()) == 1); // threads(1): the calling thread
    seen.clear();
    const std::vector<double> all = note(ufx::host, x);
    CHECK(seen.size() >= 1);
    CHECK(static_cast<int>(seen.size()) <= std::max(1, ufx::detail::host_threads()));
    CHECK(one == x);
    CHECK(all == x);
  }
  SUBCASE("several threads call at once") {
    const double expect = ufx::reduce(ufx::serial, x, ufx::plus{}, 0.0);
    std::atomic<int> wrong{0};
    std::vector<std::thread> callers;
    for (int c = 0; c < 4; ++c)
      callers.emplace_back([&, c] {
        auto add = ufx::vectorize([] UFX_HD(double a, double b) { return a + b; });
        for (int k = 0; k < 10; ++k) {
          const std::vector<double> y = add(ufx::host.threads(1 + c % 2), x, x);
          if (y[n / 2] != 2 * x[n / 2] || ufx::reduce(ufx::host, x, ufx::plus{}, 0.0) != expect) ++wrong;
        }
      });
    for (auto& t : callers) t.join();
    CHECK(wrong == 0);
  }
}
#endif

TEST_CASE_TEMPLATE("ranks up to four broadcast against each other", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  ufx::ndarray<int, 4> a({2, 1, 3, 1});
  ufx::ndarray<int, 3> b({4, 1, 5});
  for (int i = 0; i < 6; ++i) a.data()[i] = i * 100;
  for (int i = 0; i < 20; ++i) b.data()[i] = i;
  auto add = ufx::vectorize(add_f{});
  ufx::ndarray<int, 4> r = add(Target{}, a, b);
  REQUIRE(r.shape() == std::array<ufx::index_t, 4>{2, 4, 3, 5});
  long bad = 0;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 3; ++k)
        for (int l = 0; l < 5; ++l) bad += r(i, j, k, l) != a(i, 0, k, 0) + b(j, 0, l);
  CHECK(bad == 0);
}

TEST_CASE_TEMPLATE("bool results of std::vector operands come back as ndarray<bool, 1>", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto gt = ufx::vectorize([] UFX_HD(float a, float b) { return a > b; });
  auto r = gt(Target{}, std::vector<float>{1, 5, 3}, 2.f);
  static_assert(std::is_same_v<decltype(r), ufx::ndarray<bool, 1>>);
  CHECK(r == ufx::ndarray<bool, 1>::of({false, true, true}));
}

// ---- casting (casting.hpp): NumPy's safe rule for array inputs, same_kind for outputs

namespace {
// np.can_cast(a, b, rule) for the dtypes bool, int8, int16, int32, int64, uint8, uint16, uint32,
// uint64, float32, float64, longdouble, complex64, complex128 (rows from, columns to), printed by
// NumPy 1.24: /usr/bin/python3 -c "import numpy as np; ..." (tests/test_vectorize.cpp's comment)
constexpr const char* numpy_safe[] = {"11111111111111", ".1111....11111", "..111....11111", "...11.....11.1",
                                      "....1.....11.1", "..111111111111", "...11.11111111", "....1..11.11.1",
                                      "........1.11.1", ".........11111", "..........11.1", "...........1..",
                                      "............11", ".............1"};
constexpr const char* numpy_same_kind[] = {"11111111111111", ".1111....11111", ".1111....11111", ".1111....11111",
                                           ".1111....11111", ".1111111111111", ".1111111111111", ".1111111111111",
                                           ".1111111111111", ".........11111", ".........11111", ".........11111",
                                           "............11", "............11"};
using numpy_dtypes =
    std::tuple<bool, std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t, std::uint16_t, std::uint32_t,
               std::uint64_t, float, double, long double, std::complex<float>, std::complex<double>>;
struct scale_core {
  UFX_HD void operator()(ufx::ndview<const float, 1> x, float k, ufx::ndview<float, 1> y) const {
    for (ufx::index_t i = 0; i < x.extent(0); ++i) y(i) = k * x(i);
  }
};
/// a + b for any two arithmetic types.
struct add_mixed {
  template <class A, class B>
  UFX_HD auto operator()(A a, B b) const {
    return a + b;
  }
};
template <class Rule, std::size_t I, std::size_t... J>
std::string cast_row(std::index_sequence<J...>) {
  using From = std::tuple_element_t<I, numpy_dtypes>;
  return {(ufx::can_cast<From, std::tuple_element_t<J, numpy_dtypes>>(Rule{}) ? '1' : '.')...};
}
template <class Rule, std::size_t... I>
std::vector<std::string> cast_table(std::index_sequence<I...>) {
  return {cast_row<Rule, I>(std::make_index_sequence<14>{})...};
}
} // namespace

TEST_CASE("ufx::can_cast gives NumPy's safe and same_kind tables") {
  const auto safe = cast_table<ufx::casting::safe_t>(std::make_index_sequence<14>{});
  const auto same_kind = cast_table<ufx::casting::same_kind_t>(std::make_index_sequence<14>{});
  for (int i = 0; i < 14; ++i) {
    CHECK(safe[i] == numpy_safe[i]);
    CHECK(same_kind[i] == numpy_same_kind[i]);
  }
  static_assert(ufx::can_cast<double, float>(ufx::casting::unsafe) && !ufx::can_cast<std::complex<float>, float>());
}

TEST_CASE_TEMPLATE("a call converts array elements into a narrower parameter only when it names the rule", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto add = ufx::vectorize([] UFX_HD(float a, float b) { return a + b; });
  const std::vector<double> x{0.1, 1e40};
  // NumPy: np.add(x, x, dtype=np.float32, casting="same_kind") is [0.2, inf]
  const std::vector<float> z = add(Target{}, x, x, ufx::casting::same_kind);
  CHECK(z[0] == 0.1f + 0.1f);
  CHECK(std::isinf(z[1]));
  std::vector<float> o(2);
  add(Target{}, x, 1.0, ufx::casting::unsafe, ufx::out(o)); // a rule comes before ufx::out
  CHECK(o[0] == 0.1f + 1.f);
  // int16 into float32 is safe (every int16 is a float); a C++ double scalar is weak and converts
  auto twice = ufx::vectorize([] UFX_HD(float a) { return 2 * a; });
  const std::vector<float> t = twice(Target{}, std::vector<std::int16_t>{-32768, 32767});
  CHECK(t[0] == -65536.f);
  CHECK(t[1] == 65534.f);
  const std::vector<float> w = add(Target{}, std::vector<float>{1.5f}, 2.25);
  CHECK(w[0] == 3.75f);
}

TEST_CASE_TEMPLATE("generic functions see the elements' own types; reducers and lazy calls take a rule", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const std::vector<double> x{0.1, 1e40};
  const std::vector<float> y{1.f, 2.f};
  // a generic functor is called with (double, float): C++'s usual conversions make the result double
  const std::vector<double> g = ufx::vectorize(add_mixed{})(Target{}, x, y);
  CHECK(g[0] == 0.1 + 1.0);
  auto plusf = [] UFX_HD(float a, float b) { return a + b; };
  auto r = ufx::reducer(plusf, 0.f);
  CHECK(std::isinf(r(Target{}, x, ufx::casting::same_kind)));
  CHECK(r(Target{}, y) == 3.f);
  auto add = ufx::vectorize([] UFX_HD(float a, float b) { return a + b; });
  const std::vector<float> e = add(ufx::lazy(x), 2.0, ufx::casting::same_kind);
  CHECK(e[0] == 0.1f + 2.f);
  // a gufunc's '()' input converts under the rule; its core inputs are views of their own type
  auto scale = ufx::guvectorize<"(n),()->(n)">(scale_core{});
  const ufx::ndarray<float, 2> m({2, 3}, 1.f);
  const ufx::ndarray<double, 1> k({2}, 0.1);
  const auto s = scale(Target{}, m, k, ufx::casting::same_kind);
  CHECK(s(1, 2) == 0.1f);
  CHECK(ufx::accumulate(Target{}, x, plusf, ufx::casting::same_kind)[0] == 0.1f);
}
