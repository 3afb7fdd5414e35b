#pragma once
/// \file math.hpp
/// Math functions for vectorized functions: `ufx::math::exp`, `log`, `sin`, `cos`, `tanh`, `pow`
/// and `sqrt`, for float and double, callable on host and device (UFX_HD); `ufx::math::fast::exp`,
/// e^x in two instructions on the device within a stated bound; `hypot` and `atan2`; and for
/// `std::complex<float>` / `<double>`, NumPy's add, sub, mul, div, abs, arg, conj, exp, log and sqrt,
/// the same on every target (docs/element_types.md, "Complex": nvcc compiles std::complex's own
/// operators to nothing in device code).
///
/// On the host each is a branch-free polynomial kernel, inline in the header, so the loop
/// ufx::vectorize runs over a function that calls it is a vector loop with the compiler's plain
/// flags (-O2/-O3, no -ffast-math; -march=native or -mavx2 -mfma widens the vectors). std::exp in
/// the same place is a scalar library call unless -ffast-math lets glibc's vector functions in.
/// On the device they are CUDA's functions: expf, logf, sinf, cosf, tanhf, sqrtf and exp, log,
/// sin, cos, tanh, pow, sqrt; powf is pow of doubles rounded to float, as CUDA's powf may be 4 ulp
/// off. (Under nvcc's -use_fast_math, expf and friends become the faster, less accurate
/// intrinsics: the bound below then no longer holds on the device.)
///
/// Accuracy: within 2 ulp of the correctly rounded result (measured: docs/performance.md), with
/// C's special values: NaN in, NaN out; exp(-inf) = 0, exp(+inf) = inf, overflow to inf and
/// gradual underflow through the subnormals; log(0) = -inf, log(x < 0) = NaN; sin/tanh keep -0;
/// pow follows C's rules (pow(x, 0) = 1, pow(1, y) = 1, pow(-8, 1/3.) = NaN, pow(-2, 3) = -8, ...).
/// Domains: all of float/double, except sin and cos, accurate for |x| <= 1.6e6 (2^20 pi/2); past
/// that the host result is NaN (use std::sin there; CUDA's functions are accurate everywhere).
///
/// Example:
///   auto f = ufx::vectorize([] UFX_HD(float x) { return ufx::math::exp(-x * x); });
#include "ufx/config.hpp"

#if !defined(__CUDA_ARCH__)
#  include "ufx/detail/math/exp_log.hpp"
#  include "ufx/detail/math/pow.hpp"
#  include "ufx/detail/math/trig.hpp"
#endif

#include "ufx/detail/math/complex.hpp"

#include <complex>
#include <type_traits>

