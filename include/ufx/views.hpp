#pragma once
/// \file views.hpp
/// Views without copies, in NumPy's vocabulary: `reshape`, `transpose`, `permute`, `slice`,
/// `expand_dims`, `squeeze`, `broadcast_to`. Each takes an `ndview`, a `device_view`, an
/// `ndarray` or a `device_array` and returns a view of the same memory: an `ndview` for host
/// data, a `device_view` for device data (so calls on it run on its device, as on the array).
/// A temporary owning array is refused at compile time (its view would dangle).
///
///   ufx::ndarray<float, 1> x = ufx::arange<float>(6);
///   auto m = ufx::reshape(x, {2, -1});               // (2,3), the extent -1 inferred
///   auto t = ufx::transpose(m);                       // (3,2), strides (1,3)
///   auto r = ufx::slice(x, ufx::range{{}, {}, -1});   // x[::-1]
///   auto c = ufx::expand_dims<1>(x);                  // x[:, np.newaxis]: (6,1)
///   auto b = ufx::broadcast_to(x, {4, 6});            // (4,6), read-only, stride 0 on axis 0
///
/// Errors. reshape of a non-contiguous view, sizes that differ, squeeze of an extent other than 1,
/// shapes that do not broadcast, an index out of range: ufx::shape_error. A step of 0, a bad
/// permutation, more than one -1 in a shape: ufx::value_error. Each message names the shape and the axis.
///
/// Targets. None: a view function computes a shape and strides on the host and reads no element,
/// so it takes device data as it takes host data (the memory is never touched).

#include <array>
#include <cstddef>
#include <optional>
#include <type_traits>

#include "ufx/config.hpp"
#include "ufx/ndview.hpp"

namespace ufx {

/// `start:stop:step` for one axis of `ufx::slice`, with NumPy's rules: negative start and stop
/// count from the end, out-of-range ones are clamped, a missing one (`{}` or `ufx::none`) means
/// the end the step walks from or to. `range{2, 5}` is `2:5`, `range{{}, {}, -1}` is `::-1`.
struct range {
  /// The first index (negative: from the end); none: the end the step walks from.
  std::optional<index_t> start;
  /// The index to stop before (negative: from the end); none: the end the step walks to.
  std::optional<index_t> stop;
  /// The step; 0 is a ufx::value_error when sliced.
  index_t step = 1;
};

/// NumPy's None as a start or stop of a `ufx::range`.
inline constexpr std::nullopt_t none = std::nullopt;

/// `:` in `ufx::slice`: the whole axis.
struct all_t {};
/// `:` in `ufx::slice`: the whole axis.
inline constexpr all_t all{};

/// `np.newaxis` in `ufx::slice`: a new axis of extent 1.
struct newaxis_t {};
/// `np.newaxis` in `ufx::slice`: a new axis of extent 1.
inline constexpr newaxis_t newaxis{};

} // namespace ufx

// the bodies, after the slice arguments above, which they take
#include "ufx/detail/arrays/views.hpp"

