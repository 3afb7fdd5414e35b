// ufx::math: accuracy against a wider reference (float: the double std:: result; double: long
// double's), C's special values, and the same results through ufx::vectorize on every target.
#include "common.hpp"

#include <bit>
#include <cfloat>
#include <cstdint>
#include <limits>
#include <random>

namespace {

constexpr double worst = std::numeric_limits<double>::infinity();

/// |got - ref| in units of T's last place at ref (ref held in a wider type W): a correctly rounded
/// result is within 0.5. A NaN must match a NaN, an infinity or a zero (with its sign) exactly.
template <class T, class W>
double ulp_error(T got, W ref) {
  if (std::isnan(ref) || std::isnan(got)) return std::isnan(ref) && std::isnan(got) ? 0 : worst;
  const T rounded = static_cast<T>(ref);
  if (std::isinf(rounded) || std::isinf(got) || ref == 0 || got == 0)
    return got == rounded && std::signbit(got) == std::signbit(rounded) ? 0 : worst;
  int e = 0;
  std::frexp(ref, &e);
  const int q = std::max(e - std::numeric_limits<T>::digits,
                         std::numeric_limits<T>::min_exponent - std::numeric_limits<T>::digits);
  return static_cast<double>(std::abs(static_cast<W>(got) - ref) / std::ldexp(W(1), q));
}

/// The largest error over the inputs, and one input where it happens.
template <class T>
struct worst_case {
  double err = 0;
  T at{}, at2{};
  void add(double e, T x, T y = T{}) {
    if (!(e <= err)) err = e, at = x, at2 = y;
  }
};

template <class T>
void report(const char* name, const worst_case<T>& w, const char* domain) {
  MESSAGE(std::string(name) << std::string(sizeof(T) == 4 ? " float" : " double") << ": max error " << w.err
                            << " ulp over " << std::string(domain) << " (at x = " << w.at << ", y = " << w.at2 << ")");
  CHECK(w.err <= 2.0);
}

/// Every 257th float bit pattern (both signs, NaNs, infinities, subnormals), in batches so the
/// kernel's loop vectorises as it does in ufx::vectorize (every 4111th under AddressSanitizer).
template <class F, class R, class D>
worst_case<float> sweep_float(F f, R ref, D in_domain) {
  constexpr std::size_t batch = 4096;
  std::vector<float> x(batch), y(batch);
  worst_case<float> w;
  std::uint64_t b = 0;
  while (b < (std::uint64_t(1) << 32)) {
    std::size_t n = 0;
    for (; n < batch && b < (std::uint64_t(1) << 32); b += ufx_test::sanitized ? 4111 : 257) {
      const float v = std::bit_cast<float>(static_cast<std::uint32_t>(b));
      if (in_domain(v)) x[n++] = v;
    }
    for (std::size_t i = 0; i < n; ++i) y[i] = f(x[i]);
    for (std::size_t i = 0; i < n; ++i) w.add(ulp_error(y[i], ref(static_cast<double>(x[i]))), x[i]);
  }
  return w;
}

/// n doubles, log-uniform in magnitude between 2^lo and 2^hi, of either sign when `both`.
std::vector<double> log_uniform(std::size_t n, int lo, int hi, bool both, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(0., 1.);
  std::vector<double> v(n);
  for (auto& x : v) {
    x = std::exp2(lo + (hi - lo) * u(g));
    if (both && (g() & 1)) x = -x;
  }
  return v;
}

template <class F, class R>
worst_case<double> sweep_double(const std::vector<double>& x, F f, R ref) {
  std::vector<double> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = f(x[i]);
  worst_case<double> w;
  for (std::size_t i = 0; i < x.size(); ++i) w.add(ulp_error(y[i], ref(static_cast<long double>(x[i]))), x[i]);
  return w;
}

constexpr std::size_t n_double = ufx_test::sanitized ? 1 << 16 : 1 << 20;
bool any_float(float) { return true; }

} // namespace

TEST_CASE("exp, log, tanh and sqrt of float are within 2 ulp of every 257th float") {
  report("exp", sweep_float([](float x) { return ufx::math::exp(x); }, [](double x) { return std::exp(x); }, any_float),
         "all floats");
  report("log", sweep_float([](float x) { return ufx::math::log(x); }, [](double x) { return std::log(x); }, any_float),
         "all floats");
  report("tanh",
         sweep_float([](float x) { return ufx::math::tanh(x); }, [](double x) { return std::tanh(x); }, any_float),
         "all floats");
  report("sqrt",
         sweep_float([](float x) { return ufx::math::sqrt(x); }, [](double x) { return std::sqrt(x); }, any_float),
         "all floats");
}

