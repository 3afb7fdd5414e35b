// std::complex<float> and std::complex<double> arrays on every target: ufx::math's complex functions through
// ufx::vectorize, the reductions (sum, prod, max, min, argmax, argmin), guvectorize cores, ufx::lazy expressions and
// their reductions, ufx::accumulate, and mean / var / std, against NumPy 1.24's values (np.multiply, np.divide, np.exp,
// np.log, np.sqrt, np.abs, np.angle; complex64 computed in complex64; the last section's own note below).
//
// Bitwise or bound, per result: a component that is NaN, infinite or zero must be NumPy's exactly (zero's sign too);
// others within 4 epsilon times the result's modulus (CUDA's libm is not glibc's, and nvcc fuses a * b - c * d into
// an fma). Measured on the CPU over 80000 random inputs: exp, log and sqrt within 2 ulp of the modulus of NumPy's; abs
// and arg are glibc's hypot and atan2, and NumPy's vector loops for np.abs and np.angle are up to 3 ulp from them.
// Reductions of exactly representable sums and products are compared bitwise on every target (== : a product's zero
// sign follows the order of the products).
#include "common.hpp"
#include "gufunc_cores.hpp"

#include <array>
#include <complex>
#include <limits>
#include <utility>

namespace {

using cf = std::complex<float>;
using cd = std::complex<double>;

template <class T>
struct row {
  std::complex<T> a, b, mul, div, exp, log, sqrt;
  T abs, arg;
};

constexpr float inf_f = std::numeric_limits<float>::infinity(), nan_f = std::numeric_limits<float>::quiet_NaN();
template <class T>
constexpr T eps = std::numeric_limits<T>::epsilon();

// /usr/bin/python3, numpy 1.24.2: a * b, a / b, np.exp(a), np.log(a), np.sqrt(a), np.abs(a), np.angle(a)
std::vector<row<float>> rows_f() {
  constexpr float inf = inf_f, nan = nan_f;
  return {
      {{1.f, 2.f},
       {3.f, -4.f},
       {11.f, 2.f},
       {-0x1.999998p-3f, 0x1.999998p-2f},
       {-0x1.21969cp+0f, 0x1.3c618ap+1f},
       {0x1.9c042p-1f, 0x1.1b6e1ap+0f},
       {0x1.45a314p+0f, 0x1.92827p-1f},
       0x1.1e377ap+1f,
       0x1.1b6e1ap+0f},
      {{0x1p-1f, -0x1.8p+0f},
       {-2.f, 0x1p-2f},
       {-0x1.4p-1f, 0x1.9p+1f},
       {-0x1.5a95aap-2f, 0x1.6a56a6p-1f},
       {0x1.ddb324p-4f, -0x1.a503eep+0f},
       {0x1.d5241p-2f, -0x1.3fc176p+0f},
       {0x1.05242ap+0f, -0x1.7870ap-1f},
       0x1.94c584p+0f,
       -0x1.3fc178p+0f},
      {{inf, 0.f}, {1.f, 0.f}, {inf, nan}, {inf, nan}, {inf, 0.f}, {inf, 0.f}, {inf, 0.f}, inf, 0.f},
      {{1.f, 1.f},
       {0.f, 0.f},
       {0.f, 0.f},
       {inf, inf},
       {0x1.77fc52p+0f, 0x1.24c80ep+1f},
       {0x1.62e43p-2f, 0x1.921fb6p-1f},
       {0x1.19435ep+0f, 0x1.d20312p-2f},
       0x1.6a09e6p+0f,
       0x1.921fb4p-1f},
      {{1.f, 1.f},
       {inf, inf},
       {nan, inf},
       {nan, nan},
       {0x1.77fc52p+0f, 0x1.24c80ep+1f},
       {0x1.62e43p-2f, 0x1.921fb6p-1f},
       {0x1.19435ep+0f, 0x1.d20312p-2f},
       0x1.6a09e6p+0f,
       0x1.921fb4p-1f},
      {{nan, 0.f}, {1.f, 0.f}, {nan, nan}, {nan, nan}, {nan, 0.f}, {nan, nan}, {nan, nan}, nan, nan},
      {{-0.f, 0.f},
       {-inf, 0x1p-1f},
       {nan, nan},
       {0.f, -0.f},
       {1.f, 0.f},
       {-inf, 0x1.921fb6p+1f},
       {0.f, 0.f},
       0.f,
       0x1.921fb6p+1f},
      {{-4.f, -0.f},
       {0x1.8p-1f, 0.f},
       {-3.f, -0.f},
       {-0x1.555556p+2f, 0.f},
       {0x1.2c155cp-6f, -0.f},
       {0x1.62e43p+0f, -0x1.921fb6p+1f},
       {0.f, -2.f},
       4.f,
       -0x1.921fb6p+1f},
      {{-inf, 1.f},
       {0.f, -inf},
       {nan, inf},
       {nan, nan},
       {0.f, 0.f},
       {inf, 0x1.921fb6p+1f},
       {0.f, inf},
       inf,
       0x1.921fb6p+1f},
      {{0x1.ffffdep-1f, 0x1.0624dep-10f},
       {0x1.0624dep-10f, 0.f},
       {0x1.0624ccp-10f, 0x1.0c6f7cp-20f},
       {0x1.f3ffdcp+9f, 1.f},
       {0x1.5bf088p+1f, 0x1.644a4ep-9f},
       {-0x1.13907cp-21f, 0x1.0624eap-10f},
       {0x1.fffff2p-1f, 0x1.0624e6p-11f},
       0x1.ffffeep-1f,
       0x1.0624eap-10f},
      {{0x1.62f334p+9f, 0x1.333334p+0f},
       {-3.f, 0.f},
       {-0x1.0a3668p+11f, -0x1.cccccep+1f},
       {-0x1.d94446p+7f, -0x1.99999cp-2f},
       {inf, inf},
       {0x1.a42b04p+2f, 0x1.bb1f4cp-10f},
       {0x1.aa4da8p+4f, 0x1.70f446p-6f},
       0x1.62f356p+9f,
       0x1.bb1f4cp-10f},
  };
}
std::vector<row<double>> rows_d() {
  constexpr double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  return {
      {{1., 2.},
       {3., -4.},
       {11., 2.},
       {-0x1.999999999999ap-3, 0x1.999999999999ap-2},
       {-0x1.21969c4953cd1p+0, 0x1.3c618a2274afdp+1},
       {0x1.9c041f7ed8d34p-1, 0x1.1b6e192ebbe44p+0},
       {0x1.45a3146a88456p+0, 0x1.92826ef258d1bp-1},
       0x1.1e3779b97f4a8p+1,
       0x1.1b6e192ebbe44p+0},
      {{0x1p-1, -0x1.8p+0},
       {-2., 0x1p-2},
       {-0x1.4p-1, 0x1.9p+1},
       {-0x1.5a95a95a95a96p-2, 0x1.6a56a56a56a57p-1},
       {0x1.ddb326700f323p-4, -0x1.a503edd3271e9p+0},
       {0x1.d5240f0e0e078p-2, -0x1.3fc176b7a856p+0},
       {0x1.0524298dc92fcp+0, -0x1.78709fef4e554p-1},
       0x1.94c583ada5b53p+0,
       -0x1.3fc176b7a856p+0},
      {{inf, 0.}, {1., 0.}, {inf, nan}, {inf, nan}, {inf, 0.}, {inf, 0.}, {inf, 0.}, inf, 0.},
      {{1., 1.},
       {0., 0.},
       {0., 0.},
       {inf, inf},
       {0x1.77fc5377c5a96p+0, 0x1.24c80edc62064p+1},
       {0x1.62e42fefa39efp-2, 0x1.921fb54442d18p-1},
       {0x1.19435caffa9f9p+0, 0x1.d203138f6c828p-2},
       0x1.6a09e667f3bcdp+0,
       0x1.921fb54442d18p-1},
      {{1., 1.},
       {inf, inf},
       {nan, inf},
       {nan, nan},
       {0x1.77fc5377c5a96p+0, 0x1.24c80edc62064p+1},
       {0x1.62e42fefa39efp-2, 0x1.921fb54442d18p-1},
       {0x1.19435caffa9f9p+0, 0x1.d203138f6c828p-2},
       0x1.6a09e667f3bcdp+0,
       0x1.921fb54442d18p-1},
      {{nan, 0.}, {1., 0.}, {nan, nan}, {nan, nan}, {nan, 0.}, {nan, nan}, {nan, nan}, nan, nan},
      {{-0., 0.},
       {-inf, 0x1p-1},
       {nan, nan},
       {0., -0.},
       {1., 0.},
       {-inf, 0x1.921fb54442d18p+1},
       {0., 0.},
       0.,
       0x1.921fb54442d18p+1},
      {{-4., -0.},
       {0x1.8p-1, 0.},
       {-3., -0.},
       {-0x1.5555555555555p+2, 0.},
       {0x1.2c155b8213cf4p-6, -0.},
       {0x1.62e42fefa39efp+0, -0x1.921fb54442d18p+1},
       {0., -2.},
       4.,
       -0x1.921fb54442d18p+1},
      {{-inf, 1.},
       {0., -inf},
       {nan, inf},
       {nan, nan},
       {0., 0.},
       {inf, 0x1.921fb54442d18p+1},
       {0., inf},
       inf,
       0x1.921fb54442d18p+1},
      {{0x1.ffffde7210be9p-1, 0x1.0624dd2f1a9fcp-10},
       {0x1.0624dd2f1a9fcp-10, 0.},
       {0x1.0624cc010eb79p-10, 0x1.0c6f7a0b5ed8dp-20},
       {0x1.f3ffdf3b645a2p+9, 1.},
       {0x1.5bf0867d14295p+1, 0x1.644a4bde1aa6bp-9},
       {-0x1.0c6f713fd3a1cp-21, 0x1.0624e8a322c98p-10},
       {0x1.fffff36ac654bp-1, 0x1.0624e3a05f389p-11},
       0x1.ffffef3909327p-1,
       0x1.0624e8a322c98p-10},
      {{0x1.62f3333333333p+9, 0x1.3333333333333p+0},
       {-3., 0.},
       {-0x1.0a36666666666p+11, -0x1.cccccccccccccp+1},
       {-0x1.d944444444444p+7, -0x1.9999999999999p-2},
       {0x1.a13aaa9bceb6cp+1022, inf},
       {0x1.a42b04541e2p+2, 0x1.bb1f4d2bb14bep-10},
       {0x1.aa4da715c1e9ap+4, 0x1.70f445c7ef502p-6},
       0x1.62f3546f264e7p+9,
       0x1.bb1f4d2bb14bfp-10},
  };
}

/// Function k of a and b: mul, div, exp, log, sqrt, (abs, arg) of a. One functor, so one kernel per element type.
struct cx_fn {
  template <class C>
  UFX_HD C operator()(C a, C b, int k) const {
    namespace m = ufx::math;
    switch (k) {
    case 0: return m::mul(a, b);
    case 1: return m::div(a, b);
    case 2: return m::exp(a);
    case 3: return m::log(a);
    case 4: return m::sqrt(a);
    default: return {m::abs(a), m::arg(a)};
    }
  }
};

/// A component: NaN, infinities and zeros (with their sign) exactly, others within 4 ulp of `scale`.
template <class T>
bool close(T got, T want, T scale) {
  if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got);
  if (std::isinf(want) || want == 0) return got == want && std::signbit(got) == std::signbit(want);
  return std::abs(got - want) <= 4 * eps<T> * scale;
}
template <class T>
bool close(std::complex<T> got, std::complex<T> want) {
  T scale = 0;
  for (T p : {want.real(), want.imag()})
    if (std::isfinite(p)) scale = std::max(scale, std::abs(p));
  return close(got.real(), want.real(), scale) && close(got.imag(), want.imag(), scale);
}

