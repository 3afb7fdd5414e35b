#pragma once
/// \file detail/half/ops.hpp
/// What ufx::float16 and ufx::bfloat16 (ufx/half.hpp) share: their operators (written once, as
/// hidden friends of a base class), the bits that set the two apart, nextafter and spacing, and
/// std::numeric_limits's values.
#include "ufx/config.hpp"
#include "ufx/detail/half/convert.hpp"

#include <concepts>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace ufx {

struct float16;
struct bfloat16;

namespace detail {
/// `type`: the ufx type with the bits of the CUDA type C (`__half`, `__nv_bfloat16`); none for
/// other types, and for every type outside nvcc's translation units (where CUDA's are not known).
template <class C>
struct cuda_twin_of {};
#if defined(__CUDACC__)
template <>
struct cuda_twin_of<__half> {
  using type = float16;
};
template <>
struct cuda_twin_of<__nv_bfloat16> {
  using type = bfloat16;
};
#endif
/// C is the CUDA type with the bits of T. The members that use it are templates, so the class
/// definitions read the same in every translation unit, nvcc's or not.
template <class C, class T>
concept cuda_twin_for = std::same_as<typename cuda_twin_of<C>::type, T>;

/// float16 or bfloat16.
template <class T>
concept half_type = std::same_as<T, float16> || std::same_as<T, bfloat16>;

/// What `h op= x` takes: the arithmetic types and both 2-byte types.
template <class T>
concept half_operand = std::is_arithmetic_v<T> || half_type<T>;

/// The operators of float16 and bfloat16 (H), written once: hidden friends, found only when an
/// operand is an H.
template <class H>
struct half_ops {
  /// The sum, computed in float and rounded once (CUDA's `__hadd`).
  friend UFX_HD UFX_ALWAYS_INLINE constexpr H operator+(H a, H b) noexcept {
    return H(static_cast<float>(a) + static_cast<float>(b));
  }
  /// The difference, computed in float and rounded once (CUDA's `__hsub`).
  friend UFX_HD UFX_ALWAYS_INLINE constexpr H operator-(H a, H b) noexcept {
    return H(static_cast<float>(a) - static_cast<float>(b));
  }
  /// The product, computed in float and rounded once (CUDA's `__hmul`).
  friend UFX_HD UFX_ALWAYS_INLINE constexpr H operator*(H a, H b) noexcept {
    return H(static_cast<float>(a) * static_cast<float>(b));
  }
  /// The quotient, computed in float and rounded once (CUDA's `__hdiv`).
  friend UFX_HD UFX_ALWAYS_INLINE constexpr H operator/(H a, H b) noexcept {
    return H(static_cast<float>(a) / static_cast<float>(b));
  }

  /// With an integer: the integer converted to H first (NumPy's rule for a Python int).
  template <std::integral I>
  friend UFX_HD UFX_ALWAYS_INLINE constexpr H operator+(H a, I b) noexcept {
    return a + H(b);
  }
  /// With an integer: the integer converted to H first.
  template <std::integral I>
  friend UFX_HD UFX_ALWAYS_INLINE constexpr H operator+(I a, H b) noexcept {
    return H(a) + b;
  }
  /// With an integer: the integer converted to H first.
  template <std::integral I>
  friend UFX_HD UFX_ALWAYS_INLINE constexpr H operator-(H a, I b) noexcept {
    return a - H(b);
  }
  /// With an integer: the integer converted to H first.
  template <std::integral I>
  friend UFX_HD UFX_ALWAYS_INLINE constexpr H operator-(I a, H b) noexcept {
    return H(a) - b;
  }
  /// With an integer: the integer converted to H first.
  template <std::integral I>
  friend UFX_HD UFX_ALWAYS_INLINE constexpr H operator*(H a, I b) noexcept {
    return a * H(b);
  }
  /// With an integer: the integer converted to H first.
  template <std::integral I>
  friend UFX_HD UFX_ALWAYS_INLINE constexpr H operator*(I a, H b) noexcept {
    return H(a) * b;
  }
  /// With an integer: the integer converted to H first.
  template <std::integral I>
  friend UFX_HD UFX_ALWAYS_INLINE constexpr H operator/(H a, I b) noexcept {
    return a / H(b);
  }
  /// With an integer: the integer converted to H first.
  template <std::integral I>
  friend UFX_HD UFX_ALWAYS_INLINE constexpr H operator/(I a, H b) noexcept {
    return H(a) / b;
  }