TEST_CASE("sqrt of float is correctly rounded on every build; of double where it is the instruction, and the Newton "
          "kernel within 1 ulp") {
  // ufx::math::sqrt is the instruction under -fno-math-errno and through libufx's vector functions
  // on GCC/x86-64 (a vector loop calls those): then every result is std::sqrt's, bit for bit.
  // Elsewhere it is the Newton kernel, tested here on its own on every build: float's in double, rounded once, which is
  // correctly rounded (every float checked once, with clang, when it was written). (Not in nvcc's device pass, which
  // has no host kernels to name: the case runs on the host.)
#if !defined(__CUDA_ARCH__)
  const auto newton = sweep_float([](float x) { return ufx::detail::math::sqrt_newton(x); },
                                  [](double x) { return std::sqrt(x); }, any_float);
  report("sqrt (Newton)", newton, "all floats");
  CHECK(newton.err <= 1.0);
  const auto newton_d = sweep_double(
      log_uniform(n_double, -1074, 1023, false, 7), [](double x) { return ufx::detail::math::sqrt_newton(x); },
      [](long double x) { return std::sqrt(x); });
  report("sqrt (Newton)", newton_d, "2^-1074 <= x < 2^1024");
  CHECK(newton_d.err <= 1.0);
  const auto exact =
      sweep_float([](float x) { return ufx::math::sqrt(x); }, [](double x) { return std::sqrt(x); }, any_float);
  CHECK(exact.err <= 0.5);
  CHECK(std::isnan(ufx::math::sqrt(-1.f)));
#  if UFX_MATH_SIMD_SQRT || defined(__NO_MATH_ERRNO__)
  std::vector<double> x = log_uniform(4099, -1074, 1023, false, 8), y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = ufx::math::sqrt(x[i]); // a vector loop: the library's variants
  for (std::size_t i = 0; i < x.size(); ++i) CHECK(y[i] == std::sqrt(x[i]));
  for (double v : {0., -0., std::numeric_limits<double>::infinity(), std::numeric_limits<double>::denorm_min()})
    CHECK(std::bit_cast<std::uint64_t>(ufx::math::sqrt(v)) == std::bit_cast<std::uint64_t>(std::sqrt(v)));
  CHECK(std::isnan(ufx::math::sqrt(-1.)));
#  endif
#endif
}

TEST_CASE("sin and cos of float are within 2 ulp of every 257th float up to 1.6e6") {
  auto domain = [](float x) { return !(std::abs(x) > 1647099.f); }; // NaN included
  report("sin", sweep_float([](float x) { return ufx::math::sin(x); }, [](double x) { return std::sin(x); }, domain),
         "|x| <= 1.6e6");
  report("cos", sweep_float([](float x) { return ufx::math::cos(x); }, [](double x) { return std::cos(x); }, domain),
         "|x| <= 1.6e6");
}

TEST_CASE("sin and cos of float are within 2 ulp where the reduction is hardest, and at the domain's end") {
  // the floats nearest k pi/2 and 3 either side, k up to 2^20 (x - k pi/2 is smallest there, so
  // the reduction's error counts most), and the last 2^16 floats below 2^20 pi/2
  std::vector<float> x;
  for (std::int64_t k = 1; k <= (std::int64_t(1) << 20); ++k) {
    float v = static_cast<float>(static_cast<double>(k) * 1.5707963267948966);
    for (int i = 0; i < 3; ++i) v = std::nextafter(v, 0.f);
    for (int i = 0; i < 7 && v <= 1647099.25f; ++i, v = std::nextafter(v, 2e6f)) x.push_back(v), x.push_back(-v);
  }
  float v = 1647099.f;
  for (int i = 0; i < (1 << 16); ++i, v = std::nextafter(v, 0.f)) x.push_back(v);
  std::vector<float> s(x.size()), c(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) s[i] = ufx::math::sin(x[i]);
  for (std::size_t i = 0; i < x.size(); ++i) c[i] = ufx::math::cos(x[i]);
  worst_case<float> ws, wc;
  for (std::size_t i = 0; i < x.size(); ++i) {
    ws.add(ulp_error(s[i], std::sin(static_cast<double>(x[i]))), x[i]);
    wc.add(ulp_error(c[i], std::cos(static_cast<double>(x[i]))), x[i]);
  }
  report("sin", ws, "x near k pi/2, k <= 2^20, and 2^16 floats below 1.6e6");
  report("cos", wc, "x near k pi/2, k <= 2^20, and 2^16 floats below 1.6e6");
}

