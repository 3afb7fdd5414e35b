// ufx::lazy: chained ufx::vectorize calls as one expression, against the same calls made eagerly,
// on every target: values (bitwise on the CPU targets and the sim, whose host code g++ compiles
// without FMA contraction; within one rounding on ufx::cuda, where nvcc contracts), shapes,
// broadcasting errors, out and in place, empty arrays, reductions (with a casting rule) and several outputs.
#include "common.hpp"

#include <array>
#include <tuple>
#include <type_traits>

#include <ufx/lazy.hpp>
#include <ufx/reducers.hpp>

namespace {

using add_fn = ufx_test::add_f;
struct mul_fn {
  template <class T>
  UFX_HD T operator()(T a, T b) const {
    return a * b;
  }
};
struct halve_int { // int -> double: the types follow the eager calls
  UFX_HD double operator()(int a) const { return a * 0.5; }
};

/// Equal bitwise where the target's code is g++'s; within a float rounding of the values on cuda.
template <class Target>
bool same_values(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if constexpr (std::is_same_v<Target, ufx::cuda_t>) {
      if (std::abs(a[i] - b[i]) > 1e-6f * (1 + std::abs(b[i]))) return false;
    } else if (a[i] != b[i]) {
      return false;
    }
  }
  return true;
}

std::vector<float> wave(int n, float scale) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = scale * static_cast<float>((i * 37) % 101 - 50) / 7.f;
  return v;
}

} // namespace

// nvcc's build runs one case of its own on ufx::cuda (the last in this file): every case here costs
// nvcc a CUDA instantiation per call, and the CPU build runs them on serial, host and the sim.
#if !defined(__CUDACC__)
TEST_CASE_TEMPLATE("an expression equals the eager calls and runs as one call", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const auto add = ufx::vectorize(add_fn{});
  const auto mul = ufx::vectorize(mul_fn{});
  for (int n : {0, 1, 7, 1000, 70001}) {
    CAPTURE(n);
    const auto x = wave(n, 1.f), y = wave(n, 3.f);
    const std::vector<float> eager = add(Target{}, mul(Target{}, x, 2.f), y);
    auto e = add(mul(ufx::lazy(x), 2.f), y);
    const std::vector<float> fused = ufx::eval(e, Target{});
    CHECK(same_values<Target>(fused, eager));
    std::vector<float> z(x.size(), -1.f);
    ufx::eval(e, Target{}, ufx::out(z));
    CHECK(same_values<Target>(z, eager));
    if constexpr (!std::is_same_v<Target, ufx::cuda_t>) {
      const std::vector<float> assigned = e; // the default target
      CHECK(assigned == eager);
    }
    // nested three deep, the same function used twice
    const std::vector<float> eager3 = add(Target{}, add(Target{}, mul(Target{}, x, y), x), y);
    const std::vector<float> fused3 = ufx::eval(add(add(mul(ufx::lazy(x), y), x), y), Target{});
    CHECK(same_values<Target>(fused3, eager3));
  }
}

TEST_CASE_TEMPLATE("an expression broadcasts as the eager calls do and fails as they do", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const auto add = ufx::vectorize(add_fn{});
  const auto mul = ufx::vectorize(mul_fn{});
  ufx::ndarray<float, 2> col({3, 1});
  for (int i = 0; i < 3; ++i) col(i, 0) = static_cast<float>(i + 1);
  const std::vector<float> row{10, 20, 30, 40};
  // (3, 1) * (4) -> (3, 4), + (4) -> (3, 4)
  const auto eager = add(Target{}, mul(Target{}, col, row), row);
  const ufx::ndarray<float, 2> fused = ufx::eval(add(mul(ufx::lazy(col), row), row), Target{});
  REQUIRE(fused.shape() == eager.shape());
  for (ufx::index_t i = 0; i < 3; ++i)
    for (ufx::index_t j = 0; j < 4; ++j) CHECK(fused(i, j) == eager(i, j));

  // shapes that do not broadcast: the same error, before anything is written
  const std::vector<float> three{1, 2, 3};
  ufx::ndarray<float, 2> dst({3, 4}, -7.f);
  CHECK_THROWS_AS(ufx::eval(add(mul(ufx::lazy(row), 2.f), three), Target{}), ufx::shape_error);
  CHECK_THROWS_AS(add(Target{}, row, three), ufx::shape_error);
  CHECK_THROWS_AS(ufx::eval(add(mul(ufx::lazy(col), row), three), Target{}, ufx::out(dst)), ufx::shape_error);
  CHECK(dst(0, 0) == -7.f);
  // an out of the wrong shape
  ufx::ndarray<float, 2> wrong({4, 3});
  CHECK_THROWS_AS(ufx::eval(add(ufx::lazy(col), row), Target{}, ufx::out(wrong)), ufx::shape_error);
}

