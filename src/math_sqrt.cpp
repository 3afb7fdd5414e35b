// ufx::math::sqrt's out-of-line vector functions (GCC, x86-64; see detail/math/exp_log.hpp).
//
// Where errno is kept (C's default, -fmath-errno), GCC turns std::sqrt into a scalar call it never vectorises. The
// header instead declares ufx_math_sqrtf / ufx_math_sqrt with __attribute__((simd("notinbranch"))): a vectorised loop
// over them calls the x86-64 vector ABI's variants below (libmvec's naming: _ZGV, then b SSE2, c AVX, d AVX2 or e
// AVX-512, N unmasked, the lane count, v one vector argument), one call per vector, each one sqrtps/sqrtpd, correctly
// rounded as the instruction is. A call per 16 floats costs what the instruction's throughput hides: measured as fast
// as the inline instruction under -fno-math-errno, at 2^12 and 2^16 floats. Written with intrinsics, not left to GCC's
// clones of a definition with the attribute: those were a scalar loop over the lanes for SSE2's doubles.
#if defined(__x86_64__)
#  include <immintrin.h>

// GCC 12's _mm512_sqrt_ps starts from _mm512_undefined_ps(), which -Wuninitialized reports
#  if defined(__GNUC__) && !defined(__clang__)
#    pragma GCC diagnostic ignored "-Wuninitialized"
#  endif

extern "C" {
// The scalar function: a loop the compiler did not vectorise, and its remainder.
float ufx_math_sqrtf(float x) { return _mm_cvtss_f32(_mm_sqrt_ss(_mm_set_ss(x))); }
double ufx_math_sqrt(double x) { return _mm_cvtsd_f64(_mm_sqrt_sd(_mm_setzero_pd(), _mm_set_sd(x))); }

__m128 _ZGVbN4v_ufx_math_sqrtf(__m128 x) { return _mm_sqrt_ps(x); }
__attribute__((target("avx"))) __m256 _ZGVcN8v_ufx_math_sqrtf(__m256 x) { return _mm256_sqrt_ps(x); }
__attribute__((target("avx2"))) __m256 _ZGVdN8v_ufx_math_sqrtf(__m256 x) { return _mm256_sqrt_ps(x); }
__attribute__((target("avx512f"))) __m512 _ZGVeN16v_ufx_math_sqrtf(__m512 x) { return _mm512_sqrt_ps(x); }

__m128d _ZGVbN2v_ufx_math_sqrt(__m128d x) { return _mm_sqrt_pd(x); }
__attribute__((target("avx"))) __m256d _ZGVcN4v_ufx_math_sqrt(__m256d x) { return _mm256_sqrt_pd(x); }
__attribute__((target("avx2"))) __m256d _ZGVdN4v_ufx_math_sqrt(__m256d x) { return _mm256_sqrt_pd(x); }
__attribute__((target("avx512f"))) __m512d _ZGVeN8v_ufx_math_sqrt(__m512d x) { return _mm512_sqrt_pd(x); }
}
#endif
