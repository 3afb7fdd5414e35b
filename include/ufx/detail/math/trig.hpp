#pragma once
// Host kernels of ufx::math::sin and cos (float and double): x = n pi/2 + r with |r| <= pi/4, by
// Cody-Waite with pi/2 in 33-bit pieces (fdlibm's pio2_1, _2, _3: n * piece is exact while
// |n| < 2^20), then fdlibm's sin and cos polynomials on r, picked and signed by n mod 4. float
// works in double throughout (FreeBSD's sinf/cosf kernels), so the only rounding to float is the
// last. Accurate for |x| <= 2^20 pi/2 (about 1.6e6); past that the reduction loses bits, and a
// call that needs it should use std::sin / std::cos (Payne-Hanek), which branch.
#include "ufx/detail/math/common.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN
namespace math {

inline constexpr double trig_max = 1647099.0; // 2^20 pi/2

struct sin_cos_d {
  double s, c;
};
// sin and cos of r + t, |r| <= pi/4, t a tail much smaller than ulp(r) (fdlibm's __kernel_sin/cos).
inline sin_cos_d sin_cos_reduced(double r, double t) {
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
// The float kernels need less: |error| < 2^-30 (FreeBSD's __kernel_sindf / __kernel_cosdf).
inline sin_cos_d sin_cos_reduced_f(double r) {
  const double z = r * r, w = z * z;
  const double s = (r + z * r * (-0x15555554cbac77.0p-55 + z * 0x111110896efbb2.0p-59)) +
                   z * r * w * (-0x1a00f9e2cae774.0p-65 + z * 0x16cd878c3b46a7.0p-71);
  const double c = ((1.0 + z * -0x1ffffffd0c5e81.0p-54) + w * 0x155553e1053a42.0p-57) +
                   (w * z) * (-0x16c087e80f1e27.0p-62 + z * 0x199342e0ee5069.0p-68);
  return {s, c};
}

struct reduced {
  double r, t; // x - n pi/2 = r + t
  std::int64_t n;
};
template <bool Tail>
inline reduced reduce_pio2(double x) {
  const auto [n, k] = round_int(x * 6.36619772367581382433e-01);
  // three 33-bit pieces of pi/2, each product exact; the subtractions carry the rounding error.
  double r = x - n * 1.57079632673412561417e+00;
  double w = n * 6.07710050630396597660e-11;
  double t = r;
  r = t - w;
  w = n * 2.02226624879595063154e-21 - ((t - r) - w);
  if constexpr (Tail) {
    t = r;
    w = n * 2.02226624871116645580e-21;
    r = t - w;
    w = n * 8.47842766036889956997e-32 - ((t - r) - w);
  }
  const double y = r - w;
  return {y, (r - y) - w, k};
}

template <class T>
inline T sin_cos_finish(T x, double s, double c, std::int64_t q) {
  // masks from q's bits, not comparisons (SSE2 cannot compare 64-bit integers)
  const std::int64_t odd = -(q & 1);
  double v = from_bits<double>((bits(c) & odd) | (bits(s) & ~odd));
  v = from_bits<double>(bits(v) ^ ((q & 2) << 62)); // negated in quadrants 2 and 3
  // sin(-0) = -0, sin(+-inf) = cos(+-inf) = NaN. Selects on doubles, one conversion after them:
  // a conversion inside a select would keep the loop from vectorising (-ftrapping-math).
  v = select(x == 0, double(x), v);
  v = select(abs(x) == std::numeric_limits<T>::infinity(), std::numeric_limits<double>::quiet_NaN(), v);
  return T(v);
}

template <class T>
inline sin_cos_d sin_cos_at(const reduced& red) {
  if constexpr (sizeof(T) == 4)
    return sin_cos_reduced_f(red.r);
  else
    return sin_cos_reduced(red.r, red.t);
}
template <class T>
inline T sin_kernel(T x) {
  const reduced red = reduce_pio2<(sizeof(T) == 8)>(x);
  const auto [s, c] = sin_cos_at<T>(red);
  return sin_cos_finish(x, s, c, red.n);
}
template <class T>
inline T cos_kernel(T x) {
  const reduced red = reduce_pio2<(sizeof(T) == 8)>(x);
  const auto [s, c] = sin_cos_at<T>(red);
  const T v = sin_cos_finish(x, s, c, red.n + 1); // cos x = sin(x + pi/2)
  return select(x == 0, T(1), v);
}

} // namespace math
UFX_TU_NAMESPACE_END
} // namespace ufx::detail
