#pragma once
// Host kernels of ufx::math::sin and cos (float and double), accurate for |x| <= 2^20 pi/2 (about 1.6e6); past that the
// reductions lose bits, so the result there is NaN (never a wrong number that looks right), and a call that needs such
// arguments should use std::sin / std::cos (Payne-Hanek), which branch. double: x = n pi/2 + r with |r| <= pi/4 by
// Cody-Waite, pi/2 in 33-bit pieces (fdlibm's pio2_1, _2, _3: n * piece is exact while |n| < 2^20), then fdlibm's sin
// and cos polynomials on r, picked and signed by n mod 4. float: x = n pi + r (sin) or (n + 1/2) pi + r (cos), |r| <=
// pi/2, and one sin polynomial on r; in float with FMA (twice the lanes of double, and no 64-bit integers), in double
// without.
#include "ufx/detail/math/common.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN
namespace math {

inline constexpr double trig_max = 1647099.25; // the largest float <= 2^20 pi/2 (1647099.34...)

struct sin_cos_d {
  double s, c;
};
// sin and cos of r + t, |r| <= pi/4, t a tail much smaller than ulp(r) (fdlibm's __kernel_sin/cos).
UFX_ALWAYS_INLINE sin_cos_d sin_cos_reduced(double r, double t) {
  const double z = r * r, v = z * r;
  constexpr double S[] = {8.33333333332248946124e-03, -1.98412698298579493134e-04, 2.75573137070700676789e-06,
                          -2.50507602534068634195e-08, 1.58969099521155010221e-10};
  const double s = r - ((z * (0.5 * t - v * horner(z, S)) - t) - v * -1.66666666666666324348e-01);
  constexpr double C[] = {4.16666666666666019037e-02,  -1.38888888888741095749e-03, 2.48015872894767294178e-05,
                          -2.75573143513906633035e-07, 2.08757232129817482790e-09,  -1.13596475577881948265e-11};
  const double hz = 0.5 * z, w = 1.0 - hz;
  const double c = w + (((1.0 - w) - hz) + (z * (z * horner(z, C)) - r * t));
  return {s, c};
}
struct reduced {
  double r, t; // x - n pi/2 = r + t
  std::int64_t n;
};
UFX_ALWAYS_INLINE reduced reduce_pio2(double x) {
  const auto [n, k] = round_int(x * 6.36619772367581382433e-01);
  // three 33-bit pieces of pi/2, each product exact; the subtractions carry the rounding error.
  double r = x - n * 1.57079632673412561417e+00;
  double w = n * 6.07710050630396597660e-11;
  double t = r;
  r = t - w;
  w = n * 2.02226624879595063154e-21 - ((t - r) - w);
  t = r;
  w = n * 2.02226624871116645580e-21;
  r = t - w;
  w = n * 8.47842766036889956997e-32 - ((t - r) - w);
  const double y = r - w;
  return {y, (r - y) - w, k};
}

UFX_ALWAYS_INLINE double sin_cos_finish(double x, double s, double c, std::int64_t q) {
  // masks from q's bits, not comparisons (SSE2 cannot compare 64-bit integers)
  const std::int64_t odd = -(q & 1);
  double v = from_bits<double>((bits(c) & odd) | (bits(s) & ~odd));
  v = from_bits<double>(bits(v) ^ ((q & 2) << 62)); // negated in quadrants 2 and 3
  // sin(-0) = -0, sin(+-inf) = cos(+-inf) = NaN
  v = select(x == 0, x, v);
  return select(abs(x) == std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN(), v);
}

// float: x = q pi/2 + r with q even for sin (x = n pi + r) and odd for cos (x = (n + 1/2) pi + r), so |r| <= pi/2 and
// sin x = +-sin r, cos x = +-sin r: one polynomial, where the pi/2 reduction needs both sin's and cos's and a choice
// between them (53 vector instructions per 16 floats against 34, GCC 12 -march=native; libmvec's sinf is the same
// shape). The reduction runs on |x| and the sign is put back at the end, which also gives sin(-0) = -0.
//
// The nearest even integer q to 2a/pi (sin) or the nearest odd one (cos), as a float, and the number h of half turns
// with (-1)^h the result's sign: q = 2h (sin), q = 2h - 1 (cos). Adding 1.5 * 2^24, where floats are 2 apart, rounds to
// an even integer (q / 2 then in the low bits); a q within 1 of 2a/pi is all the reduction needs (|r| < pi/2 + 0.05).
struct half_turns_f {
  float q;
  std::int32_t h;
};
template <bool Cos>
UFX_ALWAYS_INLINE half_turns_f half_turns(float a) {
  constexpr float magic = 0x1.8p24f;
  const float v = a * 0x1.45f306p-1f; // 2/pi
  const float t = (Cos ? v + 1.f : v) + magic;
  const float q = t - magic;
  return {Cos ? q - 1.f : q, bits(t) - bits(magic)};
}
// (-1)^h v: h's low bit on the sign bit
UFX_ALWAYS_INLINE float flip_sign(float v, std::int32_t h) {
  using U = std::uint32_t;
  return from_bits<float>(static_cast<std::int32_t>(U(bits(v)) ^ (U(h) << 31)));
}
// v with its sign flipped where s is negative
UFX_ALWAYS_INLINE float copysign_xor(float v, float s) {
  return from_bits<float>(bits(v) ^ (bits(s) & std::numeric_limits<std::int32_t>::min()));
}
// sin r on |r| <= 1.7: r + r^3 P(r^2), P of degree 4 fitted for relative error 2^-30.7 with each coefficient rounded to
// float before the next ones were fitted again.
inline constexpr float sin_coef_f[] = {-0x1.555556p-3f, 0x1.11112ep-7f, -0x1.a01faap-13f, 0x1.7228cap-19f,
                                       -0x1.a61f40p-26f};
template <bool Cos>
UFX_ALWAYS_INLINE float sin_cos_f(float x) {
  const float a = abs(x);
  const auto [q, h] = half_turns<Cos>(a);
#if defined(__FMA__) || defined(__aarch64__)
  // a - q pi/2 = r + lo in float. pi/2 = pi_1 + pi_2 + pi_3 + 2^-76. a - q pi_1 is exact (an FMA) for a >= 1, where
  // both are multiples of 2^-23 and the difference is below 2; below 1 (cos's q = 1) it rounds once, by at most 2^-25,
  // which moves the result by 2^-25 sin(a) <= 0.5 ulp. q pi_2 is split into its rounded product and that product's
  // error (an FMA), and r1 - p into its rounded value and error by Dekker's fast two-sum, exact although |r1| < |p|
  // happens (r1 is then a multiple of 2^-23 and so of ulp(p), |p| < 2^-3). p has an FMA among its uses, so
  // -ffp-contract=fast (GCC's default) cannot fuse it into r1 - p.
  constexpr float pi_1 = 0x1.921fb6p+0f, pi_2 = -0x1.777a5cp-25f, pi_3 = -0x1.ee59dap-50f;
  const float r1 = std::fma(-q, pi_1, a);
  const float p = q * pi_2, pe = std::fma(q, pi_2, -p);
  const float r = r1 - p, e = (r1 - r) - p; // r1 - p = r + e exactly
  const float lo = std::fma(-q, pi_3, e - pe);
  // sin(r + lo) = r + r^3 P + lo cos r. The term r^3 P reaches 0.57 at r = pi/2, so its rounding errors are the
  // result's: r^3's product error (an FMA) is carried, which keeps the maximum error at 1.77 ulp over every float of
  // the domain (2.2 without); lo cos r is lo (1 - r^2/2), within 0.25 lo.
  const float z = r * r, rz = r * z, rze = std::fma(r, z, -rz);
  const float P = horner(z, sin_coef_f);
  const float v = r + std::fma(rz, P, std::fma(rze, P, std::fma(-lo, 0.5f * z, lo)));
#else
  // Without FMA, reduction and polynomial in double (SSE2 vectors): fdlibm's 33-bit pio2_1 (product with q exact) and
  // the rest of pi/2, pio2_1t (product rounding far below float's needs); one rounding to float, within 0.51 ulp.
  const double qd = q, r = (double(a) - qd * 1.57079632673412561417e+00) - qd * 6.07710050650619224932e-11;
  const double z = r * r;
  constexpr double c[] = {sin_coef_f[0], sin_coef_f[1], sin_coef_f[2], sin_coef_f[3], sin_coef_f[4]};
  const float v = static_cast<float>(r + r * z * horner(z, c));
#endif
  const float f = flip_sign(v, h);
  return Cos ? f : copysign_xor(f, x); // sin(-x) = -sin x
}
// NaN past the domain (|x| > trig_max), as for infinities and NaN.
UFX_ALWAYS_INLINE double in_trig_domain(double x, double v) {
  return select(abs(x) <= trig_max, v, std::numeric_limits<double>::quiet_NaN());
}
// float: a quiet NaN's bits or'ed in past the domain (one instruction with the sign's on AVX-512)
UFX_ALWAYS_INLINE float in_trig_domain(float x, float v) {
  const std::int32_t past = -std::int32_t(abs(x) > static_cast<float>(trig_max));
  return from_bits<float>(bits(v) | (past & bits(std::numeric_limits<float>::quiet_NaN())));
}
UFX_ALWAYS_INLINE float sin_kernel(float x) { return in_trig_domain(x, sin_cos_f<false>(x)); }
UFX_ALWAYS_INLINE float cos_kernel(float x) { return in_trig_domain(x, sin_cos_f<true>(x)); }
UFX_ALWAYS_INLINE double sin_kernel(double x) {
  const auto red = reduce_pio2(x);
  const auto [s, c] = sin_cos_reduced(red.r, red.t);
  return in_trig_domain(x, sin_cos_finish(x, s, c, red.n));
}
UFX_ALWAYS_INLINE double cos_kernel(double x) {
  const auto red = reduce_pio2(x);
  const auto [s, c] = sin_cos_reduced(red.r, red.t);
  const auto q = static_cast<std::int64_t>(std::uint64_t(red.n) + 1); // cos x = sin(x + pi/2); wraps past the domain
  return in_trig_domain(x, select(x == 0, 1., sin_cos_finish(x, s, c, q)));
}

} // namespace math
UFX_TU_NAMESPACE_END
} // namespace ufx::detail