TEST_CASE_TEMPLATE("an expression keeps the eager calls' types, and may write over its own input", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const auto half = ufx::vectorize(halve_int{});
  const auto add = ufx::vectorize(add_fn{});
  const std::vector<int> k{1, 2, 3, 4};
  const std::vector<double> d{0.25, 0.25, 0.25, 0.25};
  auto e = add(half(ufx::lazy(k)), d);
  static_assert(std::is_same_v<decltype(ufx::eval(e, Target{})), std::vector<double>>);
  const std::vector<double> r = ufx::eval(e, Target{});
  CHECK(r == std::vector<double>{0.75, 1.25, 1.75, 2.25});

  // in place: the destination is a leaf (the eager rules of ufx::out)
  std::vector<float> x = wave(513, 1.f);
  const std::vector<float> y = wave(513, 2.f);
  const auto mul = ufx::vectorize(mul_fn{});
  const std::vector<float> expect = add(Target{}, mul(Target{}, x, y), x);
  ufx::eval(add(mul(ufx::lazy(x), y), x), Target{}, ufx::out(x));
  CHECK(same_values<Target>(x, expect));
}

TEST_CASE_TEMPLATE("reductions of an expression read its leaves once, without a temporary", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const auto add = ufx::vectorize(add_fn{});
  ufx::ndarray<float, 2> a({40, 30}), b({40, 30});
  for (ufx::index_t i = 0; i < a.size(); ++i) {
    a.data()[i] = static_cast<float>((i * 13) % 17 - 8); // small integers: sums exact in any order
    b.data()[i] = static_cast<float>((i * 7) % 11 - 5);
  }
  const ufx::ndarray<float, 2> ab = add(ufx::serial, a, b);
  auto e = add(ufx::lazy(a), b);
  CHECK(ufx::sum(Target{}, e) == ufx::sum(Target{}, ab));
  CHECK(ufx::sum(Target{}, e, 10.f) == ufx::sum(Target{}, ab) + 10.f);
  CHECK(ufx::reduce(Target{}, e, ufx::maximum, -1e30f) == ufx::max(Target{}, ab));
  CHECK(ufx::argmax(Target{}, e) == ufx::argmax(Target{}, ab));
  CHECK(ufx::argmin(Target{}, e) == ufx::argmin(Target{}, ab));
  const auto cols = ufx::sum(Target{}, e, ufx::axis{0});
  const auto cols1 = ufx::sum(Target{}, ab, ufx::axis{0});
  const auto rows = ufx::argmax(Target{}, e, ufx::axis{1}, ufx::keepdims);
  const auto rows1 = ufx::argmax(Target{}, ab, ufx::axis{1}, ufx::keepdims);
  for (ufx::index_t j = 0; j < 30; ++j) CHECK(cols(j) == cols1(j));
  for (ufx::index_t i = 0; i < 40; ++i) CHECK(rows(i, 0) == rows1(i, 0));
  ufx::ndarray<float, 1> out({40});
  ufx::sum(Target{}, e, ufx::axis{1}, ufx::out(out));
  const auto out1 = ufx::sum(Target{}, ab, ufx::axis{1});
  for (ufx::index_t i = 0; i < 40; ++i) CHECK(out(i) == out1(i));

  // a casting rule, as the eager calls take it: float64 values into a float operator
  ufx::ndarray<double, 2> ad({40, 30}), bd({40, 30});
  for (ufx::index_t i = 0; i < a.size(); ++i) ad.data()[i] = a.data()[i], bd.data()[i] = b.data()[i];
  const auto ed = add(ufx::lazy(ad), bd);
  const auto plusf = [] UFX_HD(float u, float v) { return u + v; };
  CHECK(ufx::reduce(Target{}, ed, plusf, 0.f, ufx::casting::same_kind) == ufx::sum(Target{}, ab));
  CHECK(ufx::sum(Target{}, ed, ufx::casting::unsafe) == ufx::sum(Target{}, ab));
  const auto cols2 = ufx::reducer(plusf, 0.f)(Target{}, ed, ufx::axis{0}, ufx::casting::same_kind);
  for (ufx::index_t j = 0; j < 30; ++j) CHECK(cols2(j) == cols1(j));

  // several reductions of one expression, and the statistics
  const auto [s, m, v] = ufx::reducers(ufx::sum, ufx::mean, ufx::var)(Target{}, e);
  CHECK(s == ufx::sum(Target{}, ab));
  CHECK(m == doctest::Approx(ufx::mean(Target{}, ab)).epsilon(1e-6));
  CHECK(v == doctest::Approx(ufx::var(Target{}, ab)).epsilon(1e-5));
  CHECK(ufx::std(Target{}, e, ufx::axis{0})(3) == doctest::Approx(ufx::std(Target{}, ab, ufx::axis{0})(3)));

  // empty leaves: an empty result, a sum of 0, argmax's error
  const std::vector<float> none;
  CHECK(ufx::eval(add(ufx::lazy(none), none), Target{}).empty());
  CHECK(ufx::sum(Target{}, add(ufx::lazy(none), 1.f)) == 0.f);
  CHECK_THROWS_AS(ufx::argmax(Target{}, add(ufx::lazy(none), 1.f)), ufx::value_error);
}

