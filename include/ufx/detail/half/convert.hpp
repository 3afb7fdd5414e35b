#pragma once
/// \file detail/half/convert.hpp
/// The bit conversions behind ufx::float16 and ufx::bfloat16 (ufx/half.hpp): IEEE binary16 and
/// bfloat16 from and to float, double and the integers, rounded to nearest even.
///
/// Every conversion has one portable definition on bits, used in constant expressions and on every
/// host; float <-> float16 on a GCC x86-64 host goes through libufx (src/half.cpp), whose vector
/// variants use F16C where the CPU has it, and nvcc's device pass uses the device's instructions for
/// float <-> float16 and float -> bfloat16; all give the same bits for every input, NaNs included
/// (tests/test_half.cpp compares them). NaN: a NaN stays a
/// NaN of the same sign; one converted to float16 or bfloat16 or from float16 to float comes out
/// quiet with the high bits of its payload, as IEEE 754 and the x86 instructions (vcvtps2ph,
/// vcvtph2ps, vcvtneps2bf16) have it; bfloat16 -> float is the exact widening (the bits shifted 16
/// left, as in CUDA, PyTorch and every bfloat16 library), which keeps a signalling NaN signalling.
/// NumPy's own float16 code passes signalling NaNs through unquieted: that is the one difference.
///
/// Every function here, and every member of the two types that calls one, is UFX_ALWAYS_INLINE: in
/// a loop the calls into libufx must be visible to GCC's vectoriser, and device code its own.
#include "ufx/config.hpp"

#include <cstddef>
#include <cstdint>
#include <type_traits>

#if defined(__CUDACC__)
#  include <cuda_bf16.h>
#  include <cuda_fp16.h>
#endif

/// \cond INTERNAL
// float <-> float16 on a GCC x86-64 host: two functions in libufx (src/half.cpp) with the simd attribute, so that a
// vectorised loop calls their vector variants one vector at a time, each F16C's vcvtph2ps / vcvtps2ph where the CPU
// has it (else the portable code). GCC 12 vectorises neither _Float16's conversions nor the scalar intrinsics, and
// inline portable code vectorised ran at a quarter of the instructions' speed. UFX_NO_SIMD_HALF (the same in every
// translation unit), another compiler or another CPU: the portable code inline. nvcc's device pass: the device's.
#if defined(__GNUC__) && !defined(__clang__) && !defined(__INTEL_COMPILER) && !defined(__INTEL_LLVM_COMPILER) &&       \
    defined(__x86_64__) && defined(__ELF__) && !defined(UFX_NO_SIMD_HALF)