namespace ufx::math {
// named for the configuration (config.hpp): the host kernels fuse with -mfma
UFX_TU_NAMESPACE_BEGIN

/// \cond INTERNAL
// an integer argument is a double, as for std:: (ufx::math::exp(2) is exp(2.0))
#define UFX_MATH_INTEGRAL(name)                                                                                        \
  template <class I>                                                                                                   \
  requires std::is_integral_v<I> UFX_HD UFX_ALWAYS_INLINE double name(I x) { return name(static_cast<double>(x)); }

#if defined(__CUDA_ARCH__)
#  define UFX_MATH_ONE(name, host, devf, devd)                                                                         \
    UFX_HD UFX_ALWAYS_INLINE float name(float x) { return devf(x); }                                                   \
    UFX_HD UFX_ALWAYS_INLINE double name(double x) { return devd(x); }                                                 \
    UFX_MATH_INTEGRAL(name)
#else
#  define UFX_MATH_ONE(name, host, devf, devd)                                                                         \
    UFX_HD UFX_ALWAYS_INLINE float name(float x) { return ::ufx::detail::math::host(x); }                              \
    UFX_HD UFX_ALWAYS_INLINE double name(double x) { return ::ufx::detail::math::host(x); }                            \
    UFX_MATH_INTEGRAL(name)
#endif
/// \endcond

/// e^x
UFX_MATH_ONE(exp, exp_kernel, ::expf, ::exp)
/// The natural logarithm.
UFX_MATH_ONE(log, log_kernel, ::logf, ::log)
/// sin x, x in radians (accurate for |x| <= 1.6e6 on the host).
UFX_MATH_ONE(sin, sin_kernel, ::sinf, ::sin)
/// cos x, x in radians (accurate for |x| <= 1.6e6 on the host).
UFX_MATH_ONE(cos, cos_kernel, ::cosf, ::cos)
/// The hyperbolic tangent.
UFX_MATH_ONE(tanh, tanh_kernel, ::tanhf, ::tanh)
/// The square root, correctly rounded: the instruction on the device, under -fno-math-errno, and
/// with GCC on x86-64 (a vector loop calls libufx's sqrtps/sqrtpd functions, one per vector);
/// with other host compilers where errno is kept, a Newton iteration: float's in double, rounded
/// once (correctly rounded too), double's within 1 ulp.
UFX_MATH_ONE(sqrt, sqrt_kernel, ::sqrtf, ::sqrt)
#undef UFX_MATH_ONE
#undef UFX_MATH_INTEGRAL

/// x^y, with C's special cases.
UFX_HD UFX_ALWAYS_INLINE float pow(float x, float y) {
#if defined(__CUDA_ARCH__)
  return static_cast<float>(::pow(static_cast<double>(x), static_cast<double>(y)));
#else
  return ::ufx::detail::math::pow_kernel(x, y);
#endif
}
/// x^y, with C's special cases.
UFX_HD UFX_ALWAYS_INLINE double pow(double x, double y) {
#if defined(__CUDA_ARCH__)
  return ::pow(x, y);
#else
  return ::ufx::detail::math::pow_kernel(x, y);
#endif
}

/// x^y with mixed or integer arguments: in double, as std::pow promotes them.
template <class A, class B>
requires(std::is_arithmetic_v<A>&& std::is_arithmetic_v<B> &&
         !(std::is_same_v<A, B> && std::is_floating_point_v<A>)) UFX_HD UFX_ALWAYS_INLINE double pow(A x, B y) {
  return pow(static_cast<double>(x), static_cast<double>(y));
}

/// sqrt(x^2 + y^2) without overflow or underflow on the way (C's hypot: hypot(+-inf, NaN) = inf).
/// The library's: glibc's on the host (a scalar call), CUDA's on the device.
UFX_HD inline float hypot(float x, float y) { return ::ufx::detail::cx::hypot(x, y); }
/// sqrt(x^2 + y^2) without overflow or underflow on the way (C's hypot: hypot(+-inf, NaN) = inf).
UFX_HD inline double hypot(double x, double y) { return ::ufx::detail::cx::hypot(x, y); }
/// The angle of the point (x, y), in [-pi, pi], with C's signed zeros and infinities (glibc's / CUDA's).
UFX_HD inline float atan2(float y, float x) { return ::ufx::detail::cx::atan2(y, x); }
/// The angle of the point (x, y), in [-pi, pi], with C's signed zeros and infinities (glibc's / CUDA's).
UFX_HD inline double atan2(double y, double x) { return ::ufx::detail::cx::atan2(y, x); }

/// \name Complex numbers
/// For `std::complex<float>` and `std::complex<double>`: the same on every target, device code included, where
/// std::complex's own operators are not (nvcc compiles them to nothing: docs/element_types.md, "Complex"). Arithmetic
/// is NumPy's, in the element type; exp, log and sqrt compute in double and round once, with C99's special values
/// (Annex G, as np.exp, np.log and np.sqrt return them); abs is hypot and arg atan2 in the element
/// type, as NumPy's. Scalar library calls on the host (no vector loop).
/// @{

/// The real part.
template <class T>
UFX_HD constexpr T real(const std::complex<T>& z) {
  return z.real();
}
/// The imaginary part.
template <class T>
UFX_HD constexpr T imag(const std::complex<T>& z) {
  return z.imag();
}
/// The complex conjugate, x - iy.
template <class T>
UFX_HD constexpr std::complex<T> conj(const std::complex<T>& z) {
  return {z.real(), -z.imag()};
}
/// a + b.
template <class T>
UFX_HD constexpr std::complex<T> add(const std::complex<T>& a, const std::type_identity_t<std::complex<T>>& b) {
  return ::ufx::detail::cx::add(a, b);
}
/// a - b.
template <class T>
UFX_HD constexpr std::complex<T> sub(const std::complex<T>& a, const std::type_identity_t<std::complex<T>>& b) {
  return ::ufx::detail::cx::sub(a, b);
}
/// a * b as np.multiply: (ac - bd) + i(ad + bc), no recovery of infinities (inf * 1 is inf + NaN i).
template <class T>
UFX_HD constexpr std::complex<T> mul(const std::complex<T>& a, const std::type_identity_t<std::complex<T>>& b) {
  return ::ufx::detail::cx::mul(a, b);
}
/// a / b as np.divide: Smith's method; a zero divisor divides each part by +0 (1 / 0 is inf + NaN i).
template <class T>
UFX_HD constexpr std::complex<T> div(const std::complex<T>& a, const std::type_identity_t<std::complex<T>>& b) {
  return ::ufx::detail::cx::div(a, b);
}
/// |z|, as hypot(x, y) (np.abs): |inf + NaN i| = inf.
template <class T>
UFX_HD T abs(const std::complex<T>& z) {
  return ::ufx::detail::cx::hypot(z.real(), z.imag());
}
/// The argument, atan2(y, x) (np.angle).
template <class T>
UFX_HD T arg(const std::complex<T>& z) {
  return ::ufx::detail::cx::atan2(z.imag(), z.real());
}
/// e^z (np.exp; C's cexp).
template <class T>
UFX_HD std::complex<T> exp(const std::complex<T>& z) {
  return ::ufx::detail::cx::exp(z);
}
/// The principal logarithm, log|z| + i arg z (np.log; C's clog): log(0) = -inf + 0i.
template <class T>
UFX_HD std::complex<T> log(const std::complex<T>& z) {
  return ::ufx::detail::cx::log(z);
}
/// The principal square root, real part >= 0 (np.sqrt; C's csqrt).
template <class T>
UFX_HD std::complex<T> sqrt(const std::complex<T>& z) {
  return ::ufx::detail::cx::sqrt(z);
}
/// @}

/// Faster, less accurate functions for maps whose error budget allows them (the terms of a kernel
/// sum, weights): the same on every target where no faster form with the bound below exists.
namespace fast {
/// e^x in two instructions on the device: 2^(x log2 e) by the special-function unit
/// (ex2.approx.ftz), which is CUDA's __expf except that results below 2^-126 (x < -87.34) are 0.
/// Its error is that of __expf, at most 2 + 1.173 |x| ulp for results of 2^-126 and more; for
/// x <= 0 that is within 2^-22 e^x + 2^-24 in absolute terms (|x| e^x <= 1/e), so a sum of such
/// terms, each at most 1, loses no more than its own rounding does. exp(+inf) = inf, exp(-inf) = 0,
/// NaN gives NaN, overflow gives inf. On the CPU targets and the sim it is ufx::math::exp (within
/// 2 ulp), and so are both for double. tests/test_math.cpp measures the bound on every target.
UFX_HD UFX_ALWAYS_INLINE float exp(float x) {
#if defined(__CUDA_ARCH__)
  float r;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x * 1.44269504f));
  return r;
#else
  return ::ufx::detail::math::exp_kernel(x);
#endif
}
/// e^x for double: ufx::math::exp (the device has no faster double exp with a stated bound).
UFX_HD UFX_ALWAYS_INLINE double exp(double x) { return ::ufx::math::exp(x); }
} // namespace fast

UFX_TU_NAMESPACE_END
} // namespace ufx::math
