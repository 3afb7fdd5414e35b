#pragma once
// The scalar functions of the ready ufuncs (ufx/ufuncs.hpp), NumPy's loops one element at a time: each takes its
// operands' own types, computes in NumPy's type for them (core/promote.hpp) and returns it. Integer arithmetic wraps as
// NumPy's does (computed in the unsigned type: no undefined behaviour); division by zero of integers gives 0, as
// NumPy's loops do. The float functions are ufx::math's where it has them (vectorised on the host), else the C
// library's on the host and CUDA's on the device; float16 and bfloat16 compute in float and round once, as NumPy's
// float16 loops do.
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ufx/config.hpp"
#include "ufx/detail/core/complex.hpp"
#include "ufx/detail/core/reduce_ops.hpp"
#include "ufx/detail/half/ops.hpp"
#include "ufx/detail/core/promote.hpp"
#include "ufx/half.hpp"
#include "ufx/math.hpp"

namespace ufx::detail::uf {

template <class T>
inline constexpr bool is_int = std::is_integral_v<T> && !std::is_same_v<T, bool>;
template <class T>
inline constexpr bool is_real = std::is_floating_point_v<T> || half_type<T>;

/// Messages of the types a ufunc has no loop for (NumPy's "ufunc 'x' not supported for the input types").
template <class T>
inline constexpr bool no_complex = !is_std_complex<T>;
template <class T>
inline constexpr bool integer_or_bool = std::is_integral_v<T>;

/// a op b of integers in R, wrapping as NumPy's loops (and two's complement) do.
template <class R>
using wide_unsigned = std::make_unsigned_t<std::conditional_t<(sizeof(R) < sizeof(int)), int, R>>;
template <class R>
UFX_HD constexpr R wrap_add(R a, R b) {
  return static_cast<R>(static_cast<wide_unsigned<R>>(a) + static_cast<wide_unsigned<R>>(b));
}
template <class R>
UFX_HD constexpr R wrap_sub(R a, R b) {
  return static_cast<R>(static_cast<wide_unsigned<R>>(a) - static_cast<wide_unsigned<R>>(b));
}
template <class R>
UFX_HD constexpr R wrap_mul(R a, R b) {
  return static_cast<R>(static_cast<wide_unsigned<R>>(a) * static_cast<wide_unsigned<R>>(b));
}

/// A float function of one float16 or bfloat16 as float's, rounded once.
template <class R, class T, class Ff, class Fd>
UFX_HD UFX_ALWAYS_INLINE R real_call(const T& x, Ff ff, Fd fd) {
  if constexpr (std::is_same_v<R, double>) return fd(convert_to<double>(x));
  else if constexpr (std::is_same_v<R, float>) return ff(convert_to<float>(x));
  else return R(ff(convert_to<float>(x)));
}
template <class R, class A, class B, class Ff, class Fd>
UFX_HD UFX_ALWAYS_INLINE R real_call2(const A& a, const B& b, Ff ff, Fd fd) {
  if constexpr (std::is_same_v<R, double>) return fd(convert_to<double>(a), convert_to<double>(b));
  else if constexpr (std::is_same_v<R, float>) return ff(convert_to<float>(a), convert_to<float>(b));
  else return R(ff(convert_to<float>(a), convert_to<float>(b)));
}

/// \cond INTERNAL
// the C library's functions by type, named in the global namespace: glibc's on the host, CUDA's on the device
// (std::'s float overloads are host functions)
#define UFX_UF_CFN1(n)                                                                                                 \
  UFX_HD UFX_ALWAYS_INLINE float c_##n(float x) { return ::n##f(x); }                                                  \
  UFX_HD UFX_ALWAYS_INLINE double c_##n(double x) { return ::n(x); }
#define UFX_UF_CFN2(n)                                                                                                 \
  UFX_HD UFX_ALWAYS_INLINE float c_##n(float x, float y) { return ::n##f(x, y); }                                      \
  UFX_HD UFX_ALWAYS_INLINE double c_##n(double x, double y) { return ::n(x, y); }
/// \endcond
UFX_UF_CFN1(floor)
UFX_UF_CFN1(fabs)
UFX_UF_CFN1(log1p)
UFX_UF_CFN1(exp)
UFX_UF_CFN1(exp2)
UFX_UF_CFN2(fmod)
UFX_UF_CFN2(copysign)
#undef UFX_UF_CFN1
#undef UFX_UF_CFN2

using ::ufx::detail::truth;

/// ufx::math::sin (Cos: cos) where it is accurate, |x| <= 1.6e6 on the host; the C library's past that (a branch no
/// vector loop takes).
template <bool Cos, class T>
UFX_HD UFX_ALWAYS_INLINE T wide_trig(T x) {
  const T r = Cos ? ::ufx::math::cos(x) : ::ufx::math::sin(x);
#if !defined(__CUDA_ARCH__)
  if (r != r && x - x == 0) [[unlikely]] { // NaN from a finite x: past the kernel's domain
    if constexpr (std::is_same_v<T, float>) return Cos ? ::cosf(x) : ::sinf(x);
    else return Cos ? ::cos(x) : ::sin(x);
  }
#endif
  return r;
}

template <class R>
UFX_HD constexpr bool signbit_(const R& x) {
  if constexpr (half_type<R>) return ::ufx::math::signbit(x);
  else if constexpr (std::is_floating_point_v<R>) return c_copysign(R(1), x) < 0;
  else if constexpr (std::is_signed_v<R>) return x < 0;
  else return false;
}

/// NumPy's complex order for <, <=, >, >= (its CLT, CLE, ...): real parts, then imaginary; a NaN part makes the
/// real-part comparison false.
template <class R>
UFX_HD constexpr bool clt(const R& x, const R& y, bool or_equal) {
  const auto xr = x.real(), xi = x.imag(), yr = y.real(), yi = y.imag();
  return (xr < yr && xi == xi && yi == yi) || (xr == yr && (or_equal ? xi <= yi : xi < yi));
}
template <class R>
UFX_HD constexpr bool lt(const R& x, const R& y) {
  if constexpr (is_std_complex<R>) return clt(x, y, false);
  else return x < y;
}
template <class R>
UFX_HD constexpr bool le(const R& x, const R& y) {
  if constexpr (is_std_complex<R>) return clt(x, y, true);
  else return x <= y;
}

template <class R>
UFX_HD constexpr bool eq(const R& x, const R& y) {
  if constexpr (is_std_complex<R>) return x.real() == y.real() && x.imag() == y.imag();
  else return x == y;
}

} // namespace ufx::detail::uf