template <class Target, class T>
void check_functions(const std::vector<row<T>>& rows) {
  std::vector<std::complex<T>> a, b;
  for (const auto& r : rows) a.push_back(r.a), b.push_back(r.b);
  const auto f = ufx::vectorize(cx_fn{});
  for (int k = 0; k < 6; ++k) {
    const auto got = f(Target{}, a, b, k);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const auto& r = rows[i];
      const std::complex<T> want[] = {r.mul, r.div, r.exp, r.log, r.sqrt, {r.abs, r.arg}};
      CAPTURE(k);
      CAPTURE(r.a);
      CAPTURE(r.b);
      CAPTURE(got[i]);
      CHECK(close(got[i], want[k]));
    }
  }
}

} // namespace

TEST_CASE_TEMPLATE("ufx::math of complex arrays gives NumPy's values, special ones exactly", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  check_functions<Target>(rows_f());
  check_functions<Target>(rows_d());
  CHECK(ufx::math::conj(cf(1, 0)) == cf(1, -0.f));
  CHECK(std::signbit(ufx::math::conj(cf(1, 0)).imag()));
  CHECK(ufx::math::abs(cd(3, 4)) == 5.); // hypot: bitwise where the result is exact
  CHECK(ufx::math::abs(cf(inf_f, nan_f)) == inf_f);
}

