#pragma once
// What the host kernels of ufx::math share: bit access, fused multiply-add where the machine has it, rounding to an
// integer and scaling by 2^n without branches, and double-double steps. Every function here is branch-free (selects
// only), so a loop over a kernel is a vector loop.
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "ufx/config.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN
namespace math {

template <class T>
struct fp;
template <>
struct fp<float> {
  using int_t = std::int32_t;
  static constexpr int mant = 23, bias = 127;
};
template <>
struct fp<double> {
  using int_t = std::int64_t;
  static constexpr int mant = 52, bias = 1023;
};
template <class T>
using int_of = typename fp<T>::int_t;

template <class T>
UFX_ALWAYS_INLINE int_of<T> bits(T x) {
  return std::bit_cast<int_of<T>>(x);
}
template <class T>
UFX_ALWAYS_INLINE T from_bits(int_of<T> i) {
  return std::bit_cast<T>(i);
}

/// a * b + c, fused where the target has FMA (std::fma is a library call where it does not).
template <class T>
UFX_ALWAYS_INLINE T mla(T a, T b, T c) {
#if defined(__FMA__) || defined(__aarch64__)
  return std::fma(a, b, c);
#else
  return a * b + c;
#endif
}

/// Horner's rule: c[0] + x * (c[1] + x * (...)), coefficients from the constant term up. Unrolled at compile time: a
/// loop here would be an inner loop the vectoriser gives up on.
template <class T, std::size_t K, std::size_t I = 0>
UFX_ALWAYS_INLINE T horner(T x, const T (&c)[K]) {
  if constexpr (I + 1 == K) return c[I];
  else return mla(horner<T, K, I + 1>(x, c), x, c[I]);
}

/// c ? a : b on the bits. Written as a ?: the compiler may turn it into a branch, and with -ftrapping-math (the
/// default) arithmetic near a branch is not if-converted: no vector loop.
template <class T>
UFX_ALWAYS_INLINE T select(bool c, T a, T b) {
  const int_of<T> m = -int_of<T>(c);
  return from_bits<T>((bits(a) & m) | (bits(b) & ~m));
}

template <class T>
UFX_ALWAYS_INLINE T abs(T x) {
  return from_bits<T>(bits(x) & std::numeric_limits<int_of<T>>::max());
}
template <class T>
UFX_ALWAYS_INLINE T copysign(T x, T s) {
  return from_bits<T>((bits(x) & std::numeric_limits<int_of<T>>::max()) |
                      (bits(s) & std::numeric_limits<int_of<T>>::min()));
}
template <class T>
UFX_ALWAYS_INLINE T clamp(T x, T lo, T hi) { // a NaN stays a NaN; selects, as a ?: is a branch GCC threads
  return select(x < lo, lo, select(x > hi, hi, x));
}
/// k as a T, for |k| < 2^(mant-1), without an integer-to-float conversion (SSE2 has none for int64).
template <class T>
UFX_ALWAYS_INLINE T to_float(int_of<T> k) {
  constexpr T magic = T(1.5) * T(int_of<T>(1) << fp<T>::mant);
  return from_bits<T>(k + bits(magic)) - magic;
}

/// v rounded to the nearest integer (ties to even), as a float and as an integer; |v| < 2^(mant-1).
template <class T>
struct rounded {
  T n;
  int_of<T> i;
};
template <class T>
UFX_ALWAYS_INLINE rounded<T> round_int(T v) {
  constexpr T magic = T(1.5) * T(int_of<T>(1) << fp<T>::mant);
  const T t = v + magic;
  using U = std::make_unsigned_t<int_of<T>>; // wraps for |v| past the range, not UB
  return {t - magic, int_of<T>(U(bits(t)) - U(bits(magic)))};
}

/// 2^k for a k in the normal exponent range.
template <class T>
UFX_ALWAYS_INLINE T pow2(int_of<T> k) {
  return from_bits<T>((k + fp<T>::bias) << fp<T>::mant);
}
/// p * 2^k in two exact steps (a subnormal result rounded once, an overflow infinite); |k| < 2 * bias - 2.
template <class T>
UFX_ALWAYS_INLINE T scale(T p, int_of<T> k) {
  const int_of<T> k1 = k >> 1;
  return p * pow2<T>(k1) * pow2<T>(k - k1);
}

/// Double-double (double-float for float) steps (Dekker, Knuth): a value hi + lo held to about twice T's precision.
template <class T>
struct dd_t {
  T hi, lo;
};
using dd = dd_t<double>;
template <class T>
UFX_ALWAYS_INLINE dd_t<T> two_sum(T a, T b) {
  const T s = a + b, bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}
template <class T>
UFX_ALWAYS_INLINE dd_t<T> fast_two_sum(T a, T b) { // |a| >= |b|
  const T s = a + b;
  return {s, b - (s - a)};
}
template <class T>
UFX_ALWAYS_INLINE dd_t<T> two_prod(T a, T b) {
  const T p = a * b;
#if defined(__FMA__) || defined(__aarch64__)
  return {p, std::fma(a, b, -p)};
#else
  constexpr T split = T((int_of<T>(1) << ((fp<T>::mant + 2) / 2)) + 1); // 2^27 + 1, 2^12 + 1
  const T ca = split * a, ah = ca - (ca - a), al = a - ah;
  const T cb = split * b, bh = cb - (cb - b), bl = b - bh;
  return {p, ((ah * bh - p) + ah * bl + al * bh) + al * bl};
#endif
}

} // namespace math
UFX_TU_NAMESPACE_END
} // namespace ufx::detail
