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

/// The portable code, lane by lane, for a CPU without F16C.
void portable_to_float(const std::uint32_t* h, float* f, int n) {
  for (int j = 0; j < n; ++j) f[j] = hb::bits_as<float>(hb::f16_to_f32_portable(static_cast<std::uint16_t>(h[j])));
}
void portable_to_half(const float* f, std::uint32_t* h, int n) {
  for (int j = 0; j < n; ++j) h[j] = hb::f32_to_f16_portable(f[j]);
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
  alignas(16) std::uint32_t in[4];
  alignas(16) float out[4];
  _mm_store_si128(reinterpret_cast<__m128i*>(in), h);
  portable_to_float(in, out, 4);
  return _mm_load_ps(out);
}
__m128i _ZGVbN4v_ufx_float_to_half(__m128 f) noexcept {
  if (has_f16c) return b_to_half(f);
  alignas(16) float in[4];
  alignas(16) std::uint32_t out[4];
  _mm_store_ps(in, f);
  portable_to_half(in, out, 4);
  return _mm_load_si128(reinterpret_cast<const __m128i*>(out));
}
__attribute__((target("avx"))) __m256 _ZGVcN8v_ufx_half_to_float(__m128i lo, __m128i hi) noexcept {
  if (has_f16c) return c_to_float(lo, hi);
  alignas(32) std::uint32_t in[8];
  alignas(32) float out[8];
  _mm_store_si128(reinterpret_cast<__m128i*>(in), lo);
  _mm_store_si128(reinterpret_cast<__m128i*>(in + 4), hi);
  portable_to_float(in, out, 8);
  return _mm256_load_ps(out);
}
__attribute__((target("avx"))) __m128i _ZGVcN4v_ufx_float_to_half(__m128 f) noexcept {
  return _ZGVbN4v_ufx_float_to_half(f);
}
__attribute__((target("avx2"))) __m256 _ZGVdN8v_ufx_half_to_float(__m256i h) noexcept {
  if (has_f16c) return d_to_float(h);
  alignas(32) std::uint32_t in[8];
  alignas(32) float out[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(in), h);
  portable_to_float(in, out, 8);
  return _mm256_load_ps(out);
}
__attribute__((target("avx2"))) __m256i _ZGVdN8v_ufx_float_to_half(__m256 f) noexcept {
  if (has_f16c) return d_to_half(f);
  alignas(32) float in[8];
  alignas(32) std::uint32_t out[8];
  _mm256_store_ps(in, f);
  portable_to_half(in, out, 8);
  return _mm256_load_si256(reinterpret_cast<const __m256i*>(out));
}
// AVX-512F has the conversions itself
__attribute__((target("avx512f"))) __m512 _ZGVeN16v_ufx_half_to_float(__m512i h) noexcept { return e_to_float(h); }
__attribute__((target("avx512f"))) __m512i _ZGVeN16v_ufx_float_to_half(__m512 f) noexcept { return e_to_half(f); }
}
#endif
