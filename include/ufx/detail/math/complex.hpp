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
#if defined(__CUDACC__)
#  include <cuda/std/complex>
#endif

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
UFX_CX_LIB(expm1, expm1f)
UFX_CX_LIB(log, logf)
UFX_CX_LIB(log1p, log1pf)
UFX_CX_LIB(rint, rintf)
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

// ---- NumPy's other complex functions (the ready ufuncs', ufuncs/ops.hpp) ----

/// \cond INTERNAL
// C99's complex function of the name: glibc's on the host (NumPy's complex loops call it: csin, csinf, ...), libcu++'s
// on the device (cuda::std, C99's special values, its own formulas).
#if defined(__CUDA_ARCH__)
#  define UFX_CX_C99(name, f)                                                                                          \
    template <class T>                                                                                                 \
    UFX_HD std::complex<T> name(const std::complex<T>& z) {                                                            \
      const auto r = ::cuda::std::f(::cuda::std::complex<T>(z.real(), z.imag()));                                      \
      return {r.real(), r.imag()};                                                                                     \
    }
#else
#  define UFX_CX_C99(name, f)                                                                                          \
    template <class T>                                                                                                 \
    UFX_HD std::complex<T> name(const std::complex<T>& z) {                                                            \
      return std::f(z);                                                                                                \
    }
#endif
/// \endcond
UFX_CX_C99(csin, sin)
UFX_CX_C99(ccos, cos)
UFX_CX_C99(ctan, tan)
UFX_CX_C99(casin, asin)
UFX_CX_C99(cacos, acos)
UFX_CX_C99(catan, atan)
UFX_CX_C99(csinh, sinh)
UFX_CX_C99(ccosh, cosh)
UFX_CX_C99(ctanh, tanh)
UFX_CX_C99(casinh, asinh)
UFX_CX_C99(cacosh, acosh)
UFX_CX_C99(catanh, atanh)
#undef UFX_CX_C99

/// np.expm1 of a complex number, NumPy's formula in T: (expm1(x) cos y - 2 sin^2(y/2), e^x sin y).
template <class T>
UFX_HD std::complex<T> cexpm1(const std::complex<T>& z) {
  const T x = z.real(), y = z.imag(), a = cx::sin(y / 2);
  return {cx::expm1(x) * cx::cos(y) - 2 * a * a, cx::exp(x) * cx::sin(y)};
}

/// np.log1p of a complex number, NumPy's formula in T: (log |z + 1|, arg(z + 1)).
template <class T>
UFX_HD std::complex<T> clog1p(const std::complex<T>& z) {
  const T x = z.real() + 1, y = z.imag();
  return {cx::log(cx::hypot(x, y)), cx::atan2(y, x)};
}

/// np.exp2, np.log2 and np.log10 of a complex number, NumPy's formulas: exp(z ln 2), log(z) log2(e), log(z) log10(e).
template <class T>
UFX_HD std::complex<T> cexp2(const std::complex<T>& z) {
  const T ln2 = T(0.693147180559945309417232121458176568);
  return cx::exp(std::complex<T>{z.real() * ln2, z.imag() * ln2});
}
template <class T>
UFX_HD std::complex<T> clog2(const std::complex<T>& z) {
  const T log2e = T(1.442695040888963407359924681001892137);
  const std::complex<T> l = cx::log(z);
  return {l.real() * log2e, l.imag() * log2e};
}
template <class T>
UFX_HD std::complex<T> clog10(const std::complex<T>& z) {
  const T log10e = T(0.434294481903251827651128918916605082);
  const std::complex<T> l = cx::log(z);
  return {l.real() * log10e, l.imag() * log10e};
}

/// np.rint of a complex number: each part to the nearest integer, ties to even.
template <class T>
UFX_HD std::complex<T> crint(const std::complex<T>& z) {
  return {cx::rint(z.real()), cx::rint(z.imag())};
}

/// C99's cpow (glibc's on the host, libcu++'s on the device).
template <class T>
UFX_HD std::complex<T> cpow_c99(const std::complex<T>& a, const std::complex<T>& b) {
#if defined(__CUDA_ARCH__)
  const auto r =
      ::cuda::std::pow(::cuda::std::complex<T>(a.real(), a.imag()), ::cuda::std::complex<T>(b.real(), b.imag()));
  return {r.real(), r.imag()};
#else
  return std::pow(a, b);
#endif
}

/// np.power of complex numbers, as NumPy's npy_cpow: b = 0 gives 1; a = 0 gives 0 for a real b > 0, else NaN; an
/// integer real b with |b| < 100 by repeated squaring (cx::mul, NumPy's textbook product) (b = 1, 2, 3 unrolled, which
/// keeps infinities), a negative one then 1 / that (NumPy's complex division, cx::div); anything else C99's cpow.
template <class T>
UFX_HD std::complex<T> cpow_numpy(const std::complex<T>& a, const std::complex<T>& b) {
  const T ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  if (br == 0 && bi == 0) return {T(1), T(0)};
  if (ar == 0 && ai == 0) {
    if (br > 0 && bi == 0) return {T(0), T(0)};
    const T nan = std::numeric_limits<T>::quiet_NaN();
    return {nan, nan};
  }
  if (bi == 0 && br > T(-100) && br < T(100)) {
    const long long n0 = static_cast<long long>(br);
    if (static_cast<T>(n0) == br) {
      if (n0 == 1) return a;
      if (n0 == 2) return cx::mul(a, a);
      if (n0 == 3) return cx::mul(cx::mul(a, a), a);
      long long n = n0 < 0 ? -n0 : n0, mask = 1;
      std::complex<T> acc{T(1), T(0)}, p = a;
      while (true) {
        if (n & mask) acc = cx::mul(acc, p);
        mask <<= 1;
        if (n < mask || mask <= 0) break;
        p = cx::mul(p, p);
      }
      if (br < 0) acc = cx::div(std::complex<T>{T(1), T(0)}, acc);
      return acc;
    }
  }
  return cpow_c99(a, b);
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail::cx
