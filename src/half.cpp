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
#include <cstddef>
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

// The portable paths as functions of their own (cold, never inlined), each with its variant's ISA and vector
// arguments: a variant's F16C path is then its instruction and a return, with no stack frame (the first version
// called out to the instructions and spilled to a realigned stack: the call cost more than the conversion).
#  define UFX_PORTABLE(isa, name, R, A, lanes, fn)                                                                     \
    __attribute__((target(isa), noinline, cold)) R name(A x) {                                                         \
      R r;                                                                                                             \
      fn<lanes>(&x, &r);                                                                                               \
      return r;                                                                                                        \
    }
UFX_PORTABLE("sse2", b_portable_to_float, __m128, __m128i, 4, portable_to_float)
UFX_PORTABLE("sse2", b_portable_to_half, __m128i, __m128, 4, portable_to_half)
UFX_PORTABLE("avx2", d_portable_to_float, __m256, __m256i, 8, portable_to_float)
UFX_PORTABLE("avx2", d_portable_to_half, __m256i, __m256, 8, portable_to_half)
#  undef UFX_PORTABLE
__attribute__((noinline, cold)) float portable_half_to_float(std::uint32_t h) {
  return hb::bits_as<float>(hb::f16_to_f32_portable(static_cast<std::uint16_t>(h)));
}
__attribute__((noinline, cold)) std::uint32_t portable_float_to_half(float f) { return hb::f32_to_f16_portable(f); }
__attribute__((target("avx"), noinline, cold)) __m256 c_portable_to_float(__m128i lo, __m128i hi) {
  const __m128i h[2] = {lo, hi};
  __m256 r;
  portable_to_float<8>(h, &r);
  return r;
}

// A float16 sum of one run (ufx_halves_pairwise_sum) in the order of detail/cpu/reduce_runs.hpp's pairwise tree and
// its generic leaf, for a leaf of L lanes: the run split at a multiple of L until 16 L elements or fewer; a leaf's lane
// j adds elements j, j + L, ... in order, the lanes then combine as acc[j] += acc[j + w] for w = L/2 .. 1, and the
// elements past the last whole block join one by one; a leaf shorter than L adds its elements in order. The same
// float operations in the same order give the same bits wherever they run; here F16C converts and adds 8 lanes an
// instruction, and the tree stays in libufx (a call per leaf, its lanes stored and combined in the caller, cost a
// fifth of the sum's time).
float half_at(const std::uint16_t* h, std::size_t i) { return hb::bits_as<float>(hb::f16_to_f32_portable(h[i])); }

// where the tree splits a run of n > 16 L elements
template <int L>
std::size_t split_of(std::size_t n) {
  const std::size_t n2 = n / 2;
  return n2 - n2 % L;
}

template <int L>
float portable_leaf(const std::uint16_t* h, std::size_t n) {
  if (n < static_cast<std::size_t>(L)) {
    float s = half_at(h, 0);
    for (std::size_t i = 1; i < n; ++i) s += half_at(h, i);
    return s;
  }
  float acc[L];
  for (int j = 0; j < L; ++j) acc[j] = half_at(h, j);
  const std::size_t whole = n / L * L;
  for (std::size_t b = L; b < whole; b += L)
    for (int j = 0; j < L; ++j) acc[j] += half_at(h, b + j);
  for (int w = L / 2; w >= 1; w /= 2)
    for (int j = 0; j < w; ++j) acc[j] += acc[j + w];
  float s = acc[0];
  for (std::size_t i = whole; i < n; ++i) s += half_at(h, i);
  return s;
}

template <int L>
float portable_sum(const std::uint16_t* h, std::size_t n) {
  if (n <= 16 * static_cast<std::size_t>(L)) return portable_leaf<L>(h, n);
  const std::size_t n2 = split_of<L>(n);
  return portable_sum<L>(h, n2) + portable_sum<L>(h + n2, n - n2);
}

template <int L>
__attribute__((target("avx,f16c"))) float c_leaf(const std::uint16_t* h, std::size_t n) {
  if (n < static_cast<std::size_t>(L)) {
    float s = _cvtsh_ss(h[0]);
    for (std::size_t i = 1; i < n; ++i) s += _cvtsh_ss(h[i]);
    return s;
  }
  constexpr int V = L / 8;
  __m256 a[V];
  for (int k = 0; k < V; ++k) a[k] = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(h + 8 * k)));
  const std::size_t whole = n / L * L;
  for (std::size_t b = L; b < whole; b += L)
    for (int k = 0; k < V; ++k)
      a[k] = _mm256_add_ps(a[k], _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(h + b + 8 * k))));
  for (int w = V / 2; w >= 1; w /= 2) // lanes L/2 .. 8 apart: whole vectors
    for (int k = 0; k < w; ++k) a[k] = _mm256_add_ps(a[k], a[k + w]);
  __m128 v = _mm_add_ps(_mm256_castps256_ps128(a[0]), _mm256_extractf128_ps(a[0], 1)); // 4 apart
  v = _mm_add_ps(v, _mm_movehl_ps(v, v));                                              // 2 apart
  v = _mm_add_ss(v, _mm_shuffle_ps(v, v, 1));                                          // 1 apart
  float s = _mm_cvtss_f32(v);
  for (std::size_t i = whole; i < n; ++i) s += _cvtsh_ss(h[i]);
  return s;
}