TEST_CASE("exp, log, tanh and sqrt of double are within 2 ulp of long double's") {
  const auto e = log_uniform(n_double, -60, 10, true, 1); // up to 1024: past +-745 the results are 0 and inf
  report("exp",
         sweep_double(
             e, [](double x) { return ufx::math::exp(x); }, [](long double x) { return std::exp(x); }),
         "2^-60 <= |x| <= 1024");
  const auto l = log_uniform(n_double, -1074, 1024, false, 2);
  report("log",
         sweep_double(
             l, [](double x) { return ufx::math::log(x); }, [](long double x) { return std::log(x); }),
         "0 < x < 2^1024");
  report("sqrt",
         sweep_double(
             l, [](double x) { return ufx::math::sqrt(x); }, [](long double x) { return std::sqrt(x); }),
         "0 < x < 2^1024");
  const auto t = log_uniform(n_double, -60, 6, true, 3);
  report("tanh",
         sweep_double(
             t, [](double x) { return ufx::math::tanh(x); }, [](long double x) { return std::tanh(x); }),
         "2^-60 <= |x| <= 64");
}

TEST_CASE("sin and cos of double are within 2 ulp of long double's up to 1.6e6") {
  auto x = log_uniform(n_double, -30, 20, true, 4);
  std::mt19937_64 g(5);
  for (std::size_t i = 0; i < n_double / 2; ++i)
    x.push_back(std::uniform_real_distribution<double>(-1647099., 1647099.)(g));
  report("sin",
         sweep_double(
             x, [](double v) { return ufx::math::sin(v); }, [](long double v) { return std::sin(v); }),
         "2^-30 <= |x| <= 1.6e6");
  report("cos",
         sweep_double(
             x, [](double v) { return ufx::math::cos(v); }, [](long double v) { return std::cos(v); }),
         "2^-30 <= |x| <= 1.6e6");
}

TEST_CASE_TEMPLATE("pow is within 2 ulp where the result is finite and nonzero, and for negative bases", T, float,
                   double) {
  using W = std::conditional_t<std::is_same_v<T, float>, double, long double>;
  constexpr int emax = std::numeric_limits<T>::max_exponent;
  std::mt19937_64 g(6);
  std::uniform_real_distribution<double> u(-1., 1.);
  const auto x = log_uniform(n_double, -emax + 1, emax - 1, false, 7);
  worst_case<T> w;
  std::vector<T> xs(x.size()), ys(x.size()), r(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    xs[i] = static_cast<T>(x[i]);
    // |y log2 x| up to past the overflow and underflow limits; every 4th y an integer, every 8th x negative
    const double lim = 1.1 * emax / std::max(std::abs(std::log2(static_cast<double>(xs[i]))), 1e-3);
    ys[i] = static_cast<T>(u(g) * std::min(lim, 1e6));
    if (i % 4 == 0) ys[i] = std::round(ys[i]);
    if (i % 8 == 0) xs[i] = -xs[i];
  }
  for (std::size_t i = 0; i < x.size(); ++i) r[i] = ufx::math::pow(xs[i], ys[i]);
  for (std::size_t i = 0; i < x.size(); ++i)
    w.add(ulp_error(r[i], std::pow(static_cast<W>(xs[i]), static_cast<W>(ys[i]))), xs[i], ys[i]);
  report("pow", w, "x, y with |y log2 x| <= 1.1 * 2^max_exponent");
}

