#pragma once
// Host kernels of ufx::math::exp, log, tanh and sqrt (float and double): a Cody-Waite reduction, a polynomial and a
// scaling, IEEE special values chosen by selects at the end, as Cephes, fdlibm, SLEEF and Eigen write them.
#include "ufx/detail/math/common.hpp"

// sqrt where errno is kept (C's default) and the compiler is GCC on x86-64: a function in libufx (src/math_sqrt.cpp)
// that GCC calls one vector at a time from a vectorised loop, through the x86-64 vector ABI's variants the simd
// attribute declares; each is sqrtps/sqrtpd. std::sqrt there is a scalar call no loop vectorises. UFX_NO_SIMD_SQRT (the
// same in every translation unit) or another compiler: the Newton kernel below.
#if defined(__GNUC__) && !defined(__clang__) && !defined(__INTEL_COMPILER) && defined(__x86_64__) &&                   \
    defined(__ELF__) && !defined(__NO_MATH_ERRNO__) && !defined(UFX_NO_SIMD_SQRT)
#  define UFX_MATH_SIMD_SQRT 1
extern "C" {
__attribute__((simd("notinbranch"), const, leaf)) float ufx_math_sqrtf(float) noexcept;
__attribute__((simd("notinbranch"), const, leaf)) double ufx_math_sqrt(double) noexcept;
}
#else
#  define UFX_MATH_SIMD_SQRT 0
#endif

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN
namespace math {

// float e^x in parts: x = n ln2 + r, |r| <= ln2/2 (ln2 split in 0.693359375, n times it exact, and the rest), e^r by
// Cephes' expf polynomial; e^x = 2^k e^r. exp_kernel and tanh_kernel scale it.
struct exp_parts_f {
  float r;
  std::int32_t k;
};
UFX_ALWAYS_INLINE exp_parts_f exp_reduce(float x) {
  const auto [n, k] = round_int(x * 1.44269504088896341f);
  return {mla(n, 2.12194440e-4f, mla(n, -0.693359375f, x)), k};
}
UFX_ALWAYS_INLINE float exp_reduced(float r) {
  constexpr float c[] = {5.0000001201e-1f, 1.6666665459e-1f, 4.1665795894e-2f,
                         8.3334519073e-3f, 1.3981999507e-3f, 1.9875691500e-4f};
  return mla(horner(r, c), r * r, r) + 1.f;
}

// exp: float as exp_parts_f; double the same with Taylor to degree 13 (error below 2^-57). `tail`, a small correction
// to x (pow's double-double product), defaults to -0 so r + tail folds to r (x + -0 is x for every x; x + 0 is not).
UFX_ALWAYS_INLINE float exp_kernel(float x, float tail = -0.f) {
  const bool x_in = abs(x) < 104.f, tail_in = abs(tail) < 1.f; // a NaN tail (from a product past the range) too
  const bool in = x_in & tail_in;
  x = clamp(x, -104.f, 104.f); // past these e^x is 0 or inf
  const auto [r, k] = exp_reduce(x);
  return scale(exp_reduced(r + select(in, tail, -0.f)), k);
}
UFX_ALWAYS_INLINE double exp_kernel(double x, double tail = 0) {
  const bool x_in = abs(x) < 750., tail_in = abs(tail) < 1.; // a NaN tail (from a product past the range) too
  const bool in = x_in & tail_in;
  x = clamp(x, -750., 750.);
  const auto [n, k] = round_int(x * 1.44269504088896338700e+00);
  double r = x - n * 6.93147180369123816490e-01; // exact: n * ln2_hi is exact and close to x
  r = mla(n, -1.90821492927058770002e-10, r) + select(in, tail, 0.);
  constexpr double c[] = {1. / 2,         1. / 6,          1. / 24,         1. / 120,     1. / 720,
                          1. / 5040,      1. / 40320,      1. / 362880,     1. / 3628800, 1. / 39916800,
                          1. / 479001600, 1. / 6227020800, 1. / 87178291200};
  const double p = mla(horner(r, c), r * r, r) + 1.;
  return scale(p, k);
}

// log: x = 2^k m, m in [sqrt(1/2), sqrt(2)) (musl's offset trick), f = m - 1 exact, subnormals scaled up first. float:
// a polynomial in f (log_kernel); double: fdlibm's, s = f / (2 + f), log(1 + f) = f - (f^2/2 - s (f^2/2 + R(s^2))).
template <class T>
struct log_parts {
  T f, k; // x = 2^k (1 + f)
};
template <class T>
UFX_ALWAYS_INLINE log_parts<T> log_reduce(T x) {
  using I = int_of<T>;
  // Subnormals are scaled by 2^extra. The exponent's correction is read back from the scale, not chosen again by the
  // condition, and no arithmetic sits under a condition: either would leave a branch in the loop (-ftrapping-math, the
  // default, forbids speculating arithmetic).
  const T scale = select(x < std::numeric_limits<T>::min(), pow2<T>(fp<T>::mant + 2), T(1));
  const I one = bits(T(1)), rt = bits(T(0.70710678118654752440));
  // unsigned: inf's and NaN's bits would overflow a signed sum (their result is log_special's)
  using U = std::make_unsigned_t<I>;
  const I i = static_cast<I>(static_cast<U>(bits(x * scale)) + static_cast<U>(one - rt));
  const I k = (i >> fp<T>::mant) - (bits(scale) >> fp<T>::mant);
  const T m = from_bits<T>((i & ((I(1) << fp<T>::mant) - 1)) + rt);
  if constexpr (sizeof(T) == 4)
    return {m - T(1), static_cast<T>(k)}; // one conversion (SSE2 has it for 32-bit integers)
  else return {m - T(1), to_float<T>(k)};
}
// r where x is positive and finite; otherwise -inf for +-0, NaN below 0, inf for inf and x for a NaN
template <class T>
UFX_ALWAYS_INLINE T log_special(T x, T r) {
  constexpr T inf = std::numeric_limits<T>::infinity();
  const T s = select(x < 0, std::numeric_limits<T>::quiet_NaN(), select(x == 0, -inf, x));
  return select((x > 0) & (x < inf), r, s);
}
// float: log(1 + f) = f - f^2/2 + f^3 P(f), P of degree 7 fitted on [sqrt(1/2) - 1, sqrt(2) - 1] for relative error
// 2^-27.3, each coefficient rounded to float before refitting the rest (Cephes' logf: degree 8 for about the same).
UFX_ALWAYS_INLINE float log_kernel(float x) {
  const auto [f, k] = log_reduce(x);
  constexpr float c[] = {0x1.555554p-2f, -0x1.000226p-2f, 0x1.99a01cp-3f, -0x1.54728ap-3f,
                         0x1.22d92ap-3f, -0x1.0d823ap-3f, 0x1.055efap-3f, -0x1.38cacap-4f};
  const float z = f * f;
  const float y = mla(horner(f, c) * f, z, -0.5f * z); // f^3 P - f^2/2
#if defined(__FMA__) || defined(__aarch64__)
  // k ln2 + (f + y) rounded once: ln 2 as a float is 2^-28.4 off, at most 0.1 ulp of the result
  const float r = std::fma(k, 0x1.62e43p-1f, f + y);
#else
  // ln 2 = 0.693359375 - 2.12194440e-4, k times the first exact (Cephes)
  const float r = mla(k, 0.693359375f, f + mla(k, -2.12194440e-4f, y));
#endif
  return log_special(x, r);
}
UFX_ALWAYS_INLINE double log_kernel(double x) {
  const auto [f, k] = log_reduce(x);
  const double s = f / (2. + f), z = s * s, w = z * z;
  constexpr double odd[] = {6.666666666666735130e-01, 2.857142874366239149e-01, 1.818357216161805012e-01,
                            1.479819860511658591e-01};
  constexpr double even[] = {3.999999999940941908e-01, 2.222219843214978396e-01, 1.531383769920937332e-01};
  const double R = z * horner(w, odd) + w * horner(w, even);
  const double hfsq = 0.5 * f * f;
  const double r = k * 6.93147180369123816490e-01 - ((hfsq - (s * (hfsq + R) + k * 1.90821492927058770002e-10)) - f);
  return log_special(x, r);
}

// tanh: for |x| < 0.625 an odd polynomial (float, Cephes' tanhf) or rational function (double, Cephes' tanh); past it 1
// - 2 / (e^(2|x|) + 1). Both are computed and one chosen.
UFX_ALWAYS_INLINE double tanh_far(double x) {
  const double e = exp_kernel(2. * clamp(abs(x), 0., 40.));
  return copysign(1. - 2. / (e + 1.), x);
}
UFX_ALWAYS_INLINE float tanh_kernel(float x) {
  constexpr float c[] = {-3.33332819422e-1f, 1.33314422036e-1f, -5.37397155531e-2f, 2.06390887954e-2f,
                         -5.70498872745e-3f};
  const float a = abs(x), z = x * x;
  const float near = mla(horner(z, c) * z, a, a);
  // e^(2a), a <= 9 (tanh 9 rounds to 1; a NaN stays one): exp_kernel's steps without range checks, 2^k in one step
  const auto [r, k] = exp_reduce(2.f * select(a > 9.f, 9.f, a));
  const float far = 1.f - 2.f / mla(exp_reduced(r), pow2<float>(k), 1.f);
  return copysign(select(a < 0.625f, near, far), x); // tanh(-0) = -0
}
UFX_ALWAYS_INLINE double tanh_kernel(double x) {
  constexpr double p[] = {-1.61468768441708447952e3, -9.92877231001918586564e1, -9.64399179425052238628e-1};
  constexpr double q[] = {4.84406305325125486048e3, 2.23548839060100448583e3, 1.12811678491632931402e2, 1.};
  const double z = x * x;
  const double near = mla(x * z, horner(z, p) / horner(z, q), x);
  return copysign(select(abs(x) < 0.625, near, tanh_far(x)), x);
}

// sqrt without the instruction: Newton's iteration on 1/sqrt(x) from a bit-trick guess, then a correction step on the
// root (within 1 ulp). sqrt_kernel's choice off GCC/x86-64 when errno is kept; tested on its own everywhere.
template <class T>
UFX_ALWAYS_INLINE T sqrt_newton(T x) {
  using I = int_of<T>;
  // Subnormals (and the two smallest binades, whose halves are subnormal) are scaled up by an even power of two (the
  // guess reads the exponent field), undone on the root by half that power: both constants chosen by one comparison.
  constexpr int extra = 2 * (fp<T>::mant / 2 + 2);
  const bool sub = x < pow2<T>(3 - fp<T>::bias);
  const T xs = x * select(sub, pow2<T>(extra), T(1));
  const T unscale = select(sub, pow2<T>(-extra / 2), T(1));
  constexpr I magic = sizeof(T) == 4 ? I(0x5f375a86) : I(0x5fe6eb50c7b537a9);
  using U = std::make_unsigned_t<I>; // a negative or NaN xs: wraps (its result is chosen below), no signed overflow
  T y = from_bits<T>(static_cast<I>(U(magic) - U(bits(xs) >> 1))); // 1/sqrt(xs) within 3.5%
  // Each step squares the relative error (times 1.5): 2^-9, 2^-18, 2^-35. float stops at 2^-18, double at 2^-35: the
  // correction step on the root squares it once more, past the type's precision. (h y) y, not h (y y): y^2 is subnormal
  // for xs near the largest finite value.
  const T h = T(0.5) * xs;
  for (int it = 0; it < (sizeof(T) == 4 ? 2 : 3); ++it) y = y * mla(-(h * y), y, T(1.5));
  // s + (xs - s^2) y / 2, as (h - (s/2) s) y: s^2 would overflow for xs near the largest value
  T s = xs * y;
  s = mla(mla(-(T(0.5) * s), s, h), y, s);
  s *= unscale;
  // s where x is positive and finite; otherwise x itself (+-0, inf, NaN), or NaN below 0
  constexpr T inf = std::numeric_limits<T>::infinity();
  return select((x > 0) & (x < inf), s, select(x < 0, std::numeric_limits<T>::quiet_NaN(), x));
}

// sqrt: the instruction, correctly rounded, where the compiler may use it in a vector loop: inline when it knows errno
// need not be set (-fno-math-errno, -ffast-math: std::sqrt vectorises), through libufx's vector functions on GCC/x86-64
// otherwise; elsewhere the Newton kernel: double's within 1 ulp, float's in double and rounded once, which is correctly
// rounded (the root of a float is never within 2^-51, relatively, of a midpoint between floats: for a midpoint
// m = M 2^k, M odd, of 25 bits, x - m^2 is a nonzero multiple of 2^2k; the double root is within 2^-52).
template <class T>
UFX_ALWAYS_INLINE T sqrt_kernel(T x) {
#if defined(__NO_MATH_ERRNO__)
  return std::sqrt(x);
#elif UFX_MATH_SIMD_SQRT
  if constexpr (sizeof(T) == 4) return ::ufx_math_sqrtf(x);
  else return ::ufx_math_sqrt(x);
#else
  if constexpr (sizeof(T) == 4) return static_cast<float>(sqrt_newton(static_cast<double>(x)));
  else return sqrt_newton(x);
#endif
}

} // namespace math
UFX_TU_NAMESPACE_END
} // namespace ufx::detail
