#pragma once
/// \file math.hpp
/// Math functions for vectorized functions: `ufx::math::exp`, `log`, `sin`, `cos`, `tanh`, `pow`
/// and `sqrt`, for float and double, callable on host and device (UFX_HD); `ufx::math::fast::exp`,
/// e^x in two instructions on the device within a stated bound.
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
/// with other host compilers where errno is kept, a Newton iteration within 1 ulp.
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