TEST_CASE_TEMPLATE("sum, prod, max, min, argmax and argmin of complex arrays are NumPy's", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const int n = 300007;
  std::vector<cf> x(n);
  std::vector<cd> xd(n);
  double re = 0, im = 0;
  for (int i = 0; i < n; ++i) {
    x[static_cast<std::size_t>(i)] = cf(float(i % 7), float(i % 11) * 0.5f);
    xd[static_cast<std::size_t>(i)] = cd(i % 7, i % 11);
    re += i % 7, im += (i % 11) * 0.5;
  }
  // exact sums (below 2^24): bitwise on every target, and complex64 in complex64 as np.sum
  static_assert(std::is_same_v<decltype(ufx::sum(Target{}, x)), cf>);
  CHECK(ufx::sum(Target{}, x) == cf(float(re), float(im)));
  CHECK(ufx::sum(Target{}, xd) == cd(re, 2 * im));
  // (1+2j)(3-1j)(0.5+0.5j)(-2+0j) = -10j (the zero's sign follows the order of the products)
  CHECK(ufx::prod(Target{}, std::vector<cf>{{1, 2}, {3, -1}, {0.5f, 0.5f}, {-2, 0}}) == cf(0, -10));
  CHECK(ufx::prod(Target{}, std::vector<cd>{{1, 2}, {3, -1}, {0.5, 0.5}, {-2, 0}}) == cd(0, -10));
  ufx::ndarray<cf, 2> m({2, 3}, cf(1, -1));
  m(1, 2) = cf(0, 4);
  const auto rows = ufx::sum(Target{}, m, ufx::axis{1});
  CHECK(rows(0) == cf(3, -3));
  CHECK(rows(1) == cf(2, 2));
  // NumPy's order: real parts, then imaginary; the first of equals; a NaN in either part first of all
  CHECK(ufx::argmax(Target{}, x) == 76); // (6, 5): i % 7 == 6 and i % 11 == 10 first at 76
  CHECK(ufx::argmin(Target{}, xd) == 0);
  CHECK(ufx::max(Target{}, x) == cf(6, 5));
  const std::vector<cf> ties{{1, 2}, {3, 0}, {3, 1}, {3, 1}, {2, 5}};
  CHECK(ufx::argmax(Target{}, ties) == 2);
  CHECK(ufx::argmin(Target{}, ties) == 0);
  CHECK(ufx::min(Target{}, ties) == cf(1, 2));
  CHECK(ufx::argmax(Target{}, std::vector<cf>{{3, 0}, {3, -0.f}, {-0.f, 0}, {0, 0}}) == 0);
  CHECK(ufx::argmin(Target{}, std::vector<cf>{{3, 0}, {3, -0.f}, {-0.f, 0}, {0, 0}}) == 2);
  x[n - 3] = cf(0, nan_f);
  x[n - 2] = cf(nan_f, 0);
  CHECK(ufx::argmax(Target{}, x) == n - 3);
  CHECK(ufx::argmin(Target{}, x) == n - 3);
  CHECK(std::isnan(ufx::max(Target{}, x).imag() + ufx::max(Target{}, x).real()));
  // np.max([1+0j, nanj]) and np.min([1+0j, 2+nanj]) are the NaNs, though their real parts are ordered
  CHECK(std::isnan(ufx::max(Target{}, std::vector<cf>{{1, 0}, {0, nan_f}}).imag()));
  CHECK(std::isnan(ufx::min(Target{}, std::vector<cd>{{1, 0}, {2, nan_f}}).imag()));
  CHECK(std::isnan(ufx::sum(Target{}, x).real()));
}

