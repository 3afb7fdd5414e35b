#pragma once
/// \file axis.hpp
/// `ufx::axis{...}` and `ufx::keepdims`: which dimensions a reduction or a scan runs along.
///
///   sum(x, ufx::axis{0});                    // NumPy's axis=0
///   sum(x, ufx::axis{0, 2}, ufx::keepdims);  // axis=(0, 2), keepdims=True
///   sum(x, ufx::axis{-1});                   // negative axes count from the end
///
/// The number of axes is part of the type (`ufx::axis<2>`), so the result's rank is known at
/// compile time. Out-of-range and duplicated axes are run-time `ufx::shape_error`s, as in NumPy.

#include <concepts>
#include <cstddef>
#include <type_traits>

namespace ufx {

/// One or more axes, NumPy-style (negative values count from the last dimension).
template <int N>
struct axis {
  static_assert(N >= 1, "ufx::axis: name at least one axis");
  /// The axes, as given (not yet normalised against a rank).
  int v[N];

  /// The axes `i...` (one per axis, converted to int): `ufx::axis{0, 2}`.
  template <std::integral... I>
  requires(sizeof...(I) == static_cast<std::size_t>(N)) constexpr axis(I... i) : v{static_cast<int>(i)...} {}

  /// The number of axes, N.
  static constexpr int size() { return N; }
};

/// Deduces N from the number of axes: `ufx::axis{0, 2}` is a `ufx::axis<2>`.
template <std::integral... I>
axis(I...) -> axis<static_cast<int>(sizeof...(I))>;

/// Keeps reduced dimensions as extent 1 (NumPy's keepdims=True), so the result broadcasts
/// against the input.
struct keepdims_t {
  explicit constexpr keepdims_t() = default;
};
/// Pass to a reduction to keep its reduced dimensions as extent 1 (see keepdims_t).
inline constexpr keepdims_t keepdims{};

namespace detail {
template <class T>
struct axis_count : std::integral_constant<int, 0> {};
template <int N>
struct axis_count<axis<N>> : std::integral_constant<int, N> {};

template <class T>
inline constexpr bool is_axis_v = axis_count<std::remove_cvref_t<T>>::value > 0;
template <class T>
inline constexpr bool is_keepdims_v = std::is_same_v<std::remove_cvref_t<T>, keepdims_t>;
} // namespace detail

} // namespace ufx
