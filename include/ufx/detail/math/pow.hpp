#pragma once
// Host kernel of ufx::math::pow: x^y = e^(y log|x|), with log|x| and the product carried in twice the type's precision
// (double-double or double-float, the way SLEEF's pow and powf do), then C's special cases by selects. float works in
// float: twice the lanes of double, no 64-bit integers.
#include "ufx/detail/math/exp_log.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN
namespace math {

// log_dd's constants per type: ln 2 = ln2_hi + ln2_lo (k ln2_hi exact for every exponent k), 2/3 = third_hi + third_lo,
// and the coefficients past the cubic term, enough for a rest below 2^-12 of the sum to carry the type's precision.
template <class T>
struct log_dd_constants;
template <>
struct log_dd_constants<double> {
  static constexpr double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
  static constexpr double third_hi = 2. / 3, third_lo = 3.7007434154171886e-17;
  static constexpr double c[] = {2. / 5,  2. / 7,  2. / 9,  2. / 11, 2. / 13, 2. / 15,
                                 2. / 17, 2. / 19, 2. / 21, 2. / 23, 2. / 25, 2. / 27};
};
template <>
struct log_dd_constants<float> {
  static constexpr float ln2_hi = 0x1.62e4p-1f, ln2_lo = 0x1.7f7d1cp-20f;
  static constexpr float third_hi = 2.f / 3, third_lo = -0x1.555556p-26f;
  static constexpr float c[] = {2.f / 5, 2.f / 7, 2.f / 9, 2.f / 11, 2.f / 13, 2.f / 15};
};

// log x = k ln2 + 2 atanh(s), s = f / (2 + f), for a positive normal or subnormal x, in double-T.
template <class T>
UFX_ALWAYS_INLINE dd_t<T> log_dd(T x) {
  using K = log_dd_constants<T>;
  const auto [f, k] = log_reduce(x);
  const dd_t<T> u = fast_two_sum(T(2), f);
  const T s = f / u.hi;
  const dd_t<T> q = two_prod(s, u.hi);
  const T sl = (((f - q.hi) - q.lo) - s * u.lo) / u.hi; // f - q.hi is exact
  // 2 atanh(s) = 2s + (2/3) s^3 + s^5 (2/5 + (2/7) s^2 + ...). The cubic term is up to 1% of the sum, so it is carried
  // in double-T too (with the share of s's low part, 2 s^2 sl); the rest, below 2^-12 of the sum, in T.
  const dd_t<T> s2 = two_prod(s, s), s3 = two_prod(s2.hi, s);
  const T s3_lo = s3.lo + s2.lo * s + T(3) * s2.hi * sl;
  const dd_t<T> t3 = two_prod(K::third_hi, s3.hi);
  const T t3_lo = t3.lo + K::third_hi * s3_lo + K::third_lo * s3.hi;
  const T z = s2.hi;
  const T rest = z * z * s * horner(z, K::c);
  const dd_t<T> h = two_sum(k * K::ln2_hi, T(2) * s); // k ln2_hi is exact
  const dd_t<T> h2 = two_sum(h.hi, t3.hi);
  const T lo = h.lo + h2.lo + (k * K::ln2_lo + T(2) * sl + t3_lo + rest);
  return fast_two_sum(h2.hi, lo);
}

// x^y = e^(y log|x|): log|x| and the product y log|x| in double-T (relative error about 2^-65 for double, 2^-40 for
// float, enough for |y log x| up to the overflow limit), e^ of the pair.
template <class T>
UFX_ALWAYS_INLINE T pow_kernel(T x, T y) {
  using I = int_of<T>;
  const T ax = abs(x);
  const dd_t<T> l = log_dd(ax);
  const dd_t<T> p = two_prod(y, l.hi);
  T r = exp_kernel(p.hi, mla(y, l.lo, p.lo));
  // log|x| above is wrong for 0 and inf: e^(y log|x|) is 0 or inf by the sign of y log|x|
  constexpr T inf = std::numeric_limits<T>::infinity();
  const bool y_pos = y > 0;
  r = select(ax == 0, select(y_pos, T(0), inf), r);
  r = select(ax == inf, select(y_pos, inf, T(0)), r);
  // y an integer (every y with |y| >= 2^mant is, and even past 2^(mant+1)), odd or not
  constexpr T big = T(I(1) << fp<T>::mant);
  const T ay = abs(y);
  const T t = select(ay >= big, ay, (ay + big) - big);
  const bool is_int = t == ay;
  // parity from the last bit of an integer whose last place is 1 (no float-to-int conversion)
  const T par = select(ay < big, t + big, select(ay < T(2) * big, ay, T(0)));
  using U = std::make_unsigned_t<I>;
  const auto odd_sign = static_cast<I>(U(bits(par) & 1) << (8 * sizeof(T) - 1)); // the parity bit on the sign
  const bool neg = bits(x) < 0;                                                  // -0 and -inf too
  r = select(neg & is_int, from_bits<T>(bits(r) ^ odd_sign), r);
  r = select(neg & !is_int & (ax != 0) & (ax != inf), std::numeric_limits<T>::quiet_NaN(), r); // y finite
  r = select((x != x) | (y != y), std::numeric_limits<T>::quiet_NaN(), r);
  r = select((ax == 1) & (ay == inf), T(1), r); // (-1)^+-inf
  return select((x == 1) | (y == 0), T(1), r);  // even for a NaN
}

} // namespace math
UFX_TU_NAMESPACE_END
} // namespace ufx::detail
