// ufx::reducers (several reductions in one pass) and the statistics built on it: ufx::mean, var,
// std (ddof), minmax, and the value with its index (reducers(max, argmax)), on every target,
// along axes, with keepdims and out, on device arrays and through the chunked path.
#include "common.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <tuple>

#include <ufx/eigen.hpp>
#include <ufx/reducers.hpp>

// The CPU build runs every case on serial, host and the sim. Each multi-reduction's CUDA
// instantiation costs nvcc 10-15 s, so nvcc's build runs one case of its own on ufx::cuda (the last
// in this file), which checks ufx::cuda's results against ufx::host's.
#define UFX_REDUCERS_TARGETS UFX_TEST_TARGETS

namespace {

/// Mean and variance of `v` by the two-pass formula in long double (the reference).
struct two_pass {
  long double mean = 0, var = 0;
  template <class C>
  explicit two_pass(const C& v, int ddof = 0) {
    long double s = 0;
    for (auto x : v) s += static_cast<long double>(x);
    const auto n = static_cast<long double>(v.size());
    mean = s / n;
    long double q = 0;
    for (auto x : v) q += (static_cast<long double>(x) - mean) * (static_cast<long double>(x) - mean);
    var = q / (n - ddof);
  }
};

/// splitmix64-driven values in [-1, 1).
inline std::vector<double> noise(std::size_t n, std::uint64_t seed) {
  std::vector<double> v(n);
  for (auto& x : v) {
    seed += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = seed;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    x = static_cast<double>(z >> 11) * (2.0 / 9007199254740992.0) - 1.0;
  }
  return v;
}

/// A host copy of a result (a device_array's to_host, else the container itself).
template <class C>
auto host_of(const C& c) {
  if constexpr (requires { c.to_host(); }) return c.to_host();
  else return ufx::ndarray<typename C::value_type, 1>(c);
}

/// What the statistics promise against the exact value (the long double two-pass formula over the
/// same elements) on every target: the relative error of var and std within 5 ulps of float
/// (5 * 2^-23) and 1e-14 of double, of the mean within 2 ulps, wherever the data sit.
template <class T>
constexpr long double var_bound = sizeof(T) == 4 ? 5.0L / (1 << 23) : 1e-14L;
template <class T>
constexpr long double mean_bound = 2.0L * std::numeric_limits<T>::epsilon();

/// The largest relative error of `got(j)` against the two-pass reference of run j of `runs`.
template <class R, class T>
long double worst_error(const R& got, const std::vector<std::vector<T>>& runs, int ddof, bool mean = false) {
  long double worst = 0;
  for (std::size_t j = 0; j < runs.size(); ++j) {
    const two_pass ref(runs[j], ddof);
    const long double want = mean ? ref.mean : ref.var;
    worst = std::max(worst, std::abs((static_cast<long double>(got(static_cast<ufx::index_t>(j))) - want) / want));
  }
  return worst;
}

/// Sensor readings near 1000 in float, timestamps near 1e9 in double: a (4, 3000) array of
/// center + 5 u, u in [-1, 1), with its columns, its rows and all its elements.
template <class T>
struct far_from_zero {
  ufx::ndarray<T, 2> m;
  std::vector<std::vector<T>> cols, rows, whole;
  explicit far_from_zero(double center) : m({4, 3000}), cols(3000), rows(4), whole(1) {
    const auto u = noise(12000, 46);
    for (ufx::index_t i = 0; i < m.size(); ++i)
      m.data()[i] = static_cast<T>(center + 5 * u[static_cast<std::size_t>(i)]);
    for (ufx::index_t i = 0; i < 4; ++i)
      for (ufx::index_t j = 0; j < 3000; ++j) {
        cols[static_cast<std::size_t>(j)].push_back(m(i, j));
        rows[static_cast<std::size_t>(i)].push_back(m(i, j));
        whole[0].push_back(m(i, j));
      }
  }
};

/// A scalar result as what worst_error reads.
template <class T>
auto scalar_result(T v) {
  return [v](ufx::index_t) { return v; };
}

/// far_from_zero's var along axis 0 (4 per output), mean with var over the whole array: within
/// var_bound and mean_bound on `target`. The one-pass update without a shift was off by 2e-4
/// (float, axis 0) and 4e-7 (double, axis 0).
template <class T, class Target>
void check_far_from_zero(Target target, double center) {
  CAPTURE(center);
  const far_from_zero<T> d(center);
  CHECK(worst_error(host_of(ufx::var(target, d.m, ufx::axis{0}, ufx::ddof{1})), d.cols, 1) <= var_bound<T>);
  const auto [mu, var] = ufx::reducers(ufx::mean, ufx::var(ufx::ddof{1}))(target, d.m);
  CHECK(worst_error(scalar_result(mu), d.whole, 0, true) <= mean_bound<T>);
  CHECK(worst_error(scalar_result(var), d.whole, 1) <= var_bound<T>);
}

} // namespace