template <int L>
__attribute__((target("avx,f16c"))) float c_sum(const std::uint16_t* h, std::size_t n) {
  if (n <= 16 * static_cast<std::size_t>(L)) return c_leaf<L>(h, n);
  const std::size_t n2 = split_of<L>(n);
  return c_sum<L>(h, n2) + c_sum<L>(h + n2, n - n2);
}

} // namespace

extern "C" {
// The scalar functions: a loop the compiler did not vectorise, and its remainder (F16C's scalar forms where it is).
__attribute__((target("f16c"))) float ufx_half_to_float(std::uint32_t h) noexcept {
  if (__builtin_expect(!has_f16c, 0)) return portable_half_to_float(h);
  return _cvtsh_ss(static_cast<unsigned short>(h));
}
__attribute__((target("f16c"))) std::uint32_t ufx_float_to_half(float f) noexcept {
  if (__builtin_expect(!has_f16c, 0)) return portable_float_to_half(f);
  return _cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT);
}

float ufx_halves_pairwise_sum(const void* halves, std::size_t n, int lanes) noexcept {
  const auto* h = static_cast<const std::uint16_t*>(halves);
  switch (lanes) {
  case 32: return has_f16c ? c_sum<32>(h, n) : portable_sum<32>(h, n);
  case 64: return has_f16c ? c_sum<64>(h, n) : portable_sum<64>(h, n);
  default: return has_f16c ? c_sum<128>(h, n) : portable_sum<128>(h, n);
  }
}

// Each variant is compiled with F16C (the 32-bit lanes narrowed to 16 by unsigned saturation, which keeps a value
// below 2^16 as it is) and branches to its portable function where the CPU lacks it.
__attribute__((target("f16c"))) __m128 _ZGVbN4v_ufx_half_to_float(__m128i h) noexcept {
  if (__builtin_expect(!has_f16c, 0)) return b_portable_to_float(h);
  return _mm_cvtph_ps(_mm_packus_epi32(h, h));
}
__attribute__((target("f16c"))) __m128i _ZGVbN4v_ufx_float_to_half(__m128 f) noexcept {
  if (__builtin_expect(!has_f16c, 0)) return b_portable_to_half(f);
  return _mm_unpacklo_epi16(_mm_cvtps_ph(f, _MM_FROUND_TO_NEAREST_INT), _mm_setzero_si128());
}
__attribute__((target("avx,f16c"))) __m256 _ZGVcN8v_ufx_half_to_float(__m128i lo, __m128i hi) noexcept {
  if (__builtin_expect(!has_f16c, 0)) return c_portable_to_float(lo, hi);
  return _mm256_cvtph_ps(_mm_packus_epi32(lo, hi));
}
__attribute__((target("avx,f16c"))) __m128i _ZGVcN4v_ufx_float_to_half(__m128 f) noexcept {
  return _ZGVbN4v_ufx_float_to_half(f); // AVX's 4 lanes are SSE2's (inlined: the same instructions)
}
__attribute__((target("avx2,f16c"))) __m256 _ZGVdN8v_ufx_half_to_float(__m256i h) noexcept {
  if (__builtin_expect(!has_f16c, 0)) return d_portable_to_float(h);
  return _mm256_cvtph_ps(_mm_packus_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1)));
}
__attribute__((target("avx2,f16c"))) __m256i _ZGVdN8v_ufx_float_to_half(__m256 f) noexcept {
  if (__builtin_expect(!has_f16c, 0)) return d_portable_to_half(f);
  return _mm256_cvtepu16_epi32(_mm256_cvtps_ph(f, _MM_FROUND_TO_NEAREST_INT));
}
// AVX-512F has the conversions itself
__attribute__((target("avx512f"))) __m512 _ZGVeN16v_ufx_half_to_float(__m512i h) noexcept {
  return _mm512_cvtph_ps(_mm512_cvtepi32_epi16(h));
}
__attribute__((target("avx512f"))) __m512i _ZGVeN16v_ufx_float_to_half(__m512 f) noexcept {
  return _mm512_cvtepu16_epi32(_mm512_cvtps_ph(f, _MM_FROUND_TO_NEAREST_INT));
}
}
#endif