TEST_CASE_TEMPLATE("several expressions write several outputs in one pass", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const auto add = ufx::vectorize(add_fn{});
  const auto mul = ufx::vectorize(mul_fn{});
  const auto x = wave(1001, 1.f), y = wave(1001, 2.f);
  std::vector<float> s(x.size()), p(x.size());
  ufx::eval(std::tie(s, p), add(ufx::lazy(x), y), mul(ufx::lazy(x), y), Target{});
  CHECK(same_values<Target>(s, add(Target{}, x, y)));
  CHECK(same_values<Target>(p, mul(Target{}, x, y)));
}

TEST_CASE_TEMPLATE("expressions over device arrays give device arrays", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  if constexpr (Target::is_device) {
    const auto add = ufx::vectorize(add_fn{});
    const auto mul = ufx::vectorize(mul_fn{});
    const auto x = wave(3000, 1.f), y = wave(3000, 2.f);
    auto dx = ufx::to_device(x, Target{});
    auto dy = ufx::to_device(y, Target{});
    auto e = add(mul(ufx::lazy(dx), dy), dx);
    ufx::device_array<float, 1> r = ufx::eval(e);
    const auto eager = add(mul(dx, dy), dx);
    const auto rh = r.to_host(), eh = eager.to_host();
    std::vector<float> a(rh.begin(), rh.end()), b(eh.begin(), eh.end());
    CHECK(same_values<Target>(a, b));
    CHECK(ufx::max(e) == ufx::max(eager));
  }
}
#endif // !__CUDACC__

TEST_CASE("ufx::cuda runs an expression in one kernel and reduces it in one pass") {
  if (!ufx_test::runnable<ufx::cuda_t>()) return;
  const auto add = ufx::vectorize(add_fn{});
  const auto mul = ufx::vectorize(mul_fn{});
  const auto x = wave(100003, 1.f), y = wave(100003, 2.f);
  auto e = add(mul(ufx::lazy(x), 2.f), y);
  const std::vector<float> fused = ufx::eval(e, ufx::cuda);
  CHECK(same_values<ufx::cuda_t>(fused, add(ufx::host, mul(ufx::host, x, 2.f), y)));
  const std::vector<float> ints(4096, 3.f);
  CHECK(ufx::sum(ufx::cuda, add(ufx::lazy(ints), 1.f)) == 4.f * 4096);
  std::vector<float> s(x.size()), p(x.size());
  ufx::eval(std::tie(s, p), add(ufx::lazy(x), y), mul(ufx::lazy(x), y), ufx::cuda);
  CHECK(same_values<ufx::cuda_t>(s, add(ufx::host, x, y)));
  CHECK(same_values<ufx::cuda_t>(p, mul(ufx::host, x, y)));
}
