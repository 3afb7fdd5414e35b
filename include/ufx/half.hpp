#pragma once
/// \file half.hpp
/// `ufx::float16` (IEEE 754 binary16, NumPy's float16, CUDA's `__half`) and `ufx::bfloat16`
/// (bfloat16, CUDA's `__nv_bfloat16`, PyTorch's torch.bfloat16): 2-byte types that hold the bits,
/// one type each in every translation unit of a program (g++, clang and nvcc, host and device
/// passes: nothing here changes a layout or a name), so a `.cpp` and a `.cu` file pass arrays of
/// them to each other, and a CUDA user's `__half*` is reinterpret_cast to `ufx::float16*`.
///
///   ufx::float16 h{0.1f};                 // 0x2e66, the nearest float16 (ties to even)
///   float f = h;                          // 0.0999755859375f: exact, implicit
///   ufx::float16 s = h + h * 2;           // float16 arithmetic, one rounding per operation
///   std::cout << s;                       // 0.2998, as NumPy prints np.float16 (str)
///
/// Conversions. From float, double and the integers: explicit, rounded to nearest even, once
/// (double converts directly, not through float, which would round twice), overflow to infinity,
/// subnormals kept; a NaN stays a NaN of its sign (quiet, the payload's high bits kept). To float:
/// implicit and exact, so a float16 goes wherever a float does (`std::sqrt(h)`, `float f = h;`),
/// as CUDA's `__half` and PyTorch's c10::Half convert; double and the integers come through float
/// (`static_cast<int>(h)` truncates as for a float). Lossless implicit, lossy explicit is C++23's
/// rule for std::float16_t and std::bfloat16_t too; `float16 x = 1.5f;` does not compile, write
/// `float16 x{1.5f}`. (Kokkos's half_t is the other way round, implicit from float and explicit to
/// it; mixed expressions there give the types they give here.)
/// float16 <-> bfloat16: explicit, through float (exact), so one rounding. The bits are the same
/// on every target: the host with or without F16C (src/half.cpp uses it where the CPU has it) and the CUDA device
/// (whose conversions use
/// `__float2half_rn`, `__half2float` and `__float2bfloat16_rn`). NaN details:
/// detail/half/convert.hpp.
///
/// Arithmetic: `+ - * /` (and `+= -= *= /=`) compute in float and round once to the type. Float's
/// 24 bits are at least twice the type's (11 or 8) plus 2, so that is the correctly rounded result
/// of each operation: the bits CUDA's native `__hadd`, `__hsub`, `__hmul`, `__hdiv` (and the
/// `__nv_bfloat16` ones) give, on every target alike. A NaN result is a NaN whose payload and sign
/// are the platform's float arithmetic's. Unary minus flips the sign bit (of a NaN too), as NumPy's
/// negative and CUDA's `__hneg`. Comparisons compare the values: a NaN is unordered (only != holds),
/// +0 == -0. All of this assumes IEEE float arithmetic underneath: under -ffast-math or nvcc's
/// -use_fast_math (approximate division, subnormals flushed) the results are the compiler's.
///
/// Mixed operands follow NumPy's rules (NEP 50), which are also PyTorch's for c10::Half:
/// - float16 with float gives float, with double gives double (float16 converts, exactly);
/// - float16 with a C++ integer gives float16: the integer converts to float16 first, as NumPy
///   converts a Python int (`h * 2`, `h + 1` stay float16; an integer from 65520 up is inf, so
///   `h / 100000` is 0: write `h / 100000.f` for a float result);
/// - float16 with bfloat16 gives float;
/// - `h op= x` is `h = float16(h op x)` for any of these x, as a float's `+=` of a double is.
/// The same with bfloat16 for float16 (whose range is float's: no integer overflows it).
///
/// Also: `std::numeric_limits` (NumPy's finfo values), `ufx::math::isnan`, `isinf`, `isfinite`,
/// `signbit`, `nextafter`, `spacing`, `std::hash`, and `operator<<` (NumPy's str()).
#include "ufx/config.hpp"
#include "ufx/detail/half/convert.hpp"
#include "ufx/detail/half/ops.hpp"
#include "ufx/detail/half/print.hpp"

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <ostream>
#include <type_traits>

