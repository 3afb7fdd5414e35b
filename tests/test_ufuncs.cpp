// The ready ufuncs as objects (ufx/ufuncs.hpp) on every target: calls, NEP 50's weak scalars, the operators (eager on
// ufx arrays, fused on lazy operands), their ufunc methods with NumPy's identities, ufunc objects as reduction
// operators, and the errors. test_numpy_ufuncs.cpp checks every function's values and types against NumPy's.
//
// Promise across targets: integer, comparison and rounding results bitwise on every target; float functions within 4
// ulp of the host's on the CPU targets (the same code) and on ufx::cuda (CUDA's libm is not glibc's).
#include "common.hpp"

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

using ufx_test::error_message;

// In a CUDA build the cases run on ufx::cuda only: ufx::sim is host code, which the CPU build's cases already run, and
// nvcc's host pass doubled the file's compile time for it.
#if defined(__CUDACC__)
#  define UFX_UFUNC_TARGETS ufx::cuda_t
#else
#  define UFX_UFUNC_TARGETS UFX_TEST_TARGETS
#endif

namespace {

std::vector<double> doubles() { return {-2.75, -1.0, -0.0, 0.0, 0.1, 0.5, 1.0, 2.5, 7.0, 100.0}; }
std::vector<std::int64_t> int64s() { return {-9, -7, -1, 0, 1, 2, 7, 13, 64, -64}; }

/// The vector on Target's memory: a device_array on a device target, the vector itself elsewhere.
template <class Target, class T>
auto on(const std::vector<T>& v) {
  if constexpr (Target::is_device) return ufx::to_device(v, Target{});
  else return v;
}

template <class A>
auto host_of(const A& a) {
  if constexpr (requires { a.to_host(); }) return a.to_host();
  else return a;
}

bool close(double got, double want) {
  if (std::isnan(want)) return std::isnan(got);
  if (got == want) return true;
  return std::fabs(got - want) <= 4 * std::numeric_limits<double>::epsilon() * std::fabs(want);
}

} // namespace

TEST_CASE_TEMPLATE("ready ufuncs on every target: one fused expression of many, and integer ones bitwise", Target,
                   UFX_UFUNC_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const std::vector<double> xv = doubles(), yv{3.0, -2.0, 0.5, -0.5, 7.0, 1.0, -3.0, 0.25, 2.0, 9.0};
  const auto x = ufx::lazy(xv), y = ufx::lazy(yv);
  // many float functions in one kernel, each against its scalar function on the host
  const auto e = ufx::hypot(ufx::exp(ufx::sin(x)), ufx::log1p(ufx::absolute(y))) + ufx::arctan2(y, x) -
                 ufx::floor_divide(x, y) * ufx::remainder(x, y) + ufx::maximum(ufx::sqrt(ufx::square(x)), y) +
                 ufx::power(ufx::absolute(x), 0.5) + ufx::tanh(ufx::cbrt(y)) + ufx::logaddexp(x, y);
  const std::vector<double> got = host_of(ufx::eval(e, Target{}));
  REQUIRE(got.size() == xv.size());
  for (std::size_t i = 0; i < xv.size(); ++i) {
    const double a = xv[i], b = yv[i];
    const ufx::ops::floor_divide fd;
    const ufx::ops::remainder rm;
    const ufx::ops::logaddexp la;
    const double want = std::hypot(std::exp(std::sin(a)), std::log1p(std::fabs(b))) + std::atan2(b, a) -
                        fd(a, b) * rm(a, b) + std::fmax(std::sqrt(a * a), b) + std::pow(std::fabs(a), 0.5) +
                        std::tanh(std::cbrt(b)) + la(a, b);
    CHECK_MESSAGE(close(got[i], want), "x = " << a << ", y = " << b << ": " << got[i] << " vs " << want);
  }
  // integers: NumPy's floor division and remainder, shifts, gcd, bitwise, all bitwise on every target
  const std::vector<std::int64_t> iv = int64s(), jv{2, -2, 3, 5, -1, 0, 7, 4, 3, 6};
  const auto i = ufx::lazy(iv), j = ufx::lazy(jv);
  const auto ie = ufx::floor_divide(i, j) * 1000 + ufx::remainder(i, j) * 100 + ufx::gcd(i, j) * 10 +
                  (ufx::left_shift(j, 2) & 15) + ufx::right_shift(i, 1);
  const std::vector<std::int64_t> igot = host_of(ufx::eval(ie, Target{}));
  //    np.floor_divide(i, j)*1000 + np.remainder(i, j)*100 + np.gcd(i, j)*10 + ((j << 2) & 15) + (i >> 1)
  const std::vector<std::int64_t> iwant{-4887, 2914, -779, 54, -978, 21, 1085, 3116, 21154, -10804};
  CHECK(igot == iwant);
}