// ---- guvectorize, ufx::lazy, ufx::accumulate, mean / var / std ------------------------------------------------------
// Bitwise on every target where every partial result is exact (the small dyadic values of small_value: gufunc, lazy
// and scan results, sums), as NumPy gives them (np.einsum, np.matmul, np.cumsum, np.cumprod, ... printed by /usr/bin/
// python3, numpy 1.24.2). An inexact cumsum is the same bits as a plain loop in order on serial, host and sim, which
// scan in order (docs/element_types.md); ufx::cuda's scan associates otherwise. Statistics within the bounds
// reducers.hpp states (the last bits differ between targets, which combine partials in other orders).

namespace {

/// "(n),(n)->()": np.vdot of each pair of rows, the sum over k of conj(a_k) b_k.
struct vdot_f {
  template <class C>
  UFX_HD void operator()(ufx::ndview<const C, 1> a, ufx::ndview<const C, 1> b, C& r) const {
    C s{};
    for (ufx::index_t k = 0; k < a.extent(0); ++k) s = ufx_test::madd(s, ufx::math::conj(a(k)), b(k));
    r = s;
  }
};

/// Parts in steps of 1/2 and 1/4 within [-2, 2]: their sums and products below are exact.
template <class C>
C small_value(ufx::index_t i) {
  using T = typename C::value_type;
  return {T(((i * 7) % 9 - 4) * 0.5), T(((i * 5) % 7 - 3) * 0.25)};
}
template <class C, int R>
ufx::ndarray<C, R> small_array(std::array<ufx::index_t, R> shape, ufx::index_t from = 0, ufx::index_t step = 1) {
  ufx::ndarray<C, R> a(shape);
  for (ufx::index_t i = 0; i < a.size(); ++i) a.data()[i] = small_value<C>(from + step * i);
  return a;
}

/// |got - want| in epsilons of `scale`.
template <class T>
double ulps(T got, double want, double scale) {
  return std::abs(double(got) - want) / (eps<T> * scale);
}

/// The mean and the variance (ddof) of n values x(i), two passes in long double.
template <class X>
std::pair<std::complex<long double>, long double> stats_ref(ufx::index_t n, int ddof, const X& x) {
  std::complex<long double> m{};
  for (ufx::index_t i = 0; i < n; ++i) m += std::complex<long double>(x(i).real(), x(i).imag());
  m /= static_cast<long double>(n);
  long double m2 = 0;
  for (ufx::index_t i = 0; i < n; ++i) m2 += std::norm(std::complex<long double>(x(i).real(), x(i).imag()) - m);
  return {m, m2 / static_cast<long double>(n - ddof)};
}
/// ufx's mean (each part within 2 epsilons of that part of `scale`, the data's magnitude) and var (within 5 ulps).
template <class C>
void check_stats(C mean, typename C::value_type var, std::pair<std::complex<long double>, long double> want, C scale) {
  CAPTURE(mean);
  CAPTURE(var);
  CHECK(ulps(mean.real(), double(want.first.real()), scale.real()) <= 2);
  CHECK(ulps(mean.imag(), double(want.first.imag()), scale.imag()) <= 2);
  CHECK(ulps(var, double(want.second), double(want.second)) <= 5);
}

template <class Target, class C>
void check_front_doors() {
  using T = typename C::value_type;
  namespace m = ufx::math;
  const Target tg{};
  // guvectorize: np.einsum("...n,...n->...", a.conj(), c) and np.matmul(a, b), c and b broadcast
  const auto a = small_array<C, 3>({2, 3, 4});
  const auto b = small_array<C, 2>({4, 5}, 3), c = small_array<C, 2>({3, 4}, 1, 2);
  const ufx::ndarray<C, 2> d = ufx::guvectorize<"(n),(n)->()">(vdot_f{})(tg, a, c);
  ufx::ndarray<C, 3> p({2, 3, 5});
  ufx::guvectorize<"(m,n),(n,p)->(m,p)">(ufx_test::matmul_f{})(tg, a, b, ufx::out(p));
  CHECK(d(1, 2) == C(3.0625, 1.875));
  CHECK(p(1, 2, 4) == C(-1, 1.125));
  for (ufx::index_t i = 0; i < 2; ++i)
    for (ufx::index_t j = 0; j < 3; ++j) {
      C s{};
      for (ufx::index_t k = 0; k < 4; ++k) s = m::add(s, m::mul(m::conj(a(i, j, k)), c(j, k)));
      CHECK(d(i, j) == s);
      for (ufx::index_t q = 0; q < 5; ++q) {
        C t{};
        for (ufx::index_t k = 0; k < 4; ++k) t = m::add(t, m::mul(a(i, j, k), b(k, q)));
        CHECK(p(i, j, q) == t);
      }
    }

  // ufx::lazy: x * 2 + (1 - 1j) with a real scalar, its abs (np.abs), and reductions of the expression
  const auto mul = ufx::vectorize([] UFX_HD(C u, C v) { return ufx::math::mul(u, v); });
  const auto add = ufx::vectorize([] UFX_HD(C u, C v) { return ufx::math::add(u, v); });
  const auto modulus = ufx::vectorize([] UFX_HD(C u) { return ufx::math::abs(u); });
  const auto x = small_array<C, 1>({1000});
  const auto e = add(mul(ufx::lazy(x), T(2)), C(1, -1)); // the real 2 becomes 2+0j, as NumPy's x * 2
  const ufx::ndarray<C, 1> ev = ufx::eval(e, tg);
  const ufx::ndarray<T, 1> av = ufx::eval(modulus(e), tg);
  for (ufx::index_t i = 0; i < x.size(); ++i) {
    const C want = m::add(m::mul(x(i), C(2, 0)), C(1, -1));
    CHECK(ev(i) == want);
    CHECK(close(av(i), std::hypot(want.real(), want.imag()), av(i)));
  }
  CHECK(ufx::sum(tg, e) == C(996, -999.5)); // np.sum(x * 2 + (1 - 1j))
  CHECK(ufx::argmax(tg, e) == 32);          // (5+0.5j), first at 32
  CHECK(close(ufx::max(tg, modulus(e)), T(std::sqrt(31.25)), T(5.6)));
  check_stats(ufx::mean(tg, e), ufx::var(tg, e), stats_ref(x.size(), 0, [&](ufx::index_t i) { return ev(i); }),
              C(6, 6));

  // accumulate: np.cumsum along either axis, np.cumprod (exact: Gaussian integers and halves), np.cumsum in order
  const auto y = small_array<C, 2>({3, 5});
  const ufx::ndarray<C, 2> rows = ufx::accumulate(tg, y, ufx::plus{}, ufx::axis{1}),
                           cols = ufx::accumulate(tg, y, ufx::plus{});
  CHECK(rows(2, 4) == C(2, -0.5));
  CHECK(cols(2, 3) == C(-3, -0.25));
  for (ufx::index_t i = 0; i < 3; ++i)
    for (ufx::index_t j = 0; j < 5; ++j) {
      CHECK(rows(i, j) == m::add(j > 0 ? rows(i, j - 1) : C{}, y(i, j)));
      CHECK(cols(i, j) == m::add(i > 0 ? cols(i - 1, j) : C{}, y(i, j)));
    }
  const C units[] = {{1, 1}, {0, 1}, {1, -1}, {-1, 0}, {0.5, 0.5}, {2, 0}};
  std::vector<C> u(40), v(4097);
  for (std::size_t i = 0; i < u.size(); ++i) u[i] = units[i % 6];
  const std::vector<C> up = ufx::accumulate(tg, u, ufx::multiplies{});
  CHECK(up[20] == C(32, -32));
  CHECK(up[39] == C(1024, 0));
  for (std::size_t i = 1; i < u.size(); ++i) CHECK(up[i] == m::mul(up[i - 1], u[i]));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = C(T(0.1) * T(i), T(1) / T(i + 1));
  const std::vector<C> vs = ufx::accumulate(tg, v, ufx::plus{});
  C run = v[0];
  for (std::size_t i = 1; i < v.size(); ++i) {
    run = m::add(run, v[i]);
    if constexpr (std::is_same_v<Target, ufx::cuda_t>) CHECK(std::abs(vs[i] - run) <= T(i) * eps<T> * std::abs(run));
    else CHECK(vs[i] == run);
  }
}

/// np.mean, np.var and np.std of complex arrays: the mean complex, var and std real (float for complex64), with ddof,
/// along axes, and NumPy's special values.
template <class Target, class C>
void check_statistics() {
  using T = typename C::value_type;
  const Target tg{};
  constexpr T inf = std::numeric_limits<T>::infinity();
  // real parts in steps of 1/32 within [-1.5, 1.6], imaginary ones in steps of 1/8 near 1000
  ufx::ndarray<C, 2> x({50, 100});
  for (ufx::index_t i = 0; i < x.size(); ++i)
    x.data()[i] = C(T(((i * 37) % 101) * 0.03125 - 1.5), T(1000 + ((i * 11) % 23) * 0.125));
  const C scale(1.6, 1003);
  static_assert(std::is_same_v<decltype(ufx::mean(tg, x)), C> && std::is_same_v<decltype(ufx::var(tg, x)), T> &&
                std::is_same_v<decltype(ufx::std(tg, x)), T>);
  // NumPy's complex128 values, within 1 ulp of the exact ones; its complex64 ones are within 1.2 ulps of these
  // (np.var: 0x1.84a028p+0, where 0x1.84a026p+0 is the nearest float)
  check_stats(ufx::mean(tg, x), ufx::var(tg, x), {{0x1.ff212d77318fdp-5, 0x1.f4b0113404ea5p+9}, 0x1.84a025c8e764fp+0},
              scale);
  const double std1 = 0x1.3b72ef5675b6dp+0; // np.std(x, ddof=1)
  CHECK(ulps(ufx::std(tg, x, ufx::ddof{1}), std1, std1) <= 5);
  // along either axis, with ddof and keepdims; mean and var in one pass into ufx::out destinations
  const ufx::ndarray<C, 1> m0 = ufx::mean(tg, x, ufx::axis{0});
  const ufx::ndarray<T, 1> v0 = ufx::var(tg, x, ufx::axis{0}, ufx::ddof{1});
  ufx::ndarray<C, 2> m1({50, 1});
  ufx::ndarray<T, 2> v1({50, 1});
  ufx::reducers(ufx::mean, ufx::var)(tg, x, ufx::axis{1}, ufx::keepdims, ufx::out(m1, v1));
  for (ufx::index_t j = 0; j < 100; ++j)
    check_stats(m0(j), v0(j), stats_ref(50, 1, [&](ufx::index_t i) { return x(i, j); }), scale);
  for (ufx::index_t i = 0; i < 50; ++i)
    check_stats(m1(i, 0), v1(i, 0), stats_ref(100, 0, [&](ufx::index_t j) { return x(i, j); }), scale);
  // np.mean of nothing is nan+nanj; it divides the sum by n as a complex number, so a part that is not finite makes
  // the other one NaN: np.mean([inf+1j, 1+1j]) is inf+nanj, and np.var NaN
  const C none = ufx::mean(tg, std::vector<C>{});
  CHECK((std::isnan(none.real()) && std::isnan(none.imag())));
  const std::vector<C> w{{inf, 1}, {1, 1}};
  CHECK(ufx::mean(tg, w).real() == inf);
  CHECK(std::isnan(ufx::mean(tg, w).imag()));
  CHECK(std::isnan(ufx::var(tg, w)));
  const std::vector<C> two{{1, 2}, {3, 0}};
  CHECK(ufx::mean(tg, two) == C(2, 1));
  CHECK(ufx::var(tg, two, ufx::ddof{1}) == 4); // np.var([1+2j, 3+0j], ddof=1)
  CHECK(ufx::var(tg, two, ufx::ddof{2}) == inf);
}

} // namespace

TEST_CASE_TEMPLATE("guvectorize, lazy expressions, accumulate, mean, var and std of complex arrays give NumPy's values",
                   Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  check_front_doors<Target, cf>();
  check_front_doors<Target, cd>();
  check_statistics<Target, cf>();
  check_statistics<Target, cd>();
}