namespace ufx {

/// IEEE 754 binary16: 1 sign, 5 exponent and 10 fraction bits; NumPy's float16, CUDA's `__half`.
/// Trivially copyable and standard-layout, 2 bytes aligned to 2. Range +-65504, smallest normal
/// 2^-14, smallest subnormal 2^-24, 11 significant bits (about 3.3 decimal digits).
struct float16 : detail::half_ops<float16> {
  /// Uninitialised, as a float (`float16{}` is +0).
  float16() = default;
  /// The float16 nearest x, ties to even.
  UFX_HD UFX_ALWAYS_INLINE constexpr explicit float16(float x) noexcept : bits_(detail::half_bits::f32_to_f16(x)) {}
  /// The float16 nearest x, ties to even, in one rounding.
  UFX_HD UFX_ALWAYS_INLINE constexpr explicit float16(double x) noexcept : bits_(detail::half_bits::f64_to_f16(x)) {}
  /// The float16 nearest i, ties to even (inf past 65519).
  template <std::integral I>
  UFX_HD UFX_ALWAYS_INLINE constexpr explicit float16(I i) noexcept
      : bits_(detail::half_bits::f64_to_f16(detail::half_bits::integer_for_rounding(i))) {}
  /// The same bits as CUDA's `__half` c (in nvcc's translation units).
  template <detail::cuda_twin_for<float16> C>
  UFX_HD UFX_ALWAYS_INLINE constexpr float16(C c) noexcept : bits_(detail::half_bits::bits_as<std::uint16_t>(c)) {}

  /// The float16 with these bits.
  UFX_HD UFX_ALWAYS_INLINE static constexpr float16 from_bits(std::uint16_t bits) noexcept {
    float16 h{};
    h.bits_ = bits;
    return h;
  }
  /// The bits.
  UFX_HD UFX_ALWAYS_INLINE constexpr std::uint16_t bits() const noexcept { return bits_; }

  /// The value as a float: exact, implicit (as CUDA's `__half` converts).
  UFX_HD UFX_ALWAYS_INLINE constexpr operator float() const noexcept { return detail::half_bits::f16_to_f32(bits_); }
  /// The same bits as a CUDA `__half`: `static_cast<__half>(h)` (in nvcc's translation units).
  template <detail::cuda_twin_for<float16> C>
  UFX_HD UFX_ALWAYS_INLINE constexpr explicit operator C() const noexcept {
    return detail::half_bits::bits_as<C>(bits_);
  }

private:
  std::uint16_t bits_;
};

/// bfloat16: 1 sign, 8 exponent and 7 fraction bits, the high half of a float; CUDA's
/// `__nv_bfloat16`, PyTorch's torch.bfloat16. Trivially copyable and standard-layout, 2 bytes
/// aligned to 2. Float's range (+-3.39e38, smallest normal 2^-126, smallest subnormal 2^-133) with
/// 8 significant bits (about 2.4 decimal digits).
struct bfloat16 : detail::half_ops<bfloat16> {
  /// Uninitialised, as a float (`bfloat16{}` is +0).
  bfloat16() = default;
  /// The bfloat16 nearest x, ties to even (PyTorch's round_to_nearest_even; a NaN stays a quiet
  /// NaN of its sign: 0x7fc0 for the usual float NaN, as PyTorch).
  UFX_HD UFX_ALWAYS_INLINE constexpr explicit bfloat16(float x) noexcept : bits_(detail::half_bits::f32_to_bf16(x)) {}
  /// The bfloat16 nearest x, ties to even, in one rounding.
  UFX_HD UFX_ALWAYS_INLINE constexpr explicit bfloat16(double x) noexcept : bits_(detail::half_bits::f64_to_bf16(x)) {}
  /// The bfloat16 nearest i, ties to even.
  template <std::integral I>
  UFX_HD UFX_ALWAYS_INLINE constexpr explicit bfloat16(I i) noexcept
      : bits_(detail::half_bits::f64_to_bf16(detail::half_bits::integer_for_rounding(i))) {}
  /// The same bits as CUDA's `__nv_bfloat16` c (in nvcc's translation units).
  template <detail::cuda_twin_for<bfloat16> C>
  UFX_HD UFX_ALWAYS_INLINE constexpr bfloat16(C c) noexcept : bits_(detail::half_bits::bits_as<std::uint16_t>(c)) {}