/// The functions of the ready ufuncs (`ufx::add` is a ufx::vectorize of ufx::ops::add, with identity 0): each takes its
/// operands' own types and computes in NumPy's type for them. They are also reduction operators:
/// `ufx::reduce(x, ufx::ops::maximum{}, -INFINITY)` (and `ufx::reduce(x, ufx::maximum, -INFINITY)`).
namespace ufx::ops {

/// \cond INTERNAL
#define UFX_UF_P(A, B) ::ufx::detail::promote_t<A, B>
#define UFX_UF_C(R, x) ::ufx::detail::convert_to<R>(x)
/// \endcond

/// np.add: a + b in the common type; bool or (True + True is True); integers wrap.
struct add {
  static constexpr bool half_in_float = true; // float16 operands: computed in float, rounded once
  using reduce_op = plus;                     // np.add.reduce is np.sum (integers widen, float16 accumulates in float)
  template <class A, class B>
  UFX_HD constexpr UFX_UF_P(A, B) operator()(const A& a, const B& b) const {
    using R = UFX_UF_P(A, B);
    if constexpr (std::is_same_v<R, bool>) return a || b;
    else if constexpr (detail::uf::is_int<R>) return detail::uf::wrap_add<R>(a, b);
    else if constexpr (detail::is_std_complex<R>) return detail::cx::add(UFX_UF_C(R, a), UFX_UF_C(R, b));
    else return UFX_UF_C(R, a) + UFX_UF_C(R, b);
  }
};

/// np.subtract: a - b; integers wrap; bool has none (NumPy raises: use logical_xor).
struct subtract {
  static constexpr bool half_in_float = true; // float16 operands: computed in float, rounded once
  static constexpr bool ordered = true;       // not associative: no reduce or accumulate
  template <class A, class B>
  UFX_HD constexpr UFX_UF_P(A, B) operator()(const A& a, const B& b) const {
    using R = UFX_UF_P(A, B);
    static_assert(!std::is_same_v<R, bool>, "ufx::subtract: NumPy has no boolean subtract (the - operator on bool); "
                                            "use ufx::logical_xor or ufx::bitwise_xor");
    if constexpr (detail::uf::is_int<R>) return detail::uf::wrap_sub<R>(a, b);
    else if constexpr (detail::is_std_complex<R>) return detail::cx::sub(UFX_UF_C(R, a), UFX_UF_C(R, b));
    else return UFX_UF_C(R, a) - UFX_UF_C(R, b);
  }
};

/// np.multiply: a * b; bool and; integers wrap; complex as np.multiply (ufx::math::mul).
struct multiply {
  static constexpr bool half_in_float = true; // float16 operands: computed in float, rounded once
  using reduce_op = multiplies;               // np.multiply.reduce is np.prod
  template <class A, class B>
  UFX_HD constexpr UFX_UF_P(A, B) operator()(const A& a, const B& b) const {
    using R = UFX_UF_P(A, B);
    if constexpr (std::is_same_v<R, bool>) return a && b;
    else if constexpr (detail::uf::is_int<R>) return detail::uf::wrap_mul<R>(a, b);
    else if constexpr (detail::is_std_complex<R>) return detail::cx::mul(UFX_UF_C(R, a), UFX_UF_C(R, b));
    else return UFX_UF_C(R, a) * UFX_UF_C(R, b);
  }
};

/// The type np.divide gives: float64 for integers and bool, else the common type.
template <class A, class B>
using divide_t = std::conditional_t<std::is_integral_v<UFX_UF_P(A, B)>, double, UFX_UF_P(A, B)>;

/// np.divide (np.true_divide): a / b, integers and bool in float64; a / 0 is inf or NaN (IEEE).
struct divide {
  static constexpr bool half_in_float = true; // float16 operands: computed in float, rounded once
  static constexpr bool ordered = true;       // not associative: no reduce or accumulate
  template <class A, class B>
  UFX_HD constexpr divide_t<A, B> operator()(const A& a, const B& b) const {
    using R = divide_t<A, B>;
    if constexpr (detail::is_std_complex<R>) return detail::cx::div(UFX_UF_C(R, a), UFX_UF_C(R, b));
    else return UFX_UF_C(R, a) / UFX_UF_C(R, b);
  }
};

/// The type np.floor_divide, np.remainder, np.fmod, np.divmod and np.power give: the common type, int8 for bool.
template <class A, class B>
using int_arith_t = std::conditional_t<std::is_same_v<UFX_UF_P(A, B), bool>, std::int8_t, UFX_UF_P(A, B)>;

namespace detail_div {
/// NumPy's npy_divmod of floats: the floor quotient and the remainder with the divisor's sign.
template <class T>
UFX_HD inline T divmod_real(T a, T b, T& mod) {
  mod = detail::uf::c_fmod(a, b);
  if (!b) return a / b; // NumPy: inf or NaN, and mod NaN
  T div = (a - mod) / b;
  if (mod) {
    if ((b < 0) != (mod < 0)) {
      mod += b;
      div -= T(1);
    }
  } else {
    mod = detail::uf::c_copysign(T(0), b);
  }
  T floordiv;
  if (div) {
    floordiv = detail::uf::c_floor(div);
    if (div - floordiv > T(0.5)) floordiv += T(1);
  } else {
    floordiv = detail::uf::c_copysign(T(0), a / b);
  }
  return floordiv;
}
/// Floor division of integers as NumPy: x // 0 is 0, MIN // -1 wraps to MIN.
template <class R>
UFX_HD constexpr R floor_div_int(R a, R b) {
  if (b == 0) return 0;
  if constexpr (std::is_signed_v<R>) {
    if (b == -1) return detail::uf::wrap_sub<R>(0, a);
    R q = static_cast<R>(a / b);
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
  } else {
    return static_cast<R>(a / b);
  }
}
/// The remainder with the divisor's sign (Python's %): x % 0 is 0.
template <class R>
UFX_HD constexpr R mod_int(R a, R b) {
  if (b == 0) return 0;
  if constexpr (std::is_signed_v<R>) {
    if (b == -1) return 0;
    R r = static_cast<R>(a % b);
    if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<R>(r + b);
    return r;
  } else {
    return static_cast<R>(a % b);
  }
}
} // namespace detail_div

/// np.floor_divide (a // b): the floor of a / b; integers: x // 0 is 0 (NumPy's result, with its warning), MIN // -1
/// wraps to MIN; floats NumPy's npy_floor_divide (x // 0 is inf or NaN).
struct floor_divide {
  static constexpr bool ordered = true; // not associative: no reduce or accumulate
  template <class A, class B>
  UFX_HD constexpr int_arith_t<A, B> operator()(const A& a, const B& b) const {
    using R = int_arith_t<A, B>;
    static_assert(!detail::is_std_complex<R>, "ufx::floor_divide: NumPy has no floor division of complex numbers");
    if constexpr (std::is_integral_v<R>) return detail_div::floor_div_int<R>(UFX_UF_C(R, a), UFX_UF_C(R, b));
    else {
      using W = std::conditional_t<detail::half_type<R>, float, R>;
      W m{};
      return UFX_UF_C(R, detail_div::divmod_real<W>(UFX_UF_C(W, a), UFX_UF_C(W, b), m));
    }
  }
};

/// np.remainder (np.mod, a % b): the remainder with the divisor's sign; integers: x % 0 is 0; floats: x % 0 is NaN.
struct remainder {
  static constexpr bool ordered = true; // not associative: no reduce or accumulate
  template <class A, class B>
  UFX_HD constexpr int_arith_t<A, B> operator()(const A& a, const B& b) const {
    using R = int_arith_t<A, B>;
    static_assert(!detail::is_std_complex<R>, "ufx::remainder: NumPy has no remainder of complex numbers");
    if constexpr (std::is_integral_v<R>) return detail_div::mod_int<R>(UFX_UF_C(R, a), UFX_UF_C(R, b));
    else {
      using W = std::conditional_t<detail::half_type<R>, float, R>;
      const W x = UFX_UF_C(W, a), y = UFX_UF_C(W, b);
      W m{};
      if (!y) m = detail::uf::c_fmod(x, y);
      else detail_div::divmod_real<W>(x, y, m);
      return UFX_UF_C(R, m);
    }
  }
};

/// np.fmod: C's remainder, with the dividend's sign; integers: x fmod 0 is 0.
struct fmod {
  static constexpr bool ordered = true; // not associative: no reduce or accumulate
  template <class A, class B>
  UFX_HD constexpr int_arith_t<A, B> operator()(const A& a, const B& b) const {
    using R = int_arith_t<A, B>;
    static_assert(!detail::is_std_complex<R>, "ufx::fmod: NumPy has no fmod of complex numbers");
    if constexpr (std::is_integral_v<R>) {
      const R x = UFX_UF_C(R, a), y = UFX_UF_C(R, b);
      if (y == 0) return 0;
      if constexpr (std::is_signed_v<R>)
        if (y == -1) return 0;
      return static_cast<R>(x % y);
    } else {
      using W = std::conditional_t<detail::half_type<R>, float, R>;
      return UFX_UF_C(R, detail::uf::c_fmod(UFX_UF_C(W, a), UFX_UF_C(W, b)));
    }
  }
};

/// np.divmod: (a // b, a % b), two outputs.
struct divmod {
  static constexpr bool ordered = true; // not associative: no reduce or accumulate
  template <class A, class B>
  UFX_HD constexpr auto operator()(const A& a, const B& b) const {
    return std::tuple<int_arith_t<A, B>, int_arith_t<A, B>>(floor_divide{}(a, b), remainder{}(a, b));
  }
};

/// np.power: a ** b. Integers by repeated squaring, wrapping; a negative integer exponent is an error that the eager
/// call reports before running (NumPy's ValueError), and inside an expression gives 1 / a^|b| truncated (1 for a = 1,
/// +-1 for a = -1, else 0); bool ** bool in int8; floats ufx::math::pow; complex NumPy's npy_cpow (math/complex.hpp).
struct power {
  static constexpr bool half_in_float = true; // float16 operands: computed in float, rounded once
  static constexpr bool ordered = true;       // not associative: no reduce or accumulate
  template <class A, class B>
  UFX_HD constexpr int_arith_t<A, B> operator()(const A& a, const B& b) const {
    using R = int_arith_t<A, B>;
    if constexpr (detail::is_std_complex<R>) {
      return detail::cx::cpow_numpy(UFX_UF_C(R, a), UFX_UF_C(R, b));
    } else if constexpr (std::is_integral_v<R>) {
      R base = UFX_UF_C(R, a), e = UFX_UF_C(R, b);
      if constexpr (std::is_signed_v<R>)
        if (e < 0) return base == 1 ? R(1) : base == -1 ? ((e & 1) ? R(-1) : R(1)) : R(0);
      R r = 1;
      while (e) {
        if (e & 1) r = detail::uf::wrap_mul<R>(r, base);
        e = static_cast<R>(e >> 1);
        if (e) base = detail::uf::wrap_mul<R>(base, base);
      }
      return r;
    } else {
      return detail::uf::real_call2<R>(
          a, b, [](float x, float y) { return ::ufx::math::pow(x, y); },
          [](double x, double y) { return ::ufx::math::pow(x, y); });
    }
  }
};

/// np.negative (unary -): integers wrap (-MIN is MIN); NumPy has no negative of bool.
struct negative {
  template <class T>
  UFX_HD constexpr T operator()(const T& x) const {
    static_assert(!std::is_same_v<T, bool>, "ufx::negative: NumPy has no negative of bool (the - operator on bool); "
                                            "use ufx::logical_not or ufx::invert");
    if constexpr (detail::uf::is_int<T>) return detail::uf::wrap_sub<T>(0, x);
    else if constexpr (detail::is_std_complex<T>) return T(-x.real(), -x.imag());
    else return -x;
  }
};

/// np.positive (unary +): x; NumPy has none for bool.
struct positive {
  template <class T>
  UFX_HD constexpr T operator()(const T& x) const {
    static_assert(!std::is_same_v<T, bool>, "ufx::positive: NumPy has no positive of bool");
    return x;
  }
};

/// The type np.absolute gives: the real type for complex, else the element's.
template <class T>
struct absolute_type {
  using type = T;
};
template <class T>
struct absolute_type<std::complex<T>> {
  using type = T;
};
template <class T>
using absolute_t = typename absolute_type<T>::type;

/// np.absolute (np.abs): |x|; |MIN| wraps to MIN as in NumPy; -0 gives +0; complex: hypot (ufx::math::abs).
struct absolute {
  template <class T>
  UFX_HD constexpr absolute_t<T> operator()(const T& x) const {
    if constexpr (std::is_same_v<T, bool> || std::is_unsigned_v<T>) return x;
    else if constexpr (detail::uf::is_int<T>) return x < 0 ? detail::uf::wrap_sub<T>(0, x) : x;
    else if constexpr (detail::is_std_complex<T>) return ::ufx::math::abs(x);
    else if constexpr (detail::half_type<T>) return T::from_bits(static_cast<std::uint16_t>(x.bits() & 0x7fffu));
    else return detail::uf::c_fabs(x);
  }
};

/// np.sign: -1, 0 or 1 of the element's type; NaN gives NaN; complex z / |z| (NumPy 2), 0 for 0; none for bool.
struct sign {
  template <class T>
  UFX_HD constexpr T operator()(const T& x) const {
    static_assert(!std::is_same_v<T, bool>, "ufx::sign: NumPy has no sign of bool");
    if constexpr (detail::is_std_complex<T>) {
      using V = typename T::value_type;
      const V m = ::ufx::math::abs(x);
      if (m == 0) return T(0, 0);
      if (m != m) return T(std::numeric_limits<V>::quiet_NaN(), std::numeric_limits<V>::quiet_NaN());
      return T(x.real() / m, x.imag() / m);
    } else if constexpr (detail::uf::is_real<T>) {
      const float v = static_cast<float>(x);
      if constexpr (detail::half_type<T>) return v > 0 ? T(1.f) : v < 0 ? T(-1.f) : v == 0 ? T(0.f) : x;
      else return x > 0 ? T(1) : x < 0 ? T(-1) : x == 0 ? T(0) : x;
    } else {
      return static_cast<T>((x > 0) - (x < 0));
    }
  }
};

// np.maximum and np.minimum: ops::maximum and ops::minimum, in reduce_ops.hpp (also the reduction operators)
namespace detail_ext {
/// C's fmax (Max) / fmin: a number wins over a NaN; of two equal values (+0 and -0) the second, as x86's maxps and
/// NumPy's SIMD loops give (NumPy's scalar loops give the first: which zero is unspecified); complex by NumPy's order.
template <bool Max, class R>
UFX_HD constexpr R fext(const R& x, const R& y) {
  if (detail::cx::is_nan(y)) return x;
  if (detail::cx::is_nan(x)) return y;
  return (Max ? detail::cx::less(y, x) : detail::cx::less(x, y)) ? x : y;
}
} // namespace detail_ext
/// np.fmax: the larger, a number wins over a NaN (of +0 and -0, the second).
struct fmax {
  template <class A, class B>
  UFX_HD constexpr UFX_UF_P(A, B) operator()(const A& a, const B& b) const {
    using R = UFX_UF_P(A, B);
    return detail_ext::fext<true, R>(UFX_UF_C(R, a), UFX_UF_C(R, b));
  }
};
/// np.fmin: the smaller, a number wins over a NaN (of +0 and -0, the second).
struct fmin {
  template <class A, class B>
  UFX_HD constexpr UFX_UF_P(A, B) operator()(const A& a, const B& b) const {
    using R = UFX_UF_P(A, B);
    return detail_ext::fext<false, R>(UFX_UF_C(R, a), UFX_UF_C(R, b));
  }
};

/// \cond INTERNAL
// a comparison: integers of any signedness compare by value (NumPy 2), others in the common type; complex
// lexicographically (NumPy's order)
#define UFX_UF_COMPARE(NAME, INT, REAL)                                                                                \
  struct NAME {                                                                                                        \
    static constexpr bool ordered = true;                                                                              \
    template <class A, class B>                                                                                        \
    UFX_HD constexpr bool operator()(const A& a, const B& b) const {                                                   \
      if constexpr (std::is_integral_v<A> && std::is_integral_v<B> && !std::is_same_v<A, bool> &&                      \
                    !std::is_same_v<B, bool>)                                                                          \
        return INT(a, b);                                                                                              \
      else {                                                                                                           \
        using R = UFX_UF_P(A, B);                                                                                      \
        const R x = UFX_UF_C(R, a), y = UFX_UF_C(R, b);                                                                \
        return REAL;                                                                                                   \
      }                                                                                                                \
    }                                                                                                                  \
  };
/// \endcond
/// np.equal (==).
UFX_UF_COMPARE(equal, std::cmp_equal, detail::uf::eq(x, y))
/// np.not_equal (!=).
UFX_UF_COMPARE(not_equal, std::cmp_not_equal, !detail::uf::eq(x, y))
/// np.less (<).
UFX_UF_COMPARE(less, std::cmp_less, detail::uf::lt(x, y))
/// np.less_equal (<=).
UFX_UF_COMPARE(less_equal, std::cmp_less_equal, detail::uf::le(x, y))
/// np.greater (>).
UFX_UF_COMPARE(greater, std::cmp_greater, detail::uf::lt(y, x))
/// np.greater_equal (>=).
UFX_UF_COMPARE(greater_equal, std::cmp_greater_equal, detail::uf::le(y, x))
#undef UFX_UF_COMPARE

// np.logical_and and np.logical_or: ops::logical_and and ops::logical_or, in reduce_ops.hpp
/// np.logical_xor.
struct logical_xor {
  template <class A, class B>
  UFX_HD constexpr bool operator()(const A& a, const B& b) const {
    return detail::uf::truth(a) != detail::uf::truth(b);
  }
};
/// np.logical_not.
struct logical_not {
  template <class T>
  UFX_HD constexpr bool operator()(const T& x) const {
    return !detail::uf::truth(x);
  }
};

/// The type of NumPy's bitwise operations: the common type of integers and bool (uint64 with a signed type has none).
template <class A, class B>
using bitwise_t = UFX_UF_P(A, B);
/// \cond INTERNAL
#define UFX_UF_BITWISE(NAME, OP)                                                                                       \
  struct NAME {                                                                                                        \
    template <class A, class B>                                                                                        \
    UFX_HD constexpr bitwise_t<A, B> operator()(const A& a, const B& b) const {                                        \
      using R = bitwise_t<A, B>;                                                                                       \
      static_assert(std::is_integral_v<R>, "ufx::" #NAME ": NumPy's bitwise operations take integers and bool only "   \
                                           "(uint64 with a signed integer has no common integer type)");               \
      if constexpr (std::is_integral_v<R>) return static_cast<R>(UFX_UF_C(R, a) OP UFX_UF_C(R, b));                    \
      else return R{};                                                                                                 \
    }                                                                                                                  \
  };
/// \endcond
/// np.bitwise_and (&).
UFX_UF_BITWISE(bitwise_and, &)
/// np.bitwise_or (|).
UFX_UF_BITWISE(bitwise_or, |)
/// np.bitwise_xor (^).
UFX_UF_BITWISE(bitwise_xor, ^)
#undef UFX_UF_BITWISE

/// np.invert (np.bitwise_not, ~): bool not, integers' complement.
struct invert {
  template <class T>
  UFX_HD constexpr T operator()(const T& x) const {
    static_assert(std::is_integral_v<T>, "ufx::invert: NumPy's invert takes integers and bool only");
    if constexpr (std::is_same_v<T, bool>) return !x;
    else return static_cast<T>(~x);
  }
};

/// np.left_shift (<<): a shift by the type's width or more, or by a negative amount, gives 0 (NumPy's npy_lshift);
/// bool in int8.
struct left_shift {
  static constexpr bool ordered = true; // not associative: no reduce or accumulate
  template <class A, class B>
  UFX_HD constexpr int_arith_t<A, B> operator()(const A& a, const B& b) const {
    using R = int_arith_t<A, B>;
    static_assert(std::is_integral_v<R>, "ufx::left_shift: NumPy's shifts take integers and bool only");
    using U = std::make_unsigned_t<R>;
    const R x = UFX_UF_C(R, a), y = UFX_UF_C(R, b);
    if (static_cast<std::uint64_t>(static_cast<std::make_unsigned_t<R>>(y)) < sizeof(R) * 8 &&
        !(std::is_signed_v<R> && y < 0))
      return static_cast<R>(static_cast<U>(static_cast<U>(x) << y));
    return 0;
  }
};
/// np.right_shift (>>): arithmetic for signed integers; by the width or more (or a negative amount), 0, or -1 for a
/// negative a (NumPy's npy_rshift).
struct right_shift {
  static constexpr bool ordered = true; // not associative: no reduce or accumulate
  template <class A, class B>
  UFX_HD constexpr int_arith_t<A, B> operator()(const A& a, const B& b) const {
    using R = int_arith_t<A, B>;
    static_assert(std::is_integral_v<R>, "ufx::right_shift: NumPy's shifts take integers and bool only");
    const R x = UFX_UF_C(R, a), y = UFX_UF_C(R, b);
    if (static_cast<std::uint64_t>(static_cast<std::make_unsigned_t<R>>(y)) < sizeof(R) * 8 &&
        !(std::is_signed_v<R> && y < 0))
      return static_cast<R>(x >> y);
    if constexpr (std::is_signed_v<R>) return x < 0 ? R(-1) : R(0);
    else return 0;
  }
};

/// \cond INTERNAL
// A float function of one operand: ufx::math's (FM) for float and double when it has one, else the C library's /
// CUDA's (name and name##f); float16 and bfloat16 in float; CPLX: what complex does (a call, or a static_assert).
#define UFX_UF_FLOAT1(NAME, FF, FD, CPLX)                                                                              \
  struct NAME {                                                                                                        \
    static constexpr bool half_in_float = true;                                                                        \
    template <class T>                                                                                                 \
    UFX_HD ::ufx::detail::float_of_t<T> operator()(const T& x) const {                                                 \
      using R = ::ufx::detail::float_of_t<T>;                                                                          \
      if constexpr (::ufx::detail::is_std_complex<R>) {                                                                \
        CPLX;                                                                                                          \
      } else                                                                                                           \
        return ::ufx::detail::uf::real_call<R>(                                                                        \
            x, [](float v) { return FF(v); }, [](double v) { return FD(v); });                                         \
    }                                                                                                                  \
  };
#define UFX_UF_NO_COMPLEX(NAME)                                                                                        \
  static_assert(!::ufx::detail::is_std_complex<R>, "ufx::" #NAME ": NumPy has no " #NAME " of complex numbers");       \
  return R {}
/// \endcond

/// np.exp: ufx::math::exp (within 2 ulp, vectorised); complex C's cexp.
UFX_UF_FLOAT1(exp, ::ufx::math::exp, ::ufx::math::exp, return ::ufx::math::exp(UFX_UF_C(R, x)))
/// np.log: ufx::math::log; complex the principal logarithm.
UFX_UF_FLOAT1(log, ::ufx::math::log, ::ufx::math::log, return ::ufx::math::log(UFX_UF_C(R, x)))
/// np.sqrt: correctly rounded; complex the principal root.
UFX_UF_FLOAT1(sqrt, ::ufx::math::sqrt, ::ufx::math::sqrt, return ::ufx::math::sqrt(UFX_UF_C(R, x)))
/// np.sin: ufx::math::sin, and the C library's past its domain (|x| > 1.6e6, where it gives NaN).
UFX_UF_FLOAT1(sin, detail::uf::wide_trig<false>, detail::uf::wide_trig<false>,
              return ::ufx::detail::cx::csin(UFX_UF_C(R, x)))
/// np.cos: ufx::math::cos, and the C library's past its domain.
UFX_UF_FLOAT1(cos, detail::uf::wide_trig<true>, detail::uf::wide_trig<true>,
              return ::ufx::detail::cx::ccos(UFX_UF_C(R, x)))
/// np.tanh: ufx::math::tanh.
UFX_UF_FLOAT1(tanh, ::ufx::math::tanh, ::ufx::math::tanh, return ::ufx::detail::cx::ctanh(UFX_UF_C(R, x)))
/// np.exp2: 2^x.
UFX_UF_FLOAT1(exp2, ::exp2f, ::exp2, return ::ufx::detail::cx::cexp2(UFX_UF_C(R, x)))
/// np.expm1: e^x - 1, accurate near 0.
UFX_UF_FLOAT1(expm1, ::expm1f, ::expm1, return ::ufx::detail::cx::cexpm1(UFX_UF_C(R, x)))
/// np.log2.
UFX_UF_FLOAT1(log2, ::log2f, ::log2, return ::ufx::detail::cx::clog2(UFX_UF_C(R, x)))
/// np.log10.
UFX_UF_FLOAT1(log10, ::log10f, ::log10, return ::ufx::detail::cx::clog10(UFX_UF_C(R, x)))
/// np.log1p: log(1 + x), accurate near 0.
UFX_UF_FLOAT1(log1p, ::log1pf, ::log1p, return ::ufx::detail::cx::clog1p(UFX_UF_C(R, x)))
/// np.cbrt: the real cube root.
UFX_UF_FLOAT1(cbrt, ::cbrtf, ::cbrt, UFX_UF_NO_COMPLEX(cbrt))
/// np.tan.
UFX_UF_FLOAT1(tan, ::tanf, ::tan, return ::ufx::detail::cx::ctan(UFX_UF_C(R, x)))
/// np.arcsin.
UFX_UF_FLOAT1(arcsin, ::asinf, ::asin, return ::ufx::detail::cx::casin(UFX_UF_C(R, x)))
/// np.arccos.
UFX_UF_FLOAT1(arccos, ::acosf, ::acos, return ::ufx::detail::cx::cacos(UFX_UF_C(R, x)))
/// np.arctan.
UFX_UF_FLOAT1(arctan, ::atanf, ::atan, return ::ufx::detail::cx::catan(UFX_UF_C(R, x)))
/// np.sinh.
UFX_UF_FLOAT1(sinh, ::sinhf, ::sinh, return ::ufx::detail::cx::csinh(UFX_UF_C(R, x)))
/// np.cosh.
UFX_UF_FLOAT1(cosh, ::coshf, ::cosh, return ::ufx::detail::cx::ccosh(UFX_UF_C(R, x)))
/// np.arcsinh.
UFX_UF_FLOAT1(arcsinh, ::asinhf, ::asinh, return ::ufx::detail::cx::casinh(UFX_UF_C(R, x)))
/// np.arccosh.
UFX_UF_FLOAT1(arccosh, ::acoshf, ::acosh, return ::ufx::detail::cx::cacosh(UFX_UF_C(R, x)))
/// np.arctanh.
UFX_UF_FLOAT1(arctanh, ::atanhf, ::atanh, return ::ufx::detail::cx::catanh(UFX_UF_C(R, x)))
/// np.floor.
UFX_UF_FLOAT1(floor, ::floorf, ::floor, UFX_UF_NO_COMPLEX(floor))
/// np.ceil.
UFX_UF_FLOAT1(ceil, ::ceilf, ::ceil, UFX_UF_NO_COMPLEX(ceil))
/// np.trunc.
UFX_UF_FLOAT1(trunc, ::truncf, ::trunc, UFX_UF_NO_COMPLEX(trunc))
/// np.rint: to the nearest integer, ties to even (the default rounding mode).
UFX_UF_FLOAT1(rint, ::rintf, ::rint, return ::ufx::detail::cx::crint(UFX_UF_C(R, x)))
/// np.deg2rad (np.radians): x * (pi / 180) in the float type (float: NumPy's float constant, (float)pi / 180).
UFX_UF_FLOAT1(
    deg2rad, [](float v) { return v * (static_cast<float>(3.14159265358979323846) / 180.f); },
    [](double v) { return v * (3.14159265358979323846 / 180); }, UFX_UF_NO_COMPLEX(deg2rad))
/// np.rad2deg (np.degrees): x * (180 / pi) in the float type.
UFX_UF_FLOAT1(
    rad2deg, [](float v) { return v * (180.f / static_cast<float>(3.14159265358979323846)); },
    [](double v) { return v * (180 / 3.14159265358979323846); }, UFX_UF_NO_COMPLEX(rad2deg))
#undef UFX_UF_FLOAT1
#undef UFX_UF_NO_COMPLEX

/// \cond INTERNAL
#define UFX_UF_FLOAT2(NAME, FF, FD, ORDERED)                                                                           \
  struct NAME {                                                                                                        \
    static constexpr bool half_in_float = true;                                                                        \
    static constexpr bool ordered = ORDERED;                                                                           \
    template <class A, class B>                                                                                        \
    UFX_HD ::ufx::detail::float_of2_t<A, B> operator()(const A& a, const B& b) const {                                 \
      using R = ::ufx::detail::float_of2_t<A, B>;                                                                      \
      static_assert(!::ufx::detail::is_std_complex<R>, "ufx::" #NAME ": NumPy has no " #NAME " of complex numbers");   \
      return ::ufx::detail::uf::real_call2<R>(                                                                         \
          a, b, [](float x, float y) { return FF(x, y); }, [](double x, double y) { return FD(x, y); });               \
    }                                                                                                                  \
  };
/// \endcond
namespace detail_float {
template <class T>
UFX_HD inline T logaddexp(T x, T y) {                               // NumPy's npy_logaddexp
  if (x == y) return x + T(0.693147180559945309417232121458176568); // equal infinities too
  const T d = x - y;
  if (d > 0) return x + detail::uf::c_log1p(detail::uf::c_exp(-d));
  if (d <= 0) return y + detail::uf::c_log1p(detail::uf::c_exp(d));
  return d; // a NaN
}
template <class T>
UFX_HD inline T logaddexp2(T x, T y) { // NumPy's npy_logaddexp2
  constexpr T log2e = T(1.442695040888963407359924681001892137);
  if (x == y) return x + 1;
  const T d = x - y;
  if (d > 0) return x + log2e * detail::uf::c_log1p(detail::uf::c_exp2(-d));
  if (d <= 0) return y + log2e * detail::uf::c_log1p(detail::uf::c_exp2(d));
  return d;
}
template <class T>
UFX_HD inline T heaviside(T x, T h0) { // NumPy's npy_heaviside
  if (x != x) return x;
  if (x == 0) return h0;
  return x < 0 ? T(0) : T(1);
}
} // namespace detail_float
/// np.arctan2(y, x): the angle of the point (x, y), glibc's / CUDA's atan2.
UFX_UF_FLOAT2(arctan2, ::ufx::math::atan2, ::ufx::math::atan2, true)
/// np.hypot: sqrt(a^2 + b^2) without overflow.
UFX_UF_FLOAT2(hypot, ::ufx::math::hypot, ::ufx::math::hypot, false)
/// np.copysign: |a| with b's sign.
UFX_UF_FLOAT2(copysign, ::copysignf, ::copysign, true)
/// np.logaddexp: log(e^a + e^b) without overflow, NumPy's formula.
UFX_UF_FLOAT2(logaddexp, detail_float::logaddexp<float>, detail_float::logaddexp<double>, false)
/// np.logaddexp2: log2(2^a + 2^b), NumPy's formula.
UFX_UF_FLOAT2(logaddexp2, detail_float::logaddexp2<float>, detail_float::logaddexp2<double>, false)
/// np.heaviside(x, h0): 0 for x < 0, h0 for x == 0, 1 for x > 0, NaN for NaN.
UFX_UF_FLOAT2(heaviside, detail_float::heaviside<float>, detail_float::heaviside<double>, true)
#undef UFX_UF_FLOAT2

/// np.nextafter: the next representable value after a towards b, in a's and b's float type (float16 and bfloat16 by
/// their own steps).
struct nextafter {
  static constexpr bool ordered = true; // not associative: no reduce or accumulate
  template <class A, class B>
  UFX_HD ::ufx::detail::float_of2_t<A, B> operator()(const A& a, const B& b) const {
    using R = ::ufx::detail::float_of2_t<A, B>;
    static_assert(!detail::is_std_complex<R>, "ufx::nextafter: NumPy has no nextafter of complex numbers");
    if constexpr (detail::half_type<R>) return ::ufx::math::nextafter(UFX_UF_C(R, a), UFX_UF_C(R, b));
    else if constexpr (std::is_same_v<R, float>) return ::nextafterf(UFX_UF_C(R, a), UFX_UF_C(R, b));
    else return ::nextafter(UFX_UF_C(R, a), UFX_UF_C(R, b));
  }
};

/// np.square: x * x in the element's type (integers wrap; bool in int8).
struct square {
  static constexpr bool half_in_float = true; // float16 operands: computed in float, rounded once
  template <class T>
  UFX_HD constexpr int_arith_t<T, T> operator()(const T& x) const {
    using R = int_arith_t<T, T>;
    return multiply{}(UFX_UF_C(R, x), UFX_UF_C(R, x));
  }
};

/// np.reciprocal: 1 / x in the element's type; integers: 1 / x truncated (0 for |x| > 1) and 1 / 0 is 0, not
/// NumPy's undefined value; bool in int8.
struct reciprocal {
  static constexpr bool half_in_float = true; // float16 operands: computed in float, rounded once
  template <class T>
  UFX_HD constexpr int_arith_t<T, T> operator()(const T& x) const {
    using R = int_arith_t<T, T>;
    const R v = UFX_UF_C(R, x);
    if constexpr (std::is_integral_v<R>) return v == 0 ? R(0) : static_cast<R>(R(1) / v);
    else if constexpr (detail::is_std_complex<R>) return detail::cx::div(R(1, 0), v);
    else if constexpr (detail::half_type<R>) return R(1.f / static_cast<float>(v));
    else return R(1) / v;
  }
};

/// np.conjugate (np.conj): complex conjugate; other types as they are (bool in int8, as NumPy's).
struct conjugate {
  template <class T>
  UFX_HD constexpr int_arith_t<T, T> operator()(const T& x) const {
    if constexpr (detail::is_std_complex<T>) return T(x.real(), -x.imag());
    else return static_cast<int_arith_t<T, T>>(x);
  }
};

/// np.isnan: integers and bool never; complex when either part is.
struct isnan {
  template <class T>
  UFX_HD constexpr bool operator()(const T& x) const {
    return detail::cx::is_nan(x);
  }
};
/// np.isinf: complex when either part is infinite.
struct isinf {
  template <class T>
  UFX_HD constexpr bool operator()(const T& x) const {
    if constexpr (detail::is_std_complex<T>) return (*this)(x.real()) || (*this)(x.imag());
    else if constexpr (detail::half_type<T>) return ::ufx::math::isinf(x);
    else if constexpr (std::is_floating_point_v<T>) return x - x != x - x && x == x;
    else return false;
  }
};
/// np.isfinite: complex when both parts are.
struct isfinite {
  template <class T>
  UFX_HD constexpr bool operator()(const T& x) const {
    if constexpr (detail::is_std_complex<T>) return (*this)(x.real()) && (*this)(x.imag());
    else if constexpr (detail::half_type<T>) return ::ufx::math::isfinite(x);
    else if constexpr (std::is_floating_point_v<T>) return x - x == x - x;
    else return true;
  }
};
/// np.signbit: the sign bit (of -0 and negative NaNs too); integers x < 0; none for complex.
struct signbit {
  template <class T>
  UFX_HD constexpr bool operator()(const T& x) const {
    static_assert(!detail::is_std_complex<T>, "ufx::signbit: NumPy has no signbit of complex numbers");
    return detail::uf::signbit_(x);
  }
};

/// The type of np.gcd and np.lcm: the common integer type (NumPy has them for integers only, not bool).
template <class A, class B>
using gcd_t = UFX_UF_P(A, B);
namespace detail_gcd {
/// |x| as the unsigned type (|MIN| is 2^(bits - 1)).
template <class R>
UFX_HD constexpr std::make_unsigned_t<R> magnitude(R x) {
  using U = std::make_unsigned_t<R>;
  return x < 0 ? static_cast<U>(U(0) - static_cast<U>(x)) : static_cast<U>(x);
}
template <class U>
UFX_HD constexpr U gcd(U a, U b) {
  while (b != 0) {
    const U t = static_cast<U>(a % b);
    a = b;
    b = t;
  }
  return a;
}
} // namespace detail_gcd
/// np.gcd: the greatest common divisor of the magnitudes (NumPy's: gcd(MIN, MIN) is |MIN|, which wraps to MIN).
struct gcd {
  template <class A, class B>
  UFX_HD constexpr gcd_t<A, B> operator()(const A& a, const B& b) const {
    using R = gcd_t<A, B>;
    static_assert(detail::uf::is_int<R>, "ufx::gcd: NumPy's gcd takes integers only");
    return static_cast<R>(
        detail_gcd::gcd(detail_gcd::magnitude(UFX_UF_C(R, a)), detail_gcd::magnitude(UFX_UF_C(R, b))));
  }
};
/// np.lcm: the least common multiple of the magnitudes, wrapping as NumPy's; 0 when either is 0.
struct lcm {
  template <class A, class B>
  UFX_HD constexpr gcd_t<A, B> operator()(const A& a, const B& b) const {
    using R = gcd_t<A, B>;
    using U = std::make_unsigned_t<R>;
    static_assert(detail::uf::is_int<R>, "ufx::lcm: NumPy's lcm takes integers only");
    const U x = detail_gcd::magnitude(UFX_UF_C(R, a)), y = detail_gcd::magnitude(UFX_UF_C(R, b));
    const U g = detail_gcd::gcd(x, y);
    if (g == 0) return 0;
    using W = detail::uf::wide_unsigned<R>;
    return static_cast<R>(static_cast<U>(static_cast<W>(x / g) * static_cast<W>(y)));
  }
};

#undef UFX_UF_P
#undef UFX_UF_C
} // namespace ufx::ops