#if !defined(__CUDACC__)
TEST_CASE_TEMPLATE("ufx::reducers gives each reduction's result from one pass", Target, UFX_REDUCERS_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  for (int n : {1, 7, 64, 1000, 100003}) {
    CAPTURE(n);
    std::vector<float> x(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) x[static_cast<std::size_t>(i)] = static_cast<float>((i * 7919) % 201 - 100);
    // small integers: every order of the sum is exact, so each result equals its own reduction's
    auto [s, lo, hi, imax, imin] = ufx::reducers(ufx::sum, ufx::min, ufx::max, ufx::argmax, ufx::argmin)(Target{}, x);
    CHECK(s == ufx::sum(Target{}, x));
    CHECK(lo == ufx::min(Target{}, x));
    CHECK(hi == ufx::max(Target{}, x));
    CHECK(imax == ufx::argmax(Target{}, x));
    CHECK(imin == ufx::argmin(Target{}, x));
    static_assert(std::is_same_v<decltype(s), float> && std::is_same_v<decltype(imax), ufx::index_t>);
    // a user's reducer with an identity folds as it does alone (Numba's |x| reducer)
    auto absum = ufx::reducer([] UFX_HD(float a, float b) { return b < 0 ? a - b : a + b; }, 0.f);
    auto [a, c] = ufx::reducers(absum, ufx::prod)(Target{}, std::vector<float>{-1, 3, 5, -2});
    CHECK(a == 11);
    CHECK(c == 30);
  }
}

TEST_CASE_TEMPLATE("mean, var and std match the two-pass formula, with ddof", Target, UFX_REDUCERS_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  for (std::size_t n : {1u, 2u, 5u, 33u, 4096u, 200001u}) {
    CAPTURE(n);
    const std::vector<double> x = noise(n, n);
    const two_pass ref(x), ref1(x, 1);
    // double: within 8 ulp-scale relative error of the long double reference
    CHECK(std::abs(ufx::mean(Target{}, x) - ref.mean) <= 1e-15L * (1 + std::abs(ref.mean)));
    CHECK(std::abs(ufx::var(Target{}, x) - ref.var) <= 1e-13L * ref.var + 1e-300L);
    CHECK(std::abs(ufx::std(Target{}, x) - std::sqrt(ref.var)) <= 1e-13L * std::sqrt(ref.var) + 1e-300L);
    if (n > 1) CHECK(std::abs(ufx::var(Target{}, x, ufx::ddof{1}) - ref1.var) <= 1e-13L * ref1.var);
    const auto [m, v] = ufx::reducers(ufx::mean, ufx::var(ufx::ddof{1}))(Target{}, x);
    CHECK(m == ufx::mean(Target{}, x));
    if (n > 1) CHECK(v == ufx::var(Target{}, x, ufx::ddof{1}));

    // float data computes in float: within float's rounding
    std::vector<float> xf(x.begin(), x.end());
    const two_pass rf(xf);
    CHECK(std::abs(ufx::mean(Target{}, xf) - rf.mean) <= 1e-6L);
    CHECK(std::abs(ufx::var(Target{}, xf) - rf.var) <= 1e-5L * rf.var + 1e-30L);
    static_assert(std::is_same_v<decltype(ufx::var(Target{}, xf)), float>);
  }
}