TEST_CASE_TEMPLATE("ready ufuncs: NEP 50 scalars, result types and containers", Target, UFX_UFUNC_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const std::vector<float> xf{1.5f, -2.f, 4.f};
  const std::vector<std::int8_t> xi{-128, 0, 127};
  const std::vector<std::int32_t> x32{1, -2, 3};
  const auto a = host_of(ufx::add(Target{}, on<Target>(xf), 1.0));       // float32 stays
  const auto b = host_of(ufx::add(Target{}, on<Target>(xi), 1));         // int8 stays, wraps
  const auto c = host_of(ufx::multiply(Target{}, on<Target>(x32), 0.5)); // a float beside int: float64
  const auto d = host_of(ufx::divide(Target{}, on<Target>(x32), 2));     // int / int: float64
  const auto e = host_of(ufx::exp(Target{}, on<Target>(xi)));            // np.exp(int8): float16
  static_assert(std::is_same_v<typename decltype(a)::value_type, float>);
  static_assert(std::is_same_v<typename decltype(b)::value_type, std::int8_t>);
  static_assert(std::is_same_v<typename decltype(c)::value_type, double>);
  static_assert(std::is_same_v<typename decltype(d)::value_type, double>);
  static_assert(std::is_same_v<typename decltype(e)::value_type, ufx::float16>);
  CHECK(std::vector<float>(a.begin(), a.end()) == std::vector<float>{2.5f, -1.f, 5.f});
  CHECK(std::vector<std::int8_t>(b.begin(), b.end()) == std::vector<std::int8_t>{-127, 1, -128});
  CHECK(std::vector<double>(c.begin(), c.end()) == std::vector<double>{0.5, -1.0, 1.5});
  CHECK(std::vector<double>(d.begin(), d.end()) == std::vector<double>{0.5, -1.0, 1.5});
  CHECK(static_cast<float>(*(e.begin() + 1)) == 1.f);
  // an integer the arrays' type cannot hold: NumPy 2's OverflowError, before anything runs
  CHECK(error_message([&] { (void)ufx::add(Target{}, on<Target>(xi), 300); }) ==
        "ufx::add: the C++ integer 300 is out of bounds for int8, the arrays' type it takes (NEP 50; NumPy raises "
        "OverflowError)");
  // integer power with a negative exponent: NumPy's ValueError, scalar or array
  CHECK(error_message([&] { (void)ufx::power(Target{}, on<Target>(x32), -1); }) ==
        "ufx::power: Integers to negative integer powers are not allowed.");
  CHECK(error_message([&] { (void)ufx::power(Target{}, on<Target>(x32), on<Target>(x32)); }) ==
        "ufx::power: Integers to negative integer powers are not allowed.");
  const auto p = host_of(ufx::power(Target{}, on<Target>(x32), 3));
  CHECK(std::vector<std::int32_t>(p.begin(), p.end()) == std::vector<std::int32_t>{1, -8, 27});
}

