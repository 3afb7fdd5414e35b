#pragma once
// Host kernels of ufx::math::sin and cos (float and double): x = n pi/2 + r with |r| <= pi/4 by
// Cody-Waite, then sin and cos polynomials on r, picked and signed by n mod 4. double: pi/2 in
// 33-bit pieces (fdlibm's pio2_1, _2, _3: n * piece is exact while |n| < 2^20) and fdlibm's
// polynomials. float works in float (twice the lanes of double, and no 64-bit integers): with FMA,
// pi/2 in three floats and the rounding error of r carried in a second float; without, the
// reduction alone in double (fdlibm's pieces). Both are accurate for |x| <= 2^20 pi/2 (about
// 1.6e6); past that the reduction loses bits, so the result there is NaN (never a wrong number
// that looks right), and a call that needs such arguments should use std::sin / std::cos
// (Payne-Hanek), which branch.
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

// float: x = n pi/2 + r + t in float arithmetic (the double vectors would hold half as many
// lanes, and their 64-bit integers are scalar code on SSE2). n rounds x * 2/pi as a float, which
// is within 2^-4 of the exact quotient at the domain's end, so |r| < 0.9; |t| is at most half an
// ulp of r plus 2^-29, and r + t within about 2^-75 n of x - n pi/2 for |n| <= 2^20.
struct reduced_f {
  float r, t; // x - n pi/2 = r + t
  std::int32_t n;
};
UFX_ALWAYS_INLINE reduced_f reduce_pio2(float x) {
  const auto [n, k] = round_int(x * 0x1.45f306p-1f); // 2/pi
#if defined(__FMA__) || defined(__aarch64__)
  // pi/2 = pi_1 + pi_2 + pi_3 + 2^-76 in floats. x - n pi_1 fits in 24 bits: exact. n pi_2 is split
  // into its rounded product and that product's error (an FMA), and r1 - p into its rounded value
  // and error by Dekker's fast two-sum, exact here although |r1| < |p| happens: n != 0 makes r1 a
  // multiple of 2^-24 and so of ulp(p), |p| < 2^-4 (the condition is a = M 2^e, b = N 2^f with
  // e >= f and |M| < 2^24). p has an FMA call among its uses, so -ffp-contract=fast (GCC's
  // default) cannot fuse it into r1 - p.
  constexpr float pi_1 = 0x1.921fb6p+0f, pi_2 = -0x1.777a5cp-25f, pi_3 = -0x1.ee59dap-50f;
  const float r1 = std::fma(-n, pi_1, x);
  const float p = n * pi_2, pe = std::fma(n, pi_2, -p);
  const float s = r1 - p, e = (r1 - s) - p; // r1 - p = s + e exactly
  return {s, std::fma(-n, pi_3, e - pe), k};
#else
  // Without FMA the reduction runs in double (SSE2's double vectors, no 64-bit integers): fdlibm's
  // 33-bit pio2_1, whose product with n is exact, and the rest of pi/2, pio2_1t, whose product's
  // rounding (2^-53 of n 6e-11) is far below float's needs; the result split into two floats.
  const double xd = x, nd = n;
  const double r = (xd - nd * 1.57079632673412561417e+00) - nd * 6.07710050650619224932e-11;
  const float hi = float(r);
  return {hi, float(r - double(hi)), k};
#endif
}
// sin(r + lo) and cos(r + lo), |r| < 0.9: FreeBSD's __kernel_sindf / __kernel_cosdf polynomials
// (minimax on pi/4) with their coefficients rounded to float, within 2^-27.6 relative up to 0.9,
// evaluated in float, with cos's 1 - z/2 added as fdlibm does (its rounding error carried) and
// lo's first-order share.
struct sin_cos_f {
  float s, c;
};
UFX_ALWAYS_INLINE sin_cos_f sin_cos_reduced(float r, float lo) {
  const float z = r * r, hz = 0.5f * z;
  constexpr float S[] = {-0x1.555556p-3f, 0x1.111108p-7f, -0x1.a00f9ep-13f, 0x1.6cd878p-19f};
  const float s = r + mla(r * z, horner(z, S), mla(-lo, hz, lo)); // lo cos(r)
  constexpr float C[] = {0x1.55553ep-5f, -0x1.6c087ep-10f, 0x1.99342ep-16f};
  const float w = 1.f - hz;
  const float c = w + (((1.f - w) - hz) + mla(z * z, horner(z, C), -r * lo)); // - lo sin(r)
  return {s, c};
}
UFX_ALWAYS_INLINE float sin_cos_finish(float x, float s, float c, std::int32_t q) {
  const std::int32_t odd = -(q & 1);
  float v = from_bits<float>((bits(c) & odd) | (bits(s) & ~odd));
  using U = std::uint32_t; // quadrants 2 and 3 negated: q's bit 1 on the sign bit
  v = from_bits<float>(static_cast<std::int32_t>(U(bits(v)) ^ (U(q & 2) << 30)));
  return select(x == 0, x, v); // sin(-0) = -0; an infinity or NaN is a NaN already
}
// The same steps for both types: reduce_pio2, sin_cos_reduced and sin_cos_finish are overloads.
// NaN past the domain (|x| > trig_max), as for infinities and NaN.
template <class T>
UFX_ALWAYS_INLINE T in_trig_domain(T x, T v) {
  return select(abs(x) <= static_cast<T>(trig_max), v, std::numeric_limits<T>::quiet_NaN());
}
template <class T>
UFX_ALWAYS_INLINE T sin_kernel(T x) {
  const auto red = reduce_pio2(x);
  const auto [s, c] = sin_cos_reduced(red.r, red.t);
  return in_trig_domain(x, sin_cos_finish(x, s, c, red.n));
}
template <class T>
UFX_ALWAYS_INLINE T cos_kernel(T x) {
  const auto red = reduce_pio2(x);
  const auto [s, c] = sin_cos_reduced(red.r, red.t);
  using I = decltype(red.n);
  const auto q = static_cast<I>(std::make_unsigned_t<I>(red.n) + 1); // cos x = sin(x + pi/2); wraps past the domain
  return in_trig_domain(x, select(x == 0, T(1), sin_cos_finish(x, s, c, q)));
}

} // namespace math
UFX_TU_NAMESPACE_END
} // namespace ufx::detail