TEST_CASE_TEMPLATE("var is stable far from zero, where the sum of squares loses every digit", Target,
                   UFX_REDUCERS_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const std::size_t n = 100000;
  std::vector<double> x = noise(n, 7);
  for (auto& v : x) v += 1e9; // spread 1, offset 1e9: sum(x^2)/n - mean^2 cancels 18 digits
  const two_pass ref(x);
  long double sq = 0, s = 0;
  for (double v : x) sq += static_cast<double>(v * v), s += v;
  const double naive = static_cast<double>(sq / n - (s / n) * (s / n));
  CHECK(std::abs(naive - ref.var) > 0.01L * ref.var); // the naive one-pass formula is far off
  // the variance of the elements as given (to 1.2e-7, their ulp at 1e9), to a few ulps
  CHECK(std::abs(ufx::var(Target{}, x) - ref.var) <= var_bound<double> * ref.var);
  CHECK(std::abs(ufx::mean(Target{}, x) - ref.mean) <= 1e-6L);

  std::vector<float> xf(n);
  for (std::size_t i = 0; i < n; ++i) xf[i] = static_cast<float>(1e4 + x[i] - 1e9);
  const two_pass rf(xf);
  CHECK(std::abs(ufx::var(Target{}, xf) - rf.var) <= var_bound<float> * rf.var); // float, spread 1 at 1e4
}

TEST_CASE_TEMPLATE("var, std and mean keep their digits far from zero: float near 1000, double near 1e9", Target,
                   UFX_REDUCERS_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  check_far_from_zero<float>(Target{}, 1000);
  check_far_from_zero<double>(Target{}, 1e9);
  // axis 1 (3000 per output), std over the whole array, mean with var along axis 0
  const auto more = [&]<class T>(const far_from_zero<T>& d) {
    CHECK(worst_error(host_of(ufx::var(Target{}, d.m, ufx::axis{1}, ufx::ddof{1})), d.rows, 1) <= var_bound<T>);
    const long double want = std::sqrt(two_pass(d.whole[0]).var);
    CHECK(std::abs(ufx::std(Target{}, d.m) - want) <= var_bound<T> * want);
    const auto [mu, var] = ufx::reducers(ufx::mean, ufx::var)(Target{}, d.m, ufx::axis{0});
    CHECK(worst_error(host_of(mu), d.cols, 0, true) <= mean_bound<T>);
    CHECK(worst_error(host_of(var), d.cols, 0) <= var_bound<T>);
  };
  more(far_from_zero<float>(1000));
  more(far_from_zero<double>(1e9));
  // long runs near 1000: the device lanes' long folds; sorted, each CPU leaf's first elements are
  // unlike the rest (its second pass), reversed the same from above
  std::vector<float> x(1 << 20);
  const auto u = noise(x.size(), 5);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(1000 + 5 * u[i]);
  for (int order = 0; order < 3; ++order) {
    CAPTURE(order);
    if (order == 1) std::sort(x.begin(), x.end());
    if (order == 2) std::reverse(x.begin(), x.end());
    const two_pass ref(x, 1);
    CHECK(std::abs(ufx::var(Target{}, x, ufx::ddof{1}) - ref.var) <= var_bound<float> * ref.var);
    CHECK(std::abs(ufx::mean(Target{}, x) - ref.mean) <= mean_bound<float> * ref.mean);
  }
}