TEST_CASE_TEMPLATE("ready ufuncs: methods with NumPy's identities, and as reduction operators", Target,
                   UFX_UFUNC_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const std::vector<std::int8_t> b{100, 100, 100, -7};
  const auto bd = on<Target>(b);
  // np.add.reduce of int8 is np.sum's: int64, no wrap
  const auto s = ufx::add.reduce(Target{}, bd);
  static_assert(std::is_same_v<decltype(s), const std::int64_t>);
  CHECK(s == 293);
  CHECK(ufx::multiply.reduce(Target{}, bd) == -7000000);
  CHECK(ufx::maximum.reduce(Target{}, bd) == 100);
  CHECK(ufx::bitwise_or.reduce(Target{}, bd) == -3);                          // np.bitwise_or.reduce
  CHECK(ufx::bitwise_and.reduce(Target{}, std::vector<std::int8_t>{}) == -1); // NumPy's identity: all bits
  CHECK(ufx::logical_and.reduce(Target{}, bd) == true);
  CHECK(ufx::logical_or.reduce(Target{}, std::vector<double>{}) == false);
  CHECK(ufx::add.reduce(Target{}, std::vector<float>{}) == 0.f);
  CHECK(std::isinf(ufx::logaddexp.reduce(Target{}, std::vector<double>{})));
  CHECK(ufx::logaddexp.reduce(Target{}, std::vector<double>{0.0, 0.0}) == std::log(2.0));
  CHECK(error_message([&] {
          (void)ufx::maximum.reduce(Target{}, std::vector<float>{});
        }).find("zero-size array to reduction operation") != std::string::npos);
  // np.add.accumulate of int8: int64 (np.cumsum)
  const auto acc = host_of(ufx::add.accumulate(Target{}, bd));
  CHECK(std::vector<std::int64_t>(acc.begin(), acc.end()) == std::vector<std::int64_t>{100, 200, 300, 293});
  // ufunc objects as operators and maps of the reduction front doors
  const std::vector<float> x{3.f, -1.f, 8.f, 2.f}, y{1.f, 2.f, 0.5f, -1.f};
  CHECK(ufx::reduce(Target{}, x, ufx::maximum, -INFINITY) == 8.f);
  CHECK(ufx::reduce(Target{}, x, ufx::minimum, INFINITY) == -1.f);
  CHECK(ufx::transform_reduce(Target{}, x, y, ufx::multiply, ufx::add, 0.f) == 3.f);
  const auto cm = host_of(ufx::accumulate(Target{}, on<Target>(x), ufx::maximum));
  CHECK(std::vector<float>(cm.begin(), cm.end()) == std::vector<float>{3.f, 3.f, 8.f, 8.f});
  // outer and at
  const auto o = host_of(
      ufx::multiply.outer(Target{}, on<Target>(std::vector<double>{1, 2}), on<Target>(std::vector<double>{3, 4, 5})));
  CHECK(std::vector<double>(o.begin(), o.end()) == std::vector<double>{3, 4, 5, 6, 8, 10});
  auto bins = on<Target>(std::vector<std::int32_t>(4, 0));
  ufx::add.at(Target{}, bins, std::vector<std::int64_t>{0, 2, 2, 3, 2}, 1);
  const auto h = host_of(bins);
  CHECK(std::vector<std::int32_t>(h.begin(), h.end()) == std::vector<std::int32_t>{1, 0, 3, 1});
}

/// A host array's elements as a vector.
template <class A>
auto vec(const A& a) {
  return std::vector<std::remove_cvref_t<decltype(*a.begin())>>(a.begin(), a.end());
}

/// Runs f(), on a device target by atomics (the ready ufunc's f.at path) when `atomic`, else by the ordered gufunc;
/// checks which ran.
template <class Target, class F>
void at_path(bool atomic, F f) {
  auto& sw = ufx::detail::testing().at_atomics;
  const long before = sw.launches.load();
  f();
  CHECK(sw.launches.load() - before == (Target::is_device && atomic ? 1 : 0));
}