namespace ufx {
UFX_TU_NAMESPACE_BEGIN

// ---- reshape

/// NumPy's `a.reshape(shape)` for a C-contiguous array, as a view: `ufx::reshape(a, {2, -1})`.
/// One extent may be -1 (inferred from the size). A non-contiguous view: ufx::shape_error naming
/// its strides (copy it first); sizes that differ: ufx::shape_error naming both shapes; a negative
/// extent other than -1, or two -1: ufx::value_error.
template <std::size_t NR, class A>
requires detail::viewable<A>
auto reshape(A&& a, const index_t (&shape)[NR]) {
  return detail::reshape_impl<detail::source_view_t<std::remove_reference_t<A>>, NR>(detail::source_view(a), shape);
}
/// The same with the shape as a std::array.
template <std::size_t NR, class A>
requires detail::viewable<A>
auto reshape(A&& a, const std::array<index_t, NR>& shape) {
  return detail::reshape_impl<detail::source_view_t<std::remove_reference_t<A>>, NR>(detail::source_view(a),
                                                                                     shape.data());
}
// A view of a temporary array would dangle: keep the array in a variable.
template <std::size_t NR, class A>
requires detail::owning_rvalue<A>
void reshape(A&& view_of_a_temporary_array_would_dangle, const index_t (&shape)[NR]) = delete;
template <std::size_t NR, class A>
requires detail::owning_rvalue<A>
void reshape(A&& view_of_a_temporary_array_would_dangle, const std::array<index_t, NR>& shape) = delete;

// ---- transpose, permute

/// NumPy's `np.transpose(a, axes)`: view axis k is the array's axis `axes[k]` (negative axes count
/// from the end). Axes that are not a permutation of 0..R-1: ufx::value_error naming them.
template <class A>
requires detail::viewable<A>
auto permute(A&& a, const std::array<int, static_cast<std::size_t>(std::remove_cvref_t<A>::rank)>& axes) {
  return detail::permute_impl(detail::source_view(a), axes);
}
template <class A>
requires detail::owning_rvalue<A>
void permute(A&& view_of_a_temporary_array_would_dangle,
             const std::array<int, static_cast<std::size_t>(std::remove_cvref_t<A>::rank)>& axes) = delete;

/// NumPy's `a.T` / `np.transpose(a)`: the axes in reverse order.
template <class A>
requires detail::viewable<A>
auto transpose(A&& a) {
  constexpr int R = std::remove_cvref_t<A>::rank;
  std::array<int, R> axes{};
  for (int k = 0; k < R; ++k) axes[static_cast<std::size_t>(k)] = R - 1 - k;
  return permute(a, axes);
}
template <class A>
requires detail::owning_rvalue<A>
void transpose(A&& view_of_a_temporary_array_would_dangle) = delete;

// ---- slice

/// NumPy's basic indexing `a[s0, s1, ...]` as a view: one argument per axis from the first, each a
/// `ufx::range{start, stop, step}`, `ufx::all` (`:`), an integer (picks one element along the
/// axis and drops it) or `ufx::newaxis` (a new axis of extent 1); axes not named are whole.
/// A step of 0: ufx::value_error; an integer out of range: ufx::shape_error. More indices than
/// the array has axes, or a view of more than ufx::max_rank axes: a compile-time error.
template <class A, class... S>
requires(detail::viewable<A> && (detail::is_slice_arg_v<std::remove_cvref_t<S>> && ...)) auto slice(A&& a,
                                                                                                    const S&... s) {
  return detail::slice_impl(detail::source_view(a), s...);
}
template <class A, class... S>
requires detail::owning_rvalue<A>
void slice(A&& view_of_a_temporary_array_would_dangle, const S&... s) = delete;

// ---- expand_dims, squeeze

/// NumPy's `np.expand_dims(a, Axis)`: a new axis of extent 1 at position Axis of the result
/// (-1: last). `expand_dims<1>(x)` of a (n,) array is `x[:, np.newaxis]`, (n,1). An Axis out of
/// range, or a view of more than ufx::max_rank axes: a compile-time error.
template <int Axis, class A>
requires detail::viewable<A>
auto expand_dims(A&& a) { return detail::expand_dims_impl<Axis>(detail::source_view(a)); }
template <int Axis, class A>
requires detail::owning_rvalue<A>
void expand_dims(A&& view_of_a_temporary_array_would_dangle) = delete;

/// NumPy's `np.squeeze(a, axis=Axis)`: drops axis Axis (negative: from the end), whose extent must
/// be 1 (else ufx::shape_error naming the axis and its extent). An Axis out of range: a
/// compile-time error.
template <int Axis, class A>
requires detail::viewable<A>
auto squeeze(A&& a) { return detail::squeeze_impl<Axis>(detail::source_view(a)); }
template <int Axis, class A>
requires detail::owning_rvalue<A>
void squeeze(A&& view_of_a_temporary_array_would_dangle) = delete;

// ---- broadcast_to

/// NumPy's `np.broadcast_to(a, shape)`: a read-only view (ndview<const T> or device_view<const T>,
/// as NumPy's is read-only, since many of its elements share memory) with stride 0 on the axes
/// broadcast. Shapes that do not broadcast: ufx::shape_error naming both shapes and the axis; a
/// negative extent: ufx::value_error; fewer axes than the array's: a compile-time error.
template <std::size_t NR, class A>
requires detail::viewable<A>
auto broadcast_to(A&& a, const index_t (&shape)[NR]) {
  return detail::broadcast_to_impl<detail::source_view_t<std::remove_reference_t<A>>, NR>(detail::source_view(a),
                                                                                          shape);
}
/// The same with the shape as a std::array.
template <std::size_t NR, class A>
requires detail::viewable<A>
auto broadcast_to(A&& a, const std::array<index_t, NR>& shape) {
  return detail::broadcast_to_impl<detail::source_view_t<std::remove_reference_t<A>>, NR>(detail::source_view(a),
                                                                                          shape.data());
}
template <std::size_t NR, class A>
requires detail::owning_rvalue<A>
void broadcast_to(A&& view_of_a_temporary_array_would_dangle, const index_t (&shape)[NR]) = delete;
template <std::size_t NR, class A>
requires detail::owning_rvalue<A>
void broadcast_to(A&& view_of_a_temporary_array_would_dangle, const std::array<index_t, NR>& shape) = delete;

UFX_TU_NAMESPACE_END

} // namespace ufx