TEST_CASE_TEMPLATE("statistics of empty, infinite and NaN data follow NumPy", Target, UFX_REDUCERS_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const std::vector<double> empty;
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  CHECK(std::isnan(ufx::mean(Target{}, empty)));
  CHECK(std::isnan(ufx::var(Target{}, empty)));
  CHECK(std::isnan(ufx::var(Target{}, std::vector<double>{3}, ufx::ddof{1}))); // 0 / 0
  CHECK(ufx::var(Target{}, std::vector<double>{1, 2}, ufx::ddof{2}) == inf);   // 0.5 / 0
  CHECK(ufx::mean(Target{}, std::vector<double>{inf, 1, 2}) == inf);
  CHECK(std::isnan(ufx::mean(Target{}, std::vector<double>{inf, -inf})));
  CHECK(std::isnan(ufx::var(Target{}, std::vector<double>{inf, 1, 2})));
  CHECK(std::isnan(ufx::std(Target{}, std::vector<double>{1, nan, 2})));
  const auto [s, m] = ufx::reducers(ufx::sum, ufx::mean)(Target{}, empty);
  CHECK(s == 0);
  CHECK(std::isnan(m));
  CHECK_THROWS_WITH_AS(ufx::minmax(Target{}, empty),
                       "ufx::minmax: zero-size array to reduction operation which has no identity", ufx::value_error);
  CHECK_THROWS_WITH_AS(ufx::reducers(ufx::mean, ufx::argmax)(Target{}, empty),
                       "ufx::reducers: attempt to get argmax of an empty sequence", ufx::value_error);
  // integers compute in double (NumPy's float64)
  const std::vector<int> k{1, 2, 3, 4};
  static_assert(std::is_same_v<decltype(ufx::mean(Target{}, k)), double>);
  CHECK(ufx::mean(Target{}, k) == 2.5);
  CHECK(ufx::var(Target{}, k) == 1.25);
  // a NaN wins in minmax, as np.min / np.max
  const auto [lo, hi] = ufx::minmax(Target{}, std::vector<float>{3, std::nanf(""), -1});
  CHECK((std::isnan(lo) && std::isnan(hi)));
  const auto [v, i] = ufx::reducers(ufx::max, ufx::argmax)(Target{}, std::vector<float>{3, 9, -1, 9});
  CHECK(v == 9);
  CHECK(i == 1); // the first occurrence
}

TEST_CASE_TEMPLATE("multi-reductions along axes, with keepdims and out", Target, UFX_REDUCERS_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  ufx::ndarray<double, 3> a({3, 4, 5});
  const auto vals = noise(60, 3);
  for (ufx::index_t i = 0; i < a.size(); ++i) a.data()[i] = vals[static_cast<std::size_t>(i)] * 10;

  // along axes (0, 2): results of shape (4,), each equal to the reduction alone
  auto [m, v, hi] = ufx::reducers(ufx::mean, ufx::var, ufx::max)(Target{}, a, ufx::axis{0, 2});
  static_assert(std::is_same_v<decltype(m), ufx::ndarray<double, 1>>);
  REQUIRE(m.extent(0) == 4);
  const auto m1 = ufx::mean(Target{}, a, ufx::axis{0, 2});
  const auto hi1 = ufx::max(Target{}, a, ufx::axis{0, 2});
  for (ufx::index_t j = 0; j < 4; ++j) {
    std::vector<double> col;
    for (ufx::index_t i = 0; i < 3; ++i)
      for (ufx::index_t k = 0; k < 5; ++k) col.push_back(a(i, j, k));
    const two_pass ref(col);
    CHECK(std::abs(m(j) - ref.mean) <= 1e-14L * 10);
    CHECK(std::abs(v(j) - ref.var) <= 1e-13L * ref.var);
    CHECK(m(j) == m1(j));
    CHECK(hi(j) == hi1(j));
  }

  // keepdims: shape (3, 1, 5); argmax along one axis
  auto [mx, imx] = ufx::reducers(ufx::max, ufx::argmax)(Target{}, a, ufx::axis{1}, ufx::keepdims);
  CHECK(mx.shape() == (std::array<ufx::index_t, 3>{3, 1, 5}));
  const auto imx1 = ufx::argmax(Target{}, a, ufx::axis{1}, ufx::keepdims);
  for (ufx::index_t i = 0; i < 3; ++i)
    for (ufx::index_t k = 0; k < 5; ++k) {
      CHECK(imx(i, 0, k) == imx1(i, 0, k));
      CHECK(mx(i, 0, k) == a(i, imx(i, 0, k), k));
    }

  // out: one destination per reduction, all of one shape
  ufx::ndarray<double, 2> lo({3, 4}), up({3, 4});
  ufx::minmax(Target{}, a, ufx::axis{2}, ufx::out(lo, up));
  const auto lo1 = ufx::min(Target{}, a, ufx::axis{2});
  const auto up1 = ufx::max(Target{}, a, ufx::axis{2});
  for (ufx::index_t i = 0; i < 12; ++i) {
    CHECK(lo.data()[i] == lo1.data()[i]);
    CHECK(up.data()[i] == up1.data()[i]);
  }
  ufx::ndarray<double, 3> lo_k({3, 4, 1});
  CHECK_THROWS_WITH_AS(ufx::minmax(Target{}, a, ufx::axis{2}, ufx::out(lo, lo_k)),
                       doctest::Contains("the destinations of one multi-reduction share one shape"), ufx::shape_error);
  ufx::ndarray<double, 2> wrong({4, 3});
  CHECK_THROWS_AS(ufx::std(Target{}, a, ufx::axis{2}, ufx::out(wrong)), ufx::shape_error);
  CHECK_THROWS_AS(ufx::mean(Target{}, a, ufx::axis{3}), ufx::shape_error);
}