TEST_CASE_TEMPLATE("ready ufuncs' at: by atomics on a device, bitwise the ordered loop's for integers", Target,
                   UFX_UFUNC_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  // 4096 updates into 16 bins, every bin hit many times, indices of both signs (np.add.at normalises them)
  std::vector<std::int64_t> idx(4096);
  std::vector<std::int32_t> w(idx.size());
  for (std::size_t i = 0; i < idx.size(); ++i) {
    idx[i] = static_cast<std::int64_t>((i * 7919) % 16) - (i % 3 == 0 ? 16 : 0);
    w[i] = static_cast<std::int32_t>(i % 23) - 11;
  }
  std::vector<std::int32_t> sum(16, 5), mx(16, -100), mn(16, 100), orr(16, 0);
  for (std::size_t i = 0; i < idx.size(); ++i) { // the ordered loop
    auto& s = sum[static_cast<std::size_t>((idx[i] + 16) % 16)];
    s += w[i];
    auto j = static_cast<std::size_t>((idx[i] + 16) % 16);
    mx[j] = std::max(mx[j], w[i]);
    mn[j] = std::min(mn[j], w[i]);
    orr[j] |= w[i] & 0x7ff;
  }
  const auto wd = on<Target>(w);
  auto a = on<Target>(std::vector<std::int32_t>(16, 5));
  at_path<Target>(true, [&] { ufx::add.at(Target{}, a, idx, wd); });
  CHECK(vec(host_of(a)) == sum);
  auto b = on<Target>(std::vector<std::int32_t>(16, -100));
  at_path<Target>(true, [&] { ufx::maximum.at(Target{}, b, idx, wd); });
  CHECK(vec(host_of(b)) == mx);
#if !defined(__CUDACC__) // the CPU build runs these on ufx::sim; nvcc compiles fewer kernels
  auto c = on<Target>(std::vector<std::int32_t>(16, 100));
  at_path<Target>(true, [&] { ufx::fmin.at(Target{}, c, idx, wd); });
  CHECK(vec(host_of(c)) == mn);
  std::vector<std::int32_t> masked(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) masked[i] = w[i] & 0x7ff;
  auto d = on<Target>(std::vector<std::int32_t>(16, 0));
  at_path<Target>(true, [&] { ufx::bitwise_or.at(Target{}, d, idx, on<Target>(masked)); });
  CHECK(vec(host_of(d)) == orr);
  // no target given: where a lives; int8 b casts safely to int32 a; a weak C++ scalar takes a's type
  auto e = on<Target>(std::vector<std::int32_t>(4, 0));
  at_path<Target>(true, [&] {
    ufx::add.at(e, std::vector<int>{1, 1, 3}, on<Target>(std::vector<std::int8_t>{-2, 5, 9}));
  });
  at_path<Target>(true, [&] { ufx::subtract.at(e, std::vector<int>{0, 0}, 1); });
  CHECK(vec(host_of(e)) == std::vector<std::int32_t>{-2, 3, 0, 9});
#endif
  // float: a weak 1.0 stays float32 and runs by atomics; updates exact in float, so any order gives these numbers
  auto f = on<Target>(std::vector<float>(3, 0.5f));
  at_path<Target>(true, [&] { ufx::add.at(Target{}, f, std::vector<int>{2, 0, 2, 2, -1}, 1.0); });
  CHECK(vec(host_of(f)) == std::vector<float>{1.5f, 0.5f, 4.5f});
#if !defined(__CUDACC__) // the CPU build runs these on ufx::sim
  // 2-D: np.add.at(m, [0, 0, 2], [[1, 2], [3, 4], [5, 6]]) and a row broadcast to every index
  ufx::ndarray<double, 2> m0({3, 2}, 0.0), rows({3, 2});
  for (int i = 0; i < 6; ++i) rows.data()[i] = i + 1;
  auto m = [&] {
    if constexpr (Target::is_device) return ufx::to_device(m0, Target{});
    else return m0;
  }();
  at_path<Target>(true, [&] { ufx::add.at(Target{}, m, std::vector<int>{0, 0, 2}, rows); });
  at_path<Target>(true, [&] { ufx::add.at(Target{}, m, std::vector<int>{1}, std::vector<double>{10, 20}); });
  CHECK(vec(host_of(m)) == std::vector<double>{4, 6, 10, 20, 5, 6});
#endif
  // float16 by atomics (CUDA's atomicAdd on __half), exact updates
  auto h = on<Target>(std::vector<ufx::float16>(2, ufx::float16(1.f)));
  at_path<Target>(true, [&] { ufx::add.at(Target{}, h, std::vector<int>{1, 1, 1, 0}, ufx::float16(0.5f)); });
  const auto hh = vec(host_of(h));
  CHECK(float(hh[0]) == 1.5f);
  CHECK(float(hh[1]) == 2.5f);
  // the ordered gufunc: no atomic for the function or the type, or one that would not give NumPy's numbers
  auto u8 = on<Target>(std::vector<std::uint8_t>{250, 0});
  at_path<Target>(false, [&] { ufx::add.at(Target{}, u8, std::vector<int>{0, 0, 0}, 3); }); // wraps as NumPy's
  CHECK(vec(host_of(u8)) == std::vector<std::uint8_t>{3, 0});
#if !defined(__CUDACC__) // the CPU build runs these on ufx::sim
  auto fm = on<Target>(std::vector<float>{0.f, 0.f});
  at_path<Target>(false, [&] {
    ufx::maximum.at(Target{}, fm, std::vector<int>{0, 0, 1}, std::vector<float>{NAN, 1.f, -1.f}); // NaN propagates
  });
  const auto fmh = vec(host_of(fm));
  CHECK(std::isnan(fmh[0]));
  CHECK(fmh[1] == 0.f);
  auto p = on<Target>(std::vector<std::int64_t>{2, 3});
  at_path<Target>(false, [&] { ufx::multiply.at(Target{}, p, std::vector<int>{1, 1}, 2); });
  CHECK(vec(host_of(p)) == std::vector<std::int64_t>{2, 12});
  auto fd = on<Target>(std::vector<float>{1.f});
  at_path<Target>(false,
                  [&] { ufx::add.at(Target{}, fd, std::vector<int>{0}, std::vector<double>{0.25}); }); // in double
  CHECK(vec(host_of(fd)) == std::vector<float>{1.25f});
#endif
  // the atomics switched off: the ordered gufunc, the same integers
  auto& sw = ufx::detail::testing().at_atomics;
  sw.enabled = false;
  auto g = on<Target>(std::vector<std::int32_t>(16, 5));
  at_path<Target>(false, [&] { ufx::add.at(Target{}, g, idx, wd); });
  sw.enabled = true;
  CHECK(vec(host_of(g)) == sum);
  // indices checked before anything runs
  CHECK(error_message([&] {
          ufx::add.at(Target{}, g, std::vector<int>{0, 16}, 1);
        }) == "ufx: f.at: index 16 is out of bounds for axis 0 with size 16");
  CHECK(vec(host_of(g)) == sum);
  CHECK(error_message([&] {
          ufx::add.at(Target{}, g, std::vector<int>{0}, 1LL << 40);
        }).find("out of bounds for int32") != std::string::npos);
}

