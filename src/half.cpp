// float16 <-> float on the host (detail/half/convert.hpp): out-of-line functions that GCC calls one vector at a time
// from a vectorised loop, as ufx::math::sqrt does (src/math_sqrt.cpp). GCC 12 vectorises no conversion to or from
// _Float16 with F16C, nor the scalar vcvtph2ps / vcvtps2ph intrinsics, so a float16 loop with the conversions inline
// ran one element at a time; the header declares the two functions with __attribute__((simd("notinbranch"))), and a
// vectorised loop calls the x86-64 vector ABI's variants below (libmvec's naming: _ZGV, b SSE2, c AVX, d AVX2, e
// AVX-512, N unmasked, the lane count, v one vector argument). Each variant is F16C's vcvtph2ps / vcvtps2ph where the
// CPU has F16C (checked once, at start-up: the baseline build runs anywhere and uses it where it is), else the portable
// code lane by lane. Both give the same bits for every input (tests/test_half.cpp).
//
// The lanes of a float16 travel as 32-bit integers (the vector ABI of a 16-bit argument beside a 32-bit result is not
// one GCC 12 vectorises): ufx_half_to_float(uint32) -> float has float's lane count for each ISA (AVX's 8 lanes of
// integers in two 128-bit registers); ufx_float_to_half(float) -> uint32 has the integer's (AVX: 4).
#include <cstdint>

#define UFX_HALF_DEFINING_SIMD_CALLS 1 // the declarations below are the header's, without the simd attribute
#include "ufx/detail/half/convert.hpp"

#if UFX_HALF_SIMD_CALLS
#  include <immintrin.h>

// GCC 12's AVX-512 intrinsics start from _mm512_undefined_*(), which -Wuninitialized reports
#  pragma GCC diagnostic ignored "-Wuninitialized"

namespace {
namespace hb = ufx::detail::half_bits;

const bool has_f16c = [] {
  __builtin_cpu_init();
  return __builtin_cpu_supports("f16c") != 0;
}();

/// The portable code over the L lanes at h (32-bit float16 bits) into f (floats), and back: for a CPU without F16C.
template <int L>
void portable_to_float(const void* h, void* f) {
  std::uint32_t in[L];
  float out[L];
  __builtin_memcpy(in, h, sizeof in);
  for (int j = 0; j < L; ++j) out[j] = hb::bits_as<float>(hb::f16_to_f32_portable(static_cast<std::uint16_t>(in[j])));
  __builtin_memcpy(f, out, sizeof out);
}
template <int L>
void portable_to_half(const void* f, void* h) {
  float in[L];
  std::uint32_t out[L];
  __builtin_memcpy(in, f, sizeof in);
  for (int j = 0; j < L; ++j) out[j] = hb::f32_to_f16_portable(in[j]);
  __builtin_memcpy(h, out, sizeof out);
}

// with F16C: the 32-bit lanes narrowed to 16 (unsigned saturation keeps a value below 2^16 as it is), converted
__attribute__((target("f16c"))) __m128 b_to_float(__m128i h) { return _mm_cvtph_ps(_mm_packus_epi32(h, h)); }
__attribute__((target("f16c"))) __m128i b_to_half(__m128 f) {
  return _mm_unpacklo_epi16(_mm_cvtps_ph(f, _MM_FROUND_TO_NEAREST_INT), _mm_setzero_si128());
}
__attribute__((target("avx,f16c"))) __m256 c_to_float(__m128i lo, __m128i hi) {
  return _mm256_cvtph_ps(_mm_packus_epi32(lo, hi));
}
__attribute__((target("avx2,f16c"))) __m256 d_to_float(__m256i h) {
  return _mm256_cvtph_ps(_mm_packus_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1)));
}
__attribute__((target("avx2,f16c"))) __m256i d_to_half(__m256 f) {
  return _mm256_cvtepu16_epi32(_mm256_cvtps_ph(f, _MM_FROUND_TO_NEAREST_INT));
}
__attribute__((target("avx512f"))) __m512 e_to_float(__m512i h) { return _mm512_cvtph_ps(_mm512_cvtepi32_epi16(h)); }
__attribute__((target("avx512f"))) __m512i e_to_half(__m512 f) {
  return _mm512_cvtepu16_epi32(_mm512_cvtps_ph(f, _MM_FROUND_TO_NEAREST_INT));
}

} // namespace

extern "C" {
// The scalar functions: a loop the compiler did not vectorise, and its remainder.
float ufx_half_to_float(std::uint32_t h) noexcept {
  return hb::bits_as<float>(hb::f16_to_f32_portable(static_cast<std::uint16_t>(h)));
}
std::uint32_t ufx_float_to_half(float f) noexcept { return hb::f32_to_f16_portable(f); }

__m128 _ZGVbN4v_ufx_half_to_float(__m128i h) noexcept {
  if (has_f16c) return b_to_float(h);
  __m128 r;
  portable_to_float<4>(&h, &r);
  return r;
}
__m128i _ZGVbN4v_ufx_float_to_half(__m128 f) noexcept {
  if (has_f16c) return b_to_half(f);
  __m128i r;
  portable_to_half<4>(&f, &r);
  return r;
}
__attribute__((target("avx"))) __m256 _ZGVcN8v_ufx_half_to_float(__m128i lo, __m128i hi) noexcept {
  if (has_f16c) return c_to_float(lo, hi);
  const __m128i h[2] = {lo, hi};
  __m256 r;
  portable_to_float<8>(h, &r);
  return r;
}
__attribute__((target("avx"))) __m128i _ZGVcN4v_ufx_float_to_half(__m128 f) noexcept {
  return _ZGVbN4v_ufx_float_to_half(f);
}
__attribute__((target("avx2"))) __m256 _ZGVdN8v_ufx_half_to_float(__m256i h) noexcept {
  if (has_f16c) return d_to_float(h);
  __m256 r;
  portable_to_float<8>(&h, &r);
  return r;
}
__attribute__((target("avx2"))) __m256i _ZGVdN8v_ufx_float_to_half(__m256 f) noexcept {
  if (has_f16c) return d_to_half(f);
  __m256i r;
  portable_to_half<8>(&f, &r);
  return r;
}
// AVX-512F has the conversions itself
__attribute__((target("avx512f"))) __m512 _ZGVeN16v_ufx_half_to_float(__m512i h) noexcept { return e_to_float(h); }
__attribute__((target("avx512f"))) __m512i _ZGVeN16v_ufx_float_to_half(__m512 f) noexcept { return e_to_half(f); }
}
#endif
