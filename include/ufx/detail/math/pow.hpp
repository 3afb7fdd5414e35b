#pragma once
// Host kernel of ufx::math::pow: x^y = e^(y log|x|), with log|x| and the product carried to about
// 2^-65 relative (double-double, the way SLEEF's pow does), then C's special cases by selects.
// float computes in double: log and exp of doubles, one rounding to float at the end.
#include "ufx/detail/math/exp_log.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN
namespace math {

// log x = k ln2 + 2 atanh(s), s = f / (2 + f), for a positive normal or subnormal x.
inline dd log_dd(double x) {
  const auto [f, k] = log_reduce(x);
  const dd u = fast_two_sum(2., f);
  const double s = f / u.hi;
  const dd q = two_prod(s, u.hi);
  const double sl = (((f - q.hi) - q.lo) - s * u.lo) / u.hi; // f - q.hi is exact
  // 2 atanh(s) = 2s + (2/3) s^3 + s^5 (2/5 + (2/7) s^2 + ...). The cubic term is up to 1% of the
  // sum, so it is carried in double-double too (with the share of s's low part, 2 s^2 sl); the
  // rest, below 2^-12 of the sum, in double.
  const dd s2 = two_prod(s, s), s3 = two_prod(s2.hi, s);
  const double s3_lo = s3.lo + s2.lo * s + 3. * s2.hi * sl;
  constexpr double third_hi = 2. / 3, third_lo = 3.7007434154171886e-17; // 2/3 - third_hi
  const dd t3 = two_prod(third_hi, s3.hi);
  const double t3_lo = t3.lo + third_hi * s3_lo + third_lo * s3.hi;
  const double z = s2.hi;
  constexpr double c[] = {2. / 5, 2. / 7, 2. / 9, 2. / 11, 2. / 13, 2. / 15, 2. / 17, 2. / 19, 2. / 21, 2. / 23, 2. / 25, 2. / 27};
  const double rest = z * z * s * horner(z, c);
  const dd h = two_sum(k * 6.93147180369123816490e-01, 2. * s); // k ln2_hi is exact
  const dd h2 = two_sum(h.hi, t3.hi);
  const double lo = h.lo + h2.lo + (k * 1.90821492927058770002e-10 + 2. * sl + t3_lo + rest);
  return fast_two_sum(h2.hi, lo);
}

template <class T>
inline T pow_kernel(T x, T y) {
  const double ax = abs(double(x)), yd = double(y);
  double r;
  if constexpr (sizeof(T) == 4) {
    r = exp_kernel(yd * log_kernel(ax)); // |y log x| < 2^8 where it matters: 2^-45 is enough
  } else {
    const dd l = log_dd(ax);
    const dd p = two_prod(yd, l.hi);
    r = exp_kernel(p.hi, mla(yd, l.lo, p.lo));
  }
  // log|x| above is wrong for 0 and inf: e^(y log|x|) is 0 or inf by the sign of y log|x|
  constexpr double inf = std::numeric_limits<double>::infinity();
  const bool y_pos = yd > 0;
  r = select(ax == 0, select(y_pos, 0., inf), r);
  r = select(ax == inf, select(y_pos, inf, 0.), r);
  // y an integer (every y with |y| >= 2^mant is, and even past 2^(mant+1)), odd or not
  constexpr T big = T(int_of<T>(1) << fp<T>::mant);
  const T ay = abs(y);
  const T t = select(ay >= big, ay, (ay + big) - big);
  const bool is_int = t == ay;
  // parity from the last bit of an integer whose last place is 1 (no float-to-int64 conversion)
  const T p = select(ay < big, t + big, select(ay < T(2) * big, ay, T(0)));
  const std::int64_t odd_sign = std::int64_t(bits(p) & 1) << 63; // the parity bit on the sign
  const bool neg = bits(x) < 0; // -0 and -inf too
  r = select(neg & is_int, from_bits<double>(bits(r) ^ odd_sign), r);
  r = select(neg & !is_int & (ax != 0) & (ax != inf), std::numeric_limits<double>::quiet_NaN(), r); // y finite
  r = select((x != x) | (y != y), std::numeric_limits<double>::quiet_NaN(), r);
  r = select((ax == 1) & (ay == std::numeric_limits<T>::infinity()), 1., r);                          // (-1)^+-inf
  r = select((x == 1) | (y == 0), 1., r);                                                              // even for a NaN
  return T(r);
}

} // namespace math
UFX_TU_NAMESPACE_END
} // namespace ufx::detail