TEST_CASE_TEMPLATE("ready ufuncs of complex numbers: C99's functions, NumPy's power and formulas", Target,
                   UFX_UFUNC_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  using C = std::complex<double>;
  const std::vector<C> z{{1, 2}, {-0.5, 0.25}, {0, -3}, {2.5, 0}};
  const auto zd = on<Target>(z);
  // the CPU targets call glibc as NumPy does (bitwise); ufx::cuda libcu++ (a bound: 1e-13 relative per part)
  const auto near = [](const C& got, const C& want) {
    if constexpr (Target::runs_device_code) {
      const auto close = [](double g, double w) { return std::abs(g - w) <= 1e-13 * std::max(1.0, std::abs(w)); };
      return close(got.real(), want.real()) && close(got.imag(), want.imag());
    } else {
      return got == want;
    }
  };
  const auto check = [&](const auto& got, auto want, const char* what) {
    const auto g = vec(host_of(got));
    for (std::size_t i = 0; i < z.size(); ++i) {
      INFO(what << " of " << z[i].real() << "+" << z[i].imag() << "j");
      CHECK(near(g[i], want(z[i])));
    }
  };
  check(
      ufx::sin(Target{}, zd), [](const C& v) { return std::sin(v); }, "sin");
#if !defined(__CUDACC__) // the CPU build runs these on ufx::sim; nvcc compiles fewer kernels
  check(
      ufx::arccosh(Target{}, zd), [](const C& v) { return std::acosh(v); }, "arccosh");
  check(
      ufx::tanh(Target{}, zd), [](const C& v) { return std::tanh(v); }, "tanh");
#endif
  check(
      ufx::power(Target{}, zd, C(0.5, 1)), [](const C& v) { return std::pow(v, C(0.5, 1)); }, "power");
  // an integer exponent below 100: NumPy's repeated products (z^2 = z * z as np.multiply), 1 / z^n for negative n
  const auto sq = vec(host_of(ufx::power(Target{}, zd, C(2, 0))));
  CHECK(sq[0] == C(-3, 4));
  const auto inv = vec(host_of(ufx::power(Target{}, zd, C(-1, 0))));
  CHECK(inv[3] == C(0.4, 0));
  CHECK(vec(host_of(ufx::power(Target{}, zd, C(0, 0))))[1] == C(1, 0));
  // NumPy's formulas: log10(z) = log(z) log10(e); expm1(0 + yi) = (-2 sin^2(y/2), sin y)
#if !defined(__CUDACC__) // the CPU build runs these on ufx::sim
  const auto l = vec(host_of(ufx::log10(Target{}, on<Target>(std::vector<C>{{100, 0}}))));
  CHECK(std::abs(l[0].real() - 2) < 1e-15);
#endif
  const auto e = vec(host_of(ufx::expm1(Target{}, on<Target>(std::vector<C>{{0, 1}}))));
  CHECK(std::abs(e[0].real() - (-2 * std::sin(0.5) * std::sin(0.5))) < 1e-15);
  CHECK(std::abs(e[0].imag() - std::sin(1.0)) < 1e-15);
  // complex64 in complex64, a fused expression of complex ufuncs
  const std::vector<std::complex<float>> zf{{1.f, 2.f}};
  const auto f = vec(host_of(ufx::cos(Target{}, on<Target>(zf))));
  static_assert(std::is_same_v<typename decltype(f)::value_type, std::complex<float>>);
  CHECK(std::abs(f[0] - std::cos(zf[0])) <= 1e-6f * std::abs(std::cos(zf[0])));
#if !defined(__CUDACC__) // the CPU build runs these on ufx::sim
  const auto lz = ufx::lazy(zd);
  const auto ex = vec(host_of(ufx::eval(ufx::sinh(lz) * ufx::cosh(lz), Target{})));
  for (std::size_t i = 0; i < z.size(); ++i)
    CHECK(std::abs(ex[i] - std::sinh(z[i]) * std::cosh(z[i])) < 1e-12 * (1 + std::abs(ex[i])));
#endif
}