TEST_CASE_TEMPLATE("special values follow C", T, float, double) {
  namespace m = ufx::math;
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  const T den = std::numeric_limits<T>::denorm_min(), big = std::numeric_limits<T>::max();
  // NaN, infinities and zeros (with their sign) exactly, other results within 2 ulp of std::'s
  auto same = [](T a, T b) { return ulp_error(a, b) <= 2.; };
  for (T x : {T(0), -T(0), inf, -inf, nan, den, -den, big, -big, std::numeric_limits<T>::min()}) {
    CAPTURE(x);
    CHECK(std::isnan(m::exp(nan)));
    if (!std::isnan(x) && std::abs(x) != T(0) && std::abs(x) != den) {
      CHECK(same(m::exp(x), std::exp(x)));
    }
    CHECK(same(m::log(x), std::log(x)));
    CHECK(same(m::sqrt(x), std::sqrt(x)));
    CHECK(same(m::tanh(x), std::tanh(x)));
    if (!(std::abs(x) == big)) {
      CHECK(same(m::sin(x), std::sin(x)));
      CHECK(same(m::cos(x), std::cos(x)));
    } else { // out of the trigonometric domain: NaN, never a wrong number
      CHECK(std::isnan(m::sin(x)));
      CHECK(std::isnan(m::cos(x)));
    }
    for (T y : {T(0), -T(0), T(1), T(-1), T(2), T(3), T(-3), T(0.5), T(-0.5), inf, -inf, nan}) {
      CAPTURE(y);
      CHECK(same(m::pow(x, y), std::pow(x, y)));
      CHECK(same(m::pow(y, x), std::pow(y, x)));
    }
  }
  for (T x : {T(1.7e6), T(-1.7e6), T(1e7), T(1e20)}) { // past |x| <= 2^20 pi/2: NaN
    CAPTURE(x);
    CHECK(std::isnan(m::sin(x)));
    CHECK(std::isnan(m::cos(x)));
  }
  CHECK(same(m::sin(T(1.6e6)), std::sin(T(1.6e6))));
  CHECK(m::exp(T(1000)) == inf);
  CHECK(m::exp(T(-1000)) == T(0));
  CHECK(m::exp(std::is_same_v<T, float> ? T(-103) : T(-745)) > T(0)); // subnormal
  CHECK(m::log(den) == doctest::Approx(std::log(den)));
  CHECK(same(m::pow(T(-8), T(1) / 3), nan));
  CHECK(m::pow(T(-2), T(3)) == T(-8));
  CHECK(m::pow(T(-1), inf) == T(1));
  CHECK(m::pow(T(-1), -inf) == T(1));
}

namespace {
struct math_all {
  template <class T>
  UFX_HD T operator()(T x, T y) const {
    namespace m = ufx::math;
    return m::exp(-x * x) * m::sin(y) + m::cos(x) * m::log(y) - m::tanh(y) + m::sqrt(y) * m::pow(y, x);
  }
};
} // namespace

TEST_CASE_TEMPLATE("ufx::math through vectorize gives the scalar call's result on every target", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto f = ufx::vectorize(math_all{});
  const int n = 3000;
  std::vector<float> x(n), y(n);
  std::vector<double> xd(n), yd(n);
  for (int i = 0; i < n; ++i) {
    x[i] = -3.f + 6.f * static_cast<float>(i) / n;
    y[i] = 0.01f + 10.f * static_cast<float>((i * 7) % n) / n;
    xd[i] = x[i], yd[i] = y[i];
  }
  const std::vector<float> r = f(Target{}, x, y);
  const std::vector<double> rd = f(Target{}, xd, yd);
  for (int i = 0; i < n; ++i) {
    CAPTURE(i);
    const float want = math_all{}(x[i], y[i]);
    const double want_d = math_all{}(xd[i], yd[i]);
    if constexpr (Target::is_device) { // CUDA's functions: within a few ulp of the host kernels'
      CHECK(r[i] == doctest::Approx(want).epsilon(1e-5));
      CHECK(rd[i] == doctest::Approx(want_d).epsilon(1e-13));
    } else {
      CHECK(r[i] == want);
      CHECK(rd[i] == want_d);
    }
  }
}