TEST_CASE_TEMPLATE(
    "a default-constructed ndarray is a destination: 0-d holds the result, a wrong shape is a shape_error", Target,
    UFX_REDUCERS_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const std::vector<double> x{1, 2, 3, 6};
  ufx::ndarray<double, 0> z;
  ufx::mean(Target{}, x, ufx::out(z));
  CHECK(z() == 3.0);
  auto [lo, hi] = std::tuple{ufx::ndarray<double, 0>{}, ufx::ndarray<double, 0>{}};
  ufx::minmax(Target{}, x, ufx::out(lo, hi));
  CHECK(lo() == 1.0);
  CHECK(hi() == 6.0);
  ufx::ndarray<double, 1> e; // shape (0,): not a place for a mean of (4,) along no axis, nor along axis 1
  CHECK_THROWS_AS(ufx::mean(Target{}, x, ufx::out(e)), ufx::shape_error);
  ufx::ndarray<double, 2> m({2, 3}, 1.0);
  CHECK_THROWS_WITH_AS(ufx::mean(Target{}, m, ufx::axis{1}, ufx::out(e)), doctest::Contains("(0,)"), ufx::shape_error);
}

TEST_CASE_TEMPLATE("multi-reductions of device arrays stay on the device; host data runs in chunks", Target,
                   UFX_REDUCERS_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  if constexpr (Target::is_device) {
    ufx::ndarray<float, 2> h({300, 40});
    for (ufx::index_t i = 0; i < h.size(); ++i) h.data()[i] = static_cast<float>((i * 31) % 97 - 48);
    auto d = ufx::to_device(h, Target{});
    auto [s, hi] = ufx::reducers(ufx::sum, ufx::max)(d, ufx::axis{0});
    static_assert(std::is_same_v<decltype(s), ufx::device_array<float, 1>>);
    const auto sh = s.to_host(), hh = hi.to_host();
    const auto s1 = ufx::sum(h, ufx::axis{0}), hi1 = ufx::max(h, ufx::axis{0});
    for (ufx::index_t j = 0; j < 40; ++j) {
      CHECK(sh(j) == s1(j)); // small integers: exact in any order
      CHECK(hh(j) == hi1(j));
    }
    const auto [mean_d, var_d] = ufx::reducers(ufx::mean, ufx::var)(d);
    CHECK(mean_d == doctest::Approx(ufx::mean(ufx::host, h)).epsilon(1e-6));
    CHECK(var_d == doctest::Approx(ufx::var(ufx::host, h)).epsilon(1e-5));

    // host data larger than the budget: chunks of rows, each row read once, partials combined
    const auto t = ufx::chunked(Target{}, 16 << 10);
    const auto [mc, vc] = ufx::reducers(ufx::mean, ufx::var)(t, h);
    CHECK(mc == doctest::Approx(ufx::mean(ufx::host, h)).epsilon(1e-6));
    CHECK(vc == doctest::Approx(ufx::var(ufx::host, h)).epsilon(1e-5));
    auto [rlo, rhi] = ufx::minmax(t, h, ufx::axis{1});
    const auto rlo1 = ufx::min(ufx::host, h, ufx::axis{1});
    for (ufx::index_t i = 0; i < 300; ++i) CHECK(rlo(i) == rlo1(i));
    (void)rhi;
  }
}