TEST_CASE_TEMPLATE("operators: fused on lazy operands, eager on ufx arrays", Target, UFX_UFUNC_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const std::vector<float> xv{0.f, 0.5f, -1.f, 2.f}, yv{1.f, -0.25f, 3.f, 0.f};
  const auto x = ufx::lazy(xv), y = ufx::lazy(yv);
  // the example: one pass, no temporary; the same as the scalar expression through the same functions
  const auto e = ufx::exp(-x * x) * ufx::sin(y) + 1.f;
  const std::vector<float> z = host_of(ufx::eval(e, Target{}));
  for (std::size_t i = 0; i < xv.size(); ++i) {
    const float want = ufx::ops::exp{}(-xv[i] * xv[i]) * ufx::ops::sin{}(yv[i]) + 1.f;
    CHECK(std::fabs(z[i] - want) <= 4 * std::numeric_limits<float>::epsilon() * std::fabs(want));
  }
  static_assert(std::is_same_v<typename decltype(e)::result_type, std::vector<float>>);
  // every operator's ufunc, with C++ scalars (weak) on either side; small expressions (nvcc's time grows fast with an
  // expression's depth: its type is the kernel's name)
  const std::vector<std::int32_t> iv{6, -7, 5, 12}, jv{4, 2, -3, 5};
  const auto i = ufx::lazy(iv), j = ufx::lazy(jv);
  // NumPy 2 (NEP 50), int32 arrays: (i + j) * 2 - i / j, (i % j) + (i & j) * (i | 1), (i ^ j) - (j << 1) + (i >> 1),
  // ~j + (+i) - (3 - j), (i < j) * 4 + (i <= j) * 2 + (i > 2), (i >= j) * 4 + (i == j) * 2 + (i != j)
  const std::vector<double> k1 = host_of(ufx::eval((i + j) * 2 - i / j, Target{}));
  const std::vector<std::int32_t> k2 = host_of(ufx::eval((i % j) + (i & j) * (i | 1), Target{}));
  const std::vector<std::int32_t> k3 = host_of(ufx::eval((i ^ j) - (j << 1) + (i >> 1), Target{}));
  const std::vector<std::int32_t> k4 = host_of(ufx::eval(~j + (+i) - (3 - j), Target{}));
  const std::vector<std::int64_t> k5 = host_of(ufx::eval((i < j) * 4 + (i <= j) * 2 + (i > 2), Target{}));
  const std::vector<std::int64_t> k6 = host_of(ufx::eval((i >= j) * 4 + (i == j) * 2 + (i != j), Target{}));
  CHECK(k1 == std::vector<double>{18.5, -6.5, 5.666666666666667, 31.6});
  CHECK(k2 == std::vector<std::int32_t>{30, 1, 24, 54});
  CHECK(k3 == std::vector<std::int32_t>{-3, -13, 0, 5});
  CHECK(k4 == std::vector<std::int32_t>{2, -11, 1, 8});
  CHECK(k5 == std::vector<std::int64_t>{1, 6, 1, 1});
  CHECK(k6 == std::vector<std::int64_t>{5, 1, 5, 5});
  if constexpr (!Target::is_device) {
    // eager: ufx::ndarray operands compute at once and return arrays
    ufx::ndarray<double, 2> a({2, 2}), b({2, 2});
    for (int r = 0; r < 4; ++r) a.data()[r] = r, b.data()[r] = 10.0 * r;
    const ufx::ndarray<double, 2> c = a * 2 + b;
    CHECK(std::vector<double>(c.begin(), c.end()) == std::vector<double>{0, 12, 24, 36});
    const ufx::ndarray<bool, 2> lt = a < b;
    CHECK(std::vector<bool>(lt.begin(), lt.end()) == std::vector<bool>{false, true, true, true});
    CHECK(a == a); // an ndarray's == is C++'s (equal arrays), not elementwise
  } else {
    const auto a = ufx::to_device(std::vector<double>{1, 2, 3}, Target{});
    const auto c = host_of(-a * 2.0 + a);
    CHECK(std::vector<double>(c.begin(), c.end()) == std::vector<double>{-1, -2, -3});
  }
}