#  define UFX_HALF_SIMD_CALLS 1
#  if !defined(UFX_HALF_DEFINING_SIMD_CALLS)
extern "C" {
__attribute__((simd("notinbranch"), const, leaf)) float ufx_half_to_float(std::uint32_t) noexcept;
__attribute__((simd("notinbranch"), const, leaf)) std::uint32_t ufx_float_to_half(float) noexcept;
}
#  endif
extern "C" {
// the float sum of n float16s (n >= 1) in detail/cpu/reduce_runs.hpp's pairwise order for leaves of `lanes` lanes
// (32, 64 or 128): the bits its generic tree gives
__attribute__((leaf, pure)) float ufx_halves_pairwise_sum(const void* halves, std::size_t n, int lanes) noexcept;
}
#else
#  define UFX_HALF_SIMD_CALLS 0
#endif
// The dense rows that stage float16 through float (detail/body/map.hpp) with F16C inline: a function compiled for
// AVX2 + F16C (GCC's target attribute, GCC's builtins: no <immintrin.h>), taken where the CPU has both (half_f16c_cpu).
#if UFX_HALF_SIMD_CALLS
#  define UFX_HALF_F16C_ROWS 1
#  define UFX_HALF_F16C_ROW __attribute__((target("avx2,f16c"), noinline)) UFX_HOST_FLATTEN
#  define UFX_HALF_F16C_INLINE __attribute__((target("avx2,f16c"), always_inline)) inline
namespace ufx::detail {
/// Whether this CPU runs the AVX2 + F16C rows (asked at run time in every build: one definition in a program that
/// links units built for other instruction sets, tests/isa_mix).
inline bool half_f16c_cpu() noexcept { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c"); }
} // namespace ufx::detail
#else
#  define UFX_HALF_F16C_ROWS 0
#endif
/// \endcond

namespace ufx::detail::half_bits {

/// Bits of one floating-point type as another of the same size (std::bit_cast, usable in device
/// code without nvcc's relaxed constexpr).
template <class To, class From>
UFX_HD UFX_ALWAYS_INLINE constexpr To bits_as(From f) noexcept {
  static_assert(sizeof(To) == sizeof(From));
  return __builtin_bit_cast(To, f);
}

/// Rounds the IEEE value with bits `u` (SM mantissa and SE exponent bits) to nearest even in the
/// 16-bit format with DM mantissa and DE exponent bits: overflow to infinity, subnormal results
/// kept, one rounding of the exact value (double -> float16 directly: through float would round
/// twice). A NaN becomes the quiet NaN of the same sign with the payload's high bits.
template <int DM, int DE, int SM, int SE, class U>
UFX_HD UFX_ALWAYS_INLINE constexpr std::uint16_t narrow(U u) noexcept {
  constexpr int width = 1 + SE + SM;
  constexpr U sign_bit = U(1) << (width - 1);
  constexpr U src_inf = ((U(1) << SE) - 1) << SM;
  constexpr int src_bias = (1 << (SE - 1)) - 1, dst_bias = (1 << (DE - 1)) - 1;
  constexpr std::uint32_t dst_inf = ((1u << DE) - 1) << DM;
  const auto sign = static_cast<std::uint32_t>((u & sign_bit) >> (width - 16));
  const U a = u & ~sign_bit;
  if (a > src_inf) // NaN
    return static_cast<std::uint16_t>(sign | dst_inf | (1u << (DM - 1)) |
                                      static_cast<std::uint32_t>((a >> (SM - DM)) & ((U(1) << DM) - 1)));
  // |x| >= 2^(dst_bias + 1): past the largest finite value, whatever the rounding
  if (a >= (U(src_bias + dst_bias + 1) << SM)) return static_cast<std::uint16_t>(sign | dst_inf);
  U m;
  int shift;
  if (a >= (U(src_bias - dst_bias + 1) << SM)) { // a normal result (or the largest rounding up to inf)
    m = a - (U(src_bias - dst_bias) << SM);      // the exponent rebiased: the bits are the result's
    shift = SM - DM;
  } else { // a subnormal result (or zero): the significand, shifted to the result's last place
    const int e = static_cast<int>(a >> SM);
    m = (a & ((U(1) << SM) - 1)) | (e != 0 ? U(1) << SM : U(0));
    shift = (1 - dst_bias - DM) - ((e != 0 ? e : 1) - src_bias - SM);
    if (shift > SM + 1) return static_cast<std::uint16_t>(sign); // below half the smallest subnormal
  }
  const U q = m >> shift, rest = m & ((U(1) << shift) - 1), tie = U(1) << (shift - 1);
  // a carry out of the significand steps the exponent, and out of the largest finite value to inf
  const U r = q + ((rest > tie || (rest == tie && (q & 1) != 0)) ? 1 : 0);
  return static_cast<std::uint16_t>(sign | static_cast<std::uint32_t>(r));
}

/// float16 bits -> float bits, exactly (NaN quieted, as vcvtph2ps does).
UFX_HD UFX_ALWAYS_INLINE constexpr std::uint32_t f16_to_f32_portable(std::uint16_t h) noexcept {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16, a = h & 0x7fffu;
  if (a >= 0x7c00u) return sign | 0x7f800000u | (a != 0x7c00u ? 0x400000u : 0u) | ((a & 0x3ffu) << 13);
  if (a >= 0x0400u) return sign | ((a << 13) + 0x38000000u); // normal: the exponent rebiased 15 -> 127
  // subnormal or zero: a * 2^-24, exact in float and never itself subnormal (so no DAZ/FTZ trouble)
  return sign | bits_as<std::uint32_t>(static_cast<float>(a) * 0x1p-24f);
}

/// float -> float16 bits, portable.
UFX_HD UFX_ALWAYS_INLINE constexpr std::uint16_t f32_to_f16_portable(float f) noexcept {
  return narrow<10, 5, 23, 8>(bits_as<std::uint32_t>(f));
}

/// float -> bfloat16 bits, portable: PyTorch's round_to_nearest_even (c10/util/BFloat16.h) for
/// numbers, whose carry also rounds to inf and through the subnormals; NaN quieted, sign kept.
UFX_HD UFX_ALWAYS_INLINE constexpr std::uint16_t f32_to_bf16_portable(float f) noexcept {
  const std::uint32_t u = bits_as<std::uint32_t>(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((u >> 16) | 0x40u);
  return static_cast<std::uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

/// float -> float16 bits.
UFX_HD UFX_ALWAYS_INLINE constexpr std::uint16_t f32_to_f16(float f) noexcept {
#if defined(__CUDA_ARCH__)
  if (!__builtin_is_constant_evaluated()) {
    const std::uint32_t u = bits_as<std::uint32_t>(f);
    const std::uint16_t r = __half_as_ushort(__float2half_rn(f));
    // cvt.rn.f16.f32 gives every NaN as 0x7fff: the host's NaN instead, so the bits are the host's
    return (u & 0x7fffffffu) > 0x7f800000u
               ? static_cast<std::uint16_t>(((u >> 16) & 0x8000u) | 0x7e00u | ((u >> 13) & 0x3ffu))
               : r;
  }
#elif UFX_HALF_SIMD_CALLS && !defined(UFX_HALF_DEFINING_SIMD_CALLS)
  if (!__builtin_is_constant_evaluated()) return static_cast<std::uint16_t>(::ufx_float_to_half(f));
#endif
  return f32_to_f16_portable(f);
}

/// float16 bits -> float.
UFX_HD UFX_ALWAYS_INLINE constexpr float f16_to_f32(std::uint16_t h) noexcept {
#if defined(__CUDA_ARCH__)
  if (!__builtin_is_constant_evaluated()) {
    const float r = __half2float(__ushort_as_half(h));
    return (h & 0x7fffu) > 0x7c00u ? bits_as<float>(f16_to_f32_portable(h)) : r; // the host's NaN bits
  }
#elif UFX_HALF_SIMD_CALLS && !defined(UFX_HALF_DEFINING_SIMD_CALLS)
  if (!__builtin_is_constant_evaluated()) return ::ufx_half_to_float(h);
#endif
  return bits_as<float>(f16_to_f32_portable(h));
}

/// float -> bfloat16 bits.
UFX_HD UFX_ALWAYS_INLINE constexpr std::uint16_t f32_to_bf16(float f) noexcept {
#if defined(__CUDA_ARCH__)
  if (!__builtin_is_constant_evaluated()) {
    const std::uint32_t u = bits_as<std::uint32_t>(f);
    const std::uint16_t r = __bfloat16_as_ushort(__float2bfloat16_rn(f));
    return (u & 0x7fffffffu) > 0x7f800000u ? static_cast<std::uint16_t>((u >> 16) | 0x40u) : r;
  }
#endif
  return f32_to_bf16_portable(f);
}

/// bfloat16 bits -> float: the exact widening.
UFX_HD UFX_ALWAYS_INLINE constexpr float bf16_to_f32(std::uint16_t b) noexcept {
  return bits_as<float>(static_cast<std::uint32_t>(b) << 16);
}

/// double -> float16 / bfloat16 bits: the portable code everywhere, device included (one rounding;
/// a double conversion is off every hot path, and the bits are then the host's by construction).
UFX_HD UFX_ALWAYS_INLINE constexpr std::uint16_t f64_to_f16(double d) noexcept {
  return narrow<10, 5, 52, 11>(bits_as<std::uint64_t>(d));
}
/// double -> bfloat16 bits, the same way.
UFX_HD UFX_ALWAYS_INLINE constexpr std::uint16_t f64_to_bf16(double d) noexcept {
  return narrow<7, 8, 52, 11>(bits_as<std::uint64_t>(d));
}

/// An integer as a double from which one rounding to a 16-bit format is the integer's own
/// rounding: exact up to 2^53; past that, rounded to odd (the bits shifted out kept as a sticky
/// last bit), which a second rounding to 8 or 11 bits cannot tell from the integer.
template <class I>
UFX_HD UFX_ALWAYS_INLINE constexpr double integer_for_rounding(I i) noexcept {
  if constexpr (sizeof(I) <= 4) {
    return static_cast<double>(i);
  } else {
    bool negative = false;
    if constexpr (std::is_signed_v<I>) negative = i < I(0);
    std::uint64_t m = negative ? std::uint64_t(0) - static_cast<std::uint64_t>(i) : static_cast<std::uint64_t>(i);
    double scale = 1;
    while ((m >> 53) != 0) m = (m >> 1) | (m & 1u), scale *= 2;
    const double d = static_cast<double>(m) * scale;
    return negative ? -d : d;
  }
}

} // namespace ufx::detail::half_bits