  /// The sign bit flipped (NaNs and zeros too), exact.
  friend UFX_HD UFX_ALWAYS_INLINE constexpr H operator-(H a) noexcept {
    return H::from_bits(static_cast<std::uint16_t>(a.bits() ^ 0x8000u));
  }
  /// a itself.
  friend UFX_HD UFX_ALWAYS_INLINE constexpr H operator+(H a) noexcept { return a; }

  /// Equal values (+0 == -0; a NaN equals nothing).
  friend UFX_HD UFX_ALWAYS_INLINE constexpr bool operator==(H a, H b) noexcept {
    return static_cast<float>(a) == static_cast<float>(b);
  }
  /// Not equal (true when either is a NaN).
  friend UFX_HD UFX_ALWAYS_INLINE constexpr bool operator!=(H a, H b) noexcept { return !(a == b); }
  /// Ordered and less (false when either is a NaN).
  friend UFX_HD UFX_ALWAYS_INLINE constexpr bool operator<(H a, H b) noexcept {
    return static_cast<float>(a) < static_cast<float>(b);
  }
  /// Ordered and less or equal.
  friend UFX_HD UFX_ALWAYS_INLINE constexpr bool operator<=(H a, H b) noexcept {
    return static_cast<float>(a) <= static_cast<float>(b);
  }
  /// Ordered and greater.
  friend UFX_HD UFX_ALWAYS_INLINE constexpr bool operator>(H a, H b) noexcept {
    return static_cast<float>(a) > static_cast<float>(b);
  }
  /// Ordered and greater or equal.
  friend UFX_HD UFX_ALWAYS_INLINE constexpr bool operator>=(H a, H b) noexcept {
    return static_cast<float>(a) >= static_cast<float>(b);
  }