TEST_CASE("ready ufuncs: NumPy 2's values where NumPy 1.24 (the table's) differs, and where ufx defines NumPy's "
          "undefined") {
  // comparisons of int64 with uint64 are exact (NumPy 2; 1.24 compared in float64)
  const std::vector<std::int64_t> a{-1, std::numeric_limits<std::int64_t>::max()};
  const std::vector<std::uint64_t> b{std::numeric_limits<std::uint64_t>::max(),
                                     static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + 1};
  CHECK(ufx::ops::less{}(a[0], b[0]));
  CHECK(ufx::ops::less{}(a[1], b[1]));
  CHECK(!ufx::ops::equal{}(a[0], b[0]));
  // np.sign of complex is z / |z| (NumPy 2)
  const auto s = ufx::ops::sign{}(std::complex<double>(3, -4));
  CHECK(s == std::complex<double>(0.6, -0.8));
  CHECK(ufx::ops::sign{}(std::complex<double>(0, 0)) == std::complex<double>(0, 0));
  // reciprocal of integer 0 is 0 (NumPy's is undefined behaviour in C); floor division and remainder by 0 are 0
  CHECK(ufx::ops::reciprocal{}(0) == 0);
  CHECK(ufx::ops::floor_divide{}(7, 0) == 0);
  CHECK(ufx::ops::remainder{}(-7, 0) == 0);
  CHECK(ufx::ops::fmod{}(std::numeric_limits<std::int32_t>::min(), -1) == 0);
  // integer power inside an expression (not checked first): 1 / a^|b| truncated
  CHECK(ufx::ops::power{}(2, -1) == 0);
  CHECK(ufx::ops::power{}(-1, -3) == -1);
  CHECK(ufx::ops::power{}(1, -5) == 1);
  // sin and cos past ufx::math's domain: the C library's, not NaN
  CHECK(ufx::ops::sin{}(1e10) == std::sin(1e10));
  CHECK(ufx::ops::cos{}(-3e7f) == std::cos(-3e7f));
  // ufx::where and ufx::out with a ready ufunc
  const std::vector<float> x{1, 2, 3}, y{10, 20, 30};
  const std::vector<char> m{1, 0, 1};
  std::vector<float> z{-1, -1, -1};
  ufx::add(x, y, ufx::where(m), ufx::out(z));
  CHECK(z == std::vector<float>{11, -1, 33});
  // without arrays, C++ scalars are typed, as NumPy's scalars: np.int32(1) + np.float32(2.5) is float64
  static_assert(std::is_same_v<decltype(ufx::add(1, 2.5f)), double>);
  CHECK(ufx::add(1, 2.5f) == 3.5);
}
