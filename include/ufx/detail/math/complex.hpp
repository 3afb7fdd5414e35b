#pragma once
// Bodies of ufx::math's functions of std::complex (exp, log, sqrt) and the library calls they and hypot / atan2 make:
// <cmath>'s on the host (glibc's, as NumPy's), CUDA's on the device. std::complex<float> computes in double and rounds
// once. The special values are C99's Annex G (cexp, clog, csqrt), which NumPy's functions return. Only the parts,
// real() / imag() and the two-part constructor touch std::complex here (detail/core/complex.hpp says why).
#include <cmath>
#include <complex>
#include <limits>

#include "ufx/config.hpp"
#include "ufx/detail/core/complex.hpp"

namespace ufx::detail::cx {
UFX_TU_NAMESPACE_BEGIN

#if defined(__CUDA_ARCH__)
#  define UFX_CX_LIB(f, ff)                                                                                            \
    UFX_HD inline double f(double x) { return ::f(x); }                                                                \
    UFX_HD inline float f(float x) { return ::ff(x); }
#  define UFX_CX_LIB2(f, ff)                                                                                           \
    UFX_HD inline double f(double x, double y) { return ::f(x, y); }                                                   \
    UFX_HD inline float f(float x, float y) { return ::ff(x, y); }
#else
#  define UFX_CX_LIB(f, ff)                                                                                            \
    UFX_HD inline double f(double x) { return std::f(x); }                                                             \
    UFX_HD inline float f(float x) { return std::f(x); }
#  define UFX_CX_LIB2(f, ff)                                                                                           \
    UFX_HD inline double f(double x, double y) { return std::f(x, y); }                                                \
    UFX_HD inline float f(float x, float y) { return std::f(x, y); }
#endif
UFX_CX_LIB(exp, expf)
UFX_CX_LIB(log, logf)
UFX_CX_LIB(log1p, log1pf)
UFX_CX_LIB(sin, sinf)
UFX_CX_LIB(cos, cosf)
UFX_CX_LIB(sqrt, sqrtf)
UFX_CX_LIB2(hypot, hypotf)
UFX_CX_LIB2(atan2, atan2f)
UFX_CX_LIB2(copysign, copysignf)
#undef UFX_CX_LIB
#undef UFX_CX_LIB2
#if defined(__CUDA_ARCH__)
UFX_HD inline double fma(double a, double b, double c) { return ::fma(a, b, c); }
UFX_HD inline double mul_rn(double a, double b) { return __dmul_rn(a, b); } // a product nvcc never fuses into an add
#else
UFX_HD inline double fma(double a, double b, double c) { return std::fma(a, b, c); }
UFX_HD inline double mul_rn(double a, double b) { return a * b; } // used more than once: GCC fuses no add into it
#endif

template <class T>
UFX_HD inline bool finite(T v) {
  return v - v == T(0);
}

/// e^z: e^x (cos y + i sin y); y = 0 keeps its zero (e^x + 0i), e^x past double's range is e^(x/2) twice.
template <class T>
UFX_HD std::complex<T> exp(const std::complex<T>& z) {
  const double x = z.real(), y = z.imag(), inf = std::numeric_limits<double>::infinity();
  if (y == 0) return {T(cx::exp(x)), z.imag()};
  if (!finite(y)) {                                       // Annex G: (+inf, NaN), (0, 0), else NaN
    if (x == inf) return {T(x), T(y - y)};                // cexp(+inf + i inf) = +-inf + i NaN
    if (x == -inf) return {T(0), T(cx::copysign(0., y))}; // cexp(-inf + i inf) = +-0 +- 0i: glibc signs
    return {T(y - y), T(y - y)};
  }
  const double c = cx::cos(y), s = cx::sin(y);
  if (x > 709 && x < inf) {
    const double h = cx::exp(x / 2);
    return {T(h * c * h), T(h * s * h)};
  }
  const double e = cx::exp(x);
  return {T(e * c), T(e * s)};
}

/// log |z|: where 1/2 <= |z|^2 < 8 and |x| or |y| >= 1/2, log1p of |z|^2 - 1 formed without loss (the squares split
/// by fma, their sum by two_sum; its rounded part minus 1 is exact), as glibc's clog does near |z| = 1; elsewhere
/// log(hypot(x, y)).
UFX_HD inline double log_abs(double x, double y, bool exact_squares) {
  const double ax = x < 0 ? -x : x, ay = y < 0 ? -y : y;
  const double a = ax > ay ? ax : ay, b = ax > ay ? ay : ax;
  const double p = cx::mul_rn(a, a), q = cx::mul_rn(b, b), hi = p + q;
  if (!(a >= 0.5 && a < 2 && hi >= 0.5)) return cx::log(cx::hypot(x, y));        // NaN, infinities and far from 1 too
  const double bb = hi - p, lo = (p - (hi - bb)) + (q - bb);                     // hi + lo = p + q exactly
  const double err = exact_squares ? 0. : cx::fma(a, a, -p) + cx::fma(b, b, -q); // float parts: p, q exact
  return 0.5 * cx::log1p((hi - 1) + (lo + err));
}

/// log z = log |z| + i arg z.
template <class T>
UFX_HD std::complex<T> log(const std::complex<T>& z) {
  const double x = z.real(), y = z.imag();
  return {T(log_abs(x, y, sizeof(T) < sizeof(double))), T(cx::atan2(y, x))};
}

/// The principal square root, Kahan's way: t = sqrt((|x| + |z|) / 2), then y / 2t; scaled by 4^-1 or 4^54 at the ends
/// of double's range, where |x| + |z| would overflow or lose bits as a subnormal.
template <class T>
UFX_HD std::complex<T> sqrt(const std::complex<T>& z) {
  const T x = z.real(), y = z.imag();
  constexpr T inf = std::numeric_limits<T>::infinity();
  if (y == inf || y == -inf) return {inf, y};
  if (x != x) return {x, x};
  if (x == inf) return {x, y != y ? y : cx::copysign(T(0), y)};
  if (x == -inf) return {y != y ? y : T(0), cx::copysign(inf, y)};
  if (x == 0 && y == 0) return {T(0), y};
  double u = x, v = y, back = 1;
  const double au = u < 0 ? -u : u, av = v < 0 ? -v : v, a = au > av ? au : av;
  if (a > 0x1p1020) u *= 0x1p-2, v *= 0x1p-2, back = 2;
  else if (a < 0x1p-1020) u *= 0x1p108, v *= 0x1p108, back = 0x1p-54;
  const double t = cx::sqrt(((u < 0 ? -u : u) + cx::hypot(u, v)) * 0.5) * back;
  if (x >= 0) return {T(t), T(double(y) / (2 * t))};
  return {T(cx::copysign(double(y), 1.) / (2 * t)), T(cx::copysign(t, double(y)))};
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail::cx