  /// `*this = H(*this + x)`, x any arithmetic type, float16 or bfloat16 (see the mixed rules).
  template <half_operand T>
  UFX_HD UFX_ALWAYS_INLINE constexpr H& operator+=(T x) noexcept {
    return self() = H(self() + x);
  }
  /// `*this = H(*this - x)`.
  template <half_operand T>
  UFX_HD UFX_ALWAYS_INLINE constexpr H& operator-=(T x) noexcept {
    return self() = H(self() - x);
  }
  /// `*this = H(*this * x)`.
  template <half_operand T>
  UFX_HD UFX_ALWAYS_INLINE constexpr H& operator*=(T x) noexcept {
    return self() = H(self() * x);
  }
  /// `*this = H(*this / x)`.
  template <half_operand T>
  UFX_HD UFX_ALWAYS_INLINE constexpr H& operator/=(T x) noexcept {
    return self() = H(self() / x);
  }

private:
  UFX_HD UFX_ALWAYS_INLINE constexpr H& self() noexcept { return static_cast<H&>(*this); }
};

/// The bits that set float16 and bfloat16 apart.
template <class H>
struct half_format;
template <>
struct half_format<float16> {
  static constexpr std::uint16_t inf = 0x7c00, quiet_nan = 0x7e00;
};
template <>
struct half_format<bfloat16> {
  static constexpr std::uint16_t inf = 0x7f80, quiet_nan = 0x7fc0;
};

template <class H>
UFX_HD UFX_ALWAYS_INLINE constexpr bool half_isnan(H x) noexcept {
  return (x.bits() & 0x7fffu) > half_format<H>::inf;
}
template <class H>
UFX_HD UFX_ALWAYS_INLINE constexpr H half_nextafter(H x, H y) noexcept {
  if (half_isnan(x) || half_isnan(y)) return H::from_bits(half_format<H>::quiet_nan);
  if (x == y) return x;
  const std::uint16_t b = x.bits();
  if ((b & 0x7fffu) == 0) return H::from_bits(static_cast<std::uint16_t>((y.bits() & 0x8000u) | 1u));
  // away from zero is one more in the bits, towards zero one less, whatever the sign
  const bool away = (x < y) == ((b & 0x8000u) == 0);
  return H::from_bits(static_cast<std::uint16_t>(away ? b + 1u : b - 1u));
}
template <class H>
UFX_HD UFX_ALWAYS_INLINE constexpr H half_spacing(H x) noexcept {
  if ((x.bits() & 0x7fffu) >= half_format<H>::inf) return H::from_bits(half_format<H>::quiet_nan);
  const H up = half_nextafter(x, H::from_bits(half_format<H>::inf));
  return H(static_cast<float>(up) - static_cast<float>(x)); // exact: a power of two, or inf
}

/// std::numeric_limits of float16 (B: binary16) and bfloat16: the values of NumPy's finfo.
template <class H, bool B>
struct half_limits {
  static constexpr bool is_specialized = true;
  static constexpr int digits = B ? 11 : 8;
  static constexpr int digits10 = B ? 3 : 2;
  static constexpr int max_digits10 = B ? 5 : 4;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr int radix = 2;
  static constexpr int min_exponent = B ? -13 : -125;
  static constexpr int min_exponent10 = B ? -4 : -37;
  static constexpr int max_exponent = B ? 16 : 128;
  static constexpr int max_exponent10 = B ? 4 : 38;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr bool has_signaling_NaN = true;
  static constexpr std::float_denorm_style has_denorm = std::denorm_present;
  static constexpr bool has_denorm_loss = false;
  static constexpr bool is_iec559 = B; // bfloat16 is no IEC 559 (IEEE 754) format
  static constexpr bool is_bounded = true;
  static constexpr bool is_modulo = false;
  static constexpr bool traps = false;
  static constexpr bool tinyness_before = false;
  static constexpr std::float_round_style round_style = std::round_to_nearest;
  /// The smallest positive normal value (finfo's tiny, smallest_normal): 2^-14, 2^-126.
  UFX_HD static constexpr H min() noexcept { return H::from_bits(B ? 0x0400 : 0x0080); }
  /// The largest finite value: 65504, 3.3895e38.
  UFX_HD static constexpr H max() noexcept { return H::from_bits(B ? 0x7bff : 0x7f7f); }
  /// -max().
  UFX_HD static constexpr H lowest() noexcept { return H::from_bits(B ? 0xfbff : 0xff7f); }
  /// The step from 1 to the next value (finfo's eps): 2^-10, 2^-7.
  UFX_HD static constexpr H epsilon() noexcept { return H::from_bits(B ? 0x1400 : 0x3c00); }
  /// 0.5.
  UFX_HD static constexpr H round_error() noexcept { return H::from_bits(B ? 0x3800 : 0x3f00); }
  /// +inf.
  UFX_HD static constexpr H infinity() noexcept { return H::from_bits(B ? 0x7c00 : 0x7f80); }
  /// The quiet NaN NumPy's np.float16(np.nan) and PyTorch's bfloat16 NaN have: 0x7e00, 0x7fc0.
  UFX_HD static constexpr H quiet_NaN() noexcept { return H::from_bits(B ? 0x7e00 : 0x7fc0); }
  /// A signalling NaN: 0x7d00, 0x7fa0.
  UFX_HD static constexpr H signaling_NaN() noexcept { return H::from_bits(B ? 0x7d00 : 0x7fa0); }
  /// The smallest positive subnormal (finfo's smallest_subnormal): 2^-24, 2^-133.
  UFX_HD static constexpr H denorm_min() noexcept { return H::from_bits(0x0001); }
};
} // namespace detail

} // namespace ufx