TEST_CASE_TEMPLATE("multi-reductions of Eigen matrices keep Eigen's shapes", Target, UFX_REDUCERS_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  Eigen::MatrixXd m(3, 4);
  m << 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12;
  auto [mu, sd] = ufx::reducers(ufx::mean, ufx::std(ufx::ddof{1}))(Target{}, m, ufx::axis{0});
  static_assert(std::is_same_v<decltype(mu), Eigen::MatrixXd>);
  CHECK(mu.rows() == 1);
  CHECK(mu.cols() == 4);
  for (int j = 0; j < 4; ++j) {
    CHECK(mu(0, j) == doctest::Approx(m.col(j).mean()));
    CHECK(sd(0, j) == doctest::Approx(4.0)); // 1, 5, 9: sample std 4
  }
}
#endif // !__CUDACC__

TEST_CASE("ufx::cuda's multi-reductions match ufx::host's") {
  if (!ufx_test::runnable<ufx::cuda_t>()) return;
  ufx::ndarray<double, 2> h({500, 70});
  const auto vals = noise(static_cast<std::size_t>(h.size()), 11);
  for (ufx::index_t i = 0; i < h.size(); ++i)
    h.data()[i] = 1e6 + 100 * std::round(vals[static_cast<std::size_t>(i)] * 50);

  // whole array, host data: sum (of integers: exact in any order), max and its index, bitwise
  const auto [s, hi, at] = ufx::reducers(ufx::sum, ufx::max, ufx::argmax)(ufx::cuda, h);
  const auto [s1, hi1, at1] = ufx::reducers(ufx::sum, ufx::max, ufx::argmax)(ufx::host, h);
  CHECK(s == s1);
  CHECK(hi == hi1);
  CHECK(at == at1);

  // mean and sample variance at an offset of 1e6, device data and chunked host data
  auto d = ufx::to_device(h, ufx::cuda);
  const auto stats = ufx::reducers(ufx::mean, ufx::var(ufx::ddof{1}));
  const auto [m, v] = stats(d);
  const auto [m1, v1] = stats(ufx::host, h);
  CHECK(m == doctest::Approx(m1).epsilon(1e-14));
  CHECK(v == doctest::Approx(v1).epsilon(1e-10));
  const auto [mc, vc] = stats(ufx::chunked(ufx::cuda, 64 << 10), h);
  CHECK(mc == doctest::Approx(m1).epsilon(1e-14));
  CHECK(vc == doctest::Approx(v1).epsilon(1e-10));

  // float near 1000 and double near 1e9: the device lanes along axis 0 and CUB's whole-array
  // reduce keep the bounds of the CPU targets and the sim (nvcc's contractions into FMA included)
  check_far_from_zero<float>(ufx::cuda, 1000);
  check_far_from_zero<double>(ufx::cuda, 1e9);

  // along axis 1 of device data: device arrays, equal to the host's (min and max are exact)
  auto [lo, up] = ufx::minmax(d, ufx::axis{1});
  static_assert(std::is_same_v<decltype(lo), ufx::device_array<double, 1>>);
  const auto [lo1, up1] = ufx::minmax(ufx::host, h, ufx::axis{1});
  const auto lh = lo.to_host(), uh = up.to_host();
  long bad = 0;
  for (ufx::index_t i = 0; i < 500; ++i) bad += lh(i) != lo1(i) || uh(i) != up1(i);
  CHECK(bad == 0);
}