namespace {
struct fast_exp_f {
  template <class T>
  UFX_HD T operator()(T x) const {
    return ufx::math::fast::exp(x);
  }
};

/// fast::exp's errors at x against double's exp: the worst ulp error less 1.173 |x| (over results of 2^-126 and more),
/// the worst absolute error less 2^-22 e^x (over x <= 0), and whether the special values came out right, over the
/// indices `at` (all when empty).
struct fast_exp_errors {
  double worst_ulp = 0, worst_abs = 0;
  bool special = true;
  void add(float v, float r) {
    const float inf = std::numeric_limits<float>::infinity();
    if (std::isnan(v) || std::isinf(v)) {
      special = special && (std::isnan(v) ? std::isnan(r) : r == (v > 0 ? inf : 0.f));
      return;
    }
    const double want = std::exp(double(v));
    if (want >= 0x1p-126 && want < 0x1p128)
      worst_ulp = std::max(worst_ulp, ulp_error(r, want) - 1.173 * std::abs(double(v)));
    else if (want >= 0x1p128) special = special && r == inf;
    if (v <= 0) worst_abs = std::max(worst_abs, std::abs(double(r) - want) - 0x1p-22 * want);
  }
};

/// The sweep's stride in float bit patterns: 97 in the optimised builds, whose three binaries (cpu's ufx_tests, its FMA
/// and AVX-512 builds) check the bound; 997 under AddressSanitizer (cpu-asan, which is there for memory and undefined
/// behaviour, not accuracy: the dense sweep took 22 s of its test time).
#if defined(__SANITIZE_ADDRESS__)
constexpr std::uint32_t fast_exp_stride = 997;
#elif defined(__has_feature)
#  if __has_feature(address_sanitizer)
constexpr std::uint32_t fast_exp_stride = 997;
#  else
constexpr std::uint32_t fast_exp_stride = 97;
#  endif
#else
constexpr std::uint32_t fast_exp_stride = 97;
#endif

/// Every 97th float (fast_exp_stride) from -104 to 89 (past both ends: flushed and overflowing results) and the special
/// values, with ufx::serial's results and their errors, computed once: each target's results are compared with serial's
/// bit for bit, and only those that differ are measured again (the reference's 23 million exp calls had taken 11 s a
/// target).
struct fast_exp_sweep {
  std::vector<float> x, serial;
  fast_exp_errors errors;
  fast_exp_sweep() {
    for (std::uint32_t b = std::bit_cast<std::uint32_t>(-104.f); b > 0x80000000u; b -= fast_exp_stride)
      x.push_back(std::bit_cast<float>(b));
    for (std::uint32_t b = 0; std::bit_cast<float>(b) < 89.f; b += fast_exp_stride)
      x.push_back(std::bit_cast<float>(b));
    const float inf = std::numeric_limits<float>::infinity();
    x.insert(x.end(), {0.f, -0.f, inf, -inf, std::numeric_limits<float>::quiet_NaN(), 1e-40f, -1e-40f});
    serial = ufx::vectorize(fast_exp_f{})(ufx::serial, x);
    for (std::size_t i = 0; i < x.size(); ++i) errors.add(x[i], serial[i]);
  }
  static const fast_exp_sweep& get() {
    static const fast_exp_sweep s;
    return s;
  }
};
} // namespace

TEST_CASE_TEMPLATE("ufx::math::fast::exp is within its stated bound on every target", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const fast_exp_sweep& sweep = fast_exp_sweep::get();
  const std::vector<float>& x = sweep.x;
  const std::vector<float> r = ufx::vectorize(fast_exp_f{})(Target{}, x);
  REQUIRE(r.size() == x.size());
  // serial's errors bound this target's where the bits are the same; the results that differ are measured
  fast_exp_errors e = sweep.errors;
  std::size_t differ = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (std::bit_cast<std::uint32_t>(r[i]) != std::bit_cast<std::uint32_t>(sweep.serial[i])) {
      e.add(x[i], r[i]);
      ++differ;
    }
  MESSAGE("fast::exp on " << std::string(Target::name()) << ": max ulp error - 1.173|x| " << e.worst_ulp
                          << ", max |error| - 2^-22 e^x for x <= 0 " << e.worst_abs << "; " << differ << " of "
                          << x.size() << " results differ from ufx::serial's");
  CHECK(e.worst_ulp <= 2.0);
  CHECK(e.worst_abs <= 0x1p-24);
  CHECK(e.special);
  // double: ufx::math::exp's
  const std::vector<double> xd{-700.0, -1.5, 0.0, 2.25, 700.0};
  const std::vector<double> rd = ufx::vectorize(fast_exp_f{})(Target{}, xd);
  for (std::size_t i = 0; i < xd.size(); ++i) CHECK(ulp_error(rd[i], std::exp(static_cast<long double>(xd[i]))) <= 2.0);
}

TEST_CASE("integer and mixed arguments are doubles, as for std::") {
  static_assert(std::is_same_v<decltype(ufx::math::exp(2)), double>);
  static_assert(std::is_same_v<decltype(ufx::math::pow(2.f, 3)), double>);
  static_assert(std::is_same_v<decltype(ufx::math::pow(2.f, 3.f)), float>);
  CHECK(ufx::math::exp(2) == ufx::math::exp(2.0));
  CHECK(ufx::math::sqrt(16) == 4.0);
  CHECK(ufx::math::pow(2, 10) == 1024.0);
  CHECK(ufx::math::pow(2.f, 0.5) == ufx::math::pow(2.0, 0.5));
}