  /// The bfloat16 with these bits.
  UFX_HD UFX_ALWAYS_INLINE static constexpr bfloat16 from_bits(std::uint16_t bits) noexcept {
    bfloat16 h{};
    h.bits_ = bits;
    return h;
  }
  /// The bits.
  UFX_HD UFX_ALWAYS_INLINE constexpr std::uint16_t bits() const noexcept { return bits_; }

  /// The value as a float: exact (the bits shifted 16 left), implicit.
  UFX_HD UFX_ALWAYS_INLINE constexpr operator float() const noexcept { return detail::half_bits::bf16_to_f32(bits_); }
  /// The same bits as a CUDA `__nv_bfloat16` (in nvcc's translation units).
  template <detail::cuda_twin_for<bfloat16> C>
  UFX_HD UFX_ALWAYS_INLINE constexpr explicit operator C() const noexcept {
    return detail::half_bits::bits_as<C>(bits_);
  }

private:
  std::uint16_t bits_;
};

static_assert(sizeof(float16) == 2 && alignof(float16) == 2 && std::is_trivially_copyable_v<float16> &&
              std::is_standard_layout_v<float16> && std::is_trivially_default_constructible_v<float16>);
static_assert(sizeof(bfloat16) == 2 && alignof(bfloat16) == 2 && std::is_trivially_copyable_v<bfloat16> &&
              std::is_standard_layout_v<bfloat16> && std::is_trivially_default_constructible_v<bfloat16>);
#if defined(__CUDACC__)
// a CUDA user's __half* / __nv_bfloat16* read as ufx's types, and back, without a copy
static_assert(sizeof(__half) == sizeof(float16) && alignof(__half) == alignof(float16) &&
              std::is_trivially_copyable_v<__half>);
static_assert(sizeof(__nv_bfloat16) == sizeof(bfloat16) && alignof(__nv_bfloat16) == alignof(bfloat16) &&
              std::is_trivially_copyable_v<__nv_bfloat16>);
#endif

/// The scalar functions of float16 and bfloat16 that the ufuncs ufx::isnan, isinf, isfinite, signbit and nextafter
/// apply to arrays (ufx/ufuncs.hpp): `ufx::math::isnan(h)`, callable on host and device.
namespace math {
/// True for a NaN.
UFX_HD UFX_ALWAYS_INLINE constexpr bool isnan(float16 x) noexcept { return detail::half_isnan(x); }
/// True for a NaN.
UFX_HD UFX_ALWAYS_INLINE constexpr bool isnan(bfloat16 x) noexcept { return detail::half_isnan(x); }
/// True for +inf and -inf.
UFX_HD UFX_ALWAYS_INLINE constexpr bool isinf(float16 x) noexcept { return (x.bits() & 0x7fffu) == 0x7c00u; }
/// True for +inf and -inf.
UFX_HD UFX_ALWAYS_INLINE constexpr bool isinf(bfloat16 x) noexcept { return (x.bits() & 0x7fffu) == 0x7f80u; }
/// True for a number: neither infinite nor a NaN.
UFX_HD UFX_ALWAYS_INLINE constexpr bool isfinite(float16 x) noexcept { return (x.bits() & 0x7fffu) < 0x7c00u; }
/// True for a number: neither infinite nor a NaN.
UFX_HD UFX_ALWAYS_INLINE constexpr bool isfinite(bfloat16 x) noexcept { return (x.bits() & 0x7fffu) < 0x7f80u; }
/// True when the sign bit is set (-0 and negative NaNs included).
UFX_HD UFX_ALWAYS_INLINE constexpr bool signbit(float16 x) noexcept { return (x.bits() & 0x8000u) != 0; }
/// True when the sign bit is set (-0 and negative NaNs included).
UFX_HD UFX_ALWAYS_INLINE constexpr bool signbit(bfloat16 x) noexcept { return (x.bits() & 0x8000u) != 0; }

/// The next value after x towards y, as NumPy's np.nextafter on float16: y's sign of the smallest
/// subnormal from a zero; x itself when x == y (+0 and -0 included); the quiet NaN when either is a
/// NaN; inf after the largest finite value.
UFX_HD UFX_ALWAYS_INLINE constexpr float16 nextafter(float16 x, float16 y) noexcept {
  return detail::half_nextafter(x, y);
}
/// The next bfloat16 after x towards y, by float16's rules above.
UFX_HD UFX_ALWAYS_INLINE constexpr bfloat16 nextafter(bfloat16 x, bfloat16 y) noexcept {
  return detail::half_nextafter(x, y);
}
/// The distance from x to the next value up, `nextafter(x, inf) - x`, as NumPy's np.spacing on
/// float16 (npymath's npy_half_spacing): positive for negative x too (NumPy's float32 and float64
/// spacing of a negative x is the negative step away from zero; its float16 one is not); inf for
/// the largest finite value, the quiet NaN for infinities and NaNs.
UFX_HD UFX_ALWAYS_INLINE constexpr float16 spacing(float16 x) noexcept { return detail::half_spacing(x); }
/// `nextafter(x, inf) - x` for bfloat16, by float16's rules above.
UFX_HD UFX_ALWAYS_INLINE constexpr bfloat16 spacing(bfloat16 x) noexcept { return detail::half_spacing(x); }
} // namespace math

/// Writes x as NumPy's str() writes an np.float16: the shortest decimal that reads back as the same
/// bits (the closest of the shortest), positional from 1e-4 up to 1e16 with at least one digit after
/// the point ("0.1", "65500.0", "1.0"), scientific elsewhere ("6e-08", "6.104e-05"); "nan", "inf",
/// "-inf", "-0.0". Host only.
inline std::ostream& operator<<(std::ostream& os, float16 x) {
  const auto round = [](double d) { return detail::half_bits::f64_to_f16(d); };
  return os << detail::half_bits::numpy_str(static_cast<float>(x), x.bits(), round, 5);
}
/// The same for bfloat16 (NumPy has none): the shortest decimal that reads back as the same
/// bfloat16, in the same layout ("0.1" for bfloat16(0.1f), "3.39e+38" for the largest).
inline std::ostream& operator<<(std::ostream& os, bfloat16 x) {
  const auto round = [](double d) { return detail::half_bits::f64_to_bf16(d); };
  return os << detail::half_bits::numpy_str(static_cast<float>(x), x.bits(), round, 4);
}

} // namespace ufx

namespace std {
/// The limits of ufx::float16, with NumPy's np.finfo(np.float16) values.
template <>
struct numeric_limits<ufx::float16> : ufx::detail::half_limits<ufx::float16, true> {};
/// The limits of ufx::bfloat16.
template <>
struct numeric_limits<ufx::bfloat16> : ufx::detail::half_limits<ufx::bfloat16, false> {};

/// Hashes the value: +0 and -0 alike.
template <>
struct hash<ufx::float16> {
  /// The hash.
  std::size_t operator()(ufx::float16 x) const noexcept { return (x.bits() & 0x7fffu) == 0 ? 0 : x.bits(); }
};
/// Hashes the value: +0 and -0 alike.
template <>
struct hash<ufx::bfloat16> {
  /// The hash.
  std::size_t operator()(ufx::bfloat16 x) const noexcept { return (x.bits() & 0x7fffu) == 0 ? 0 : x.bits(); }
};
} // namespace std
