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

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <type_traits>

#include "ufx/config.hpp"
#include "ufx/detail/broadcast.hpp"
#include "ufx/detail/device_array_decl.hpp"
#include "ufx/errors.hpp"
#include "ufx/ndarray.hpp"
#include "ufx/ndview.hpp"

namespace ufx {

/// `start:stop:step` for one axis of `ufx::slice`, with NumPy's rules: negative start and stop
/// count from the end, out-of-range ones are clamped, a missing one (`{}` or `ufx::none`) means
/// the end the step walks from or to. `range{2, 5}` is `2:5`, `range{{}, {}, -1}` is `::-1`.
struct range {
  std::optional<index_t> start;
  std::optional<index_t> stop;
  index_t step = 1;
};

/// NumPy's None as a start or stop of a `ufx::range`.
inline constexpr std::nullopt_t none = std::nullopt;

/// `:` in `ufx::slice`: the whole axis.
struct all_t {};
inline constexpr all_t all{};

/// `np.newaxis` in `ufx::slice`: a new axis of extent 1.
struct newaxis_t {};
inline constexpr newaxis_t newaxis{};

namespace detail {
UFX_TU_NAMESPACE_BEGIN

template <class C>
struct view_traits {
  static constexpr bool source = false;
};
template <class T, int R>
struct view_traits<ndview<T, R>> {
  static constexpr bool source = true, owning = false;
  template <class U, int NR>
  using rebind = ndview<U, NR>;
};
template <class T, int R>
struct view_traits<device_view<T, R>> {
  static constexpr bool source = true, owning = false;
  template <class U, int NR>
  using rebind = device_view<U, NR>;
};
template <class T, int R>
struct view_traits<ndarray<T, R>> {
  static constexpr bool source = true, owning = true;
};
template <class T, int R>
struct view_traits<device_array<T, R>> {
  static constexpr bool source = true, owning = true;
};

/// What the view functions accept: ndview, device_view, ndarray, device_array.
template <class A>
concept view_source = view_traits<std::remove_cvref_t<A>>::source;

/// A temporary ndarray or device_array: a view of it would dangle.
template <class A>
concept owning_rvalue = view_source<A> && view_traits<std::remove_cvref_t<A>>::owning && !std::is_lvalue_reference_v<A>;

/// An argument that a view function takes.
template <class A>
concept viewable = view_source<A> && !owning_rvalue<A>;

/// The view an argument stands for: itself for a view, `view()` for an array (ndview<const T> for
/// a const ndarray; device_array's view is a device_view, as its `view()` gives).
template <class A>
auto source_view(const A& a) {
  if constexpr (view_traits<A>::owning) return a.view();
  else return a;
}
template <class T, int R>
ndview<T, R> source_view(ndarray<T, R>& a) {
  return a.view();
}

template <class A>
using source_view_t = decltype(source_view(std::declval<A&>()));

/// The view type of the same kind (host or device) with element type U and rank NR.
template <class V, class U, int NR>
using rebind_view_t = typename view_traits<V>::template rebind<U, NR>;

template <class V, int NR>
using view_of_rank_t = rebind_view_t<V, typename V::element_type, NR>;

template <std::size_t N>
std::string format_extents(const std::array<index_t, N>& a) {
  return format_shape(dims(a));
}

/// "(1,0,2)" for a list of axes (ints).
template <std::size_t N>
std::string format_axes(const std::array<int, N>& a) {
  std::string s = "(";
  for (int k = 0; k < static_cast<int>(N); ++k) {
    if (k) s += ',';
    s += std::to_string(a[static_cast<std::size_t>(k)]);
  }
  return s + (N == 1 ? ",)" : ")");
}

template <class V, int NR>
auto make_view(typename V::element_type* data, const std::array<index_t, static_cast<std::size_t>(NR)>& shape,
               const std::array<index_t, static_cast<std::size_t>(NR)>& strides) {
  return view_of_rank_t<V, NR>(data, shape, strides);
}

template <class V, std::size_t NR>
auto reshape_impl(const V& v, const index_t* req) {
  constexpr int R = V::rank;
  std::array<index_t, NR> shape{};
  for (std::size_t k = 0; k != NR; ++k) shape[k] = req[k];
  int unknown = -1;
  index_t known = 1;
  for (std::size_t k = 0; k != NR; ++k) {
    if (shape[k] == -1) {
      if (unknown >= 0)
        throw value_error("ufx::reshape: can only specify one unknown dimension (-1); the shape " + format_extents(shape) +
                          " has -1 at axes " + std::to_string(unknown) + " and " + std::to_string(k));
      unknown = static_cast<int>(k);
    } else if (shape[k] < 0) {
      throw value_error("ufx::reshape: the shape " + format_extents(shape) + " has a negative extent at axis " +
                        std::to_string(k));
    } else {
      known *= shape[k];
    }
  }
  const index_t n = v.size();
  const std::string from = "cannot reshape an array of shape " + format_extents(v.shape()) + " (size " + std::to_string(n) + ")";
  if (unknown >= 0) {
    if (known == 0 || n % known != 0)
      throw shape_error("ufx::reshape: " + from + " into shape " + format_extents(shape) + ": no extent at axis " +
                        std::to_string(unknown) + " makes the sizes equal");
    shape[static_cast<std::size_t>(unknown)] = n / known;
  } else if (known != n) {
    throw shape_error("ufx::reshape: " + from + " into shape " + format_extents(shape) + " (size " + std::to_string(known) + ")");
  }
  if (n > 0 && !v.is_contiguous())
    throw shape_error("ufx::reshape: the array of shape " + format_extents(v.shape()) + " has strides " +
                      format_extents(v.strides()) + " (in elements): it is not contiguous in C order, so no view of it has shape " +
                      format_extents(shape) + "; copy it first");
  std::array<index_t, NR> strides{};
  index_t s = 1;
  for (int k = static_cast<int>(NR) - 1; k >= 0; --k) {
    strides[static_cast<std::size_t>(k)] = s;
    s *= shape[static_cast<std::size_t>(k)];
  }
  (void)R;
  return make_view<V, static_cast<int>(NR)>(v.data(), shape, strides);
}

template <class V, std::size_t NR>
auto broadcast_to_impl(const V& v, const index_t* req) {
  constexpr int R = V::rank;
  static_assert(static_cast<int>(NR) >= R,
                "ufx::broadcast_to: the target shape has fewer axes than the array (broadcasting only adds axes on the left)");
  std::array<index_t, NR> shape{}, strides{};
  for (std::size_t k = 0; k != NR; ++k) shape[k] = req[k];
  for (std::size_t k = 0; k != NR; ++k)
    if (shape[k] < 0)
      throw value_error("ufx::broadcast_to: the shape " + format_extents(shape) + " has a negative extent at axis " +
                        std::to_string(k));
  for (int j = 0; j < R; ++j) {
    const std::size_t d = NR - static_cast<std::size_t>(R) + static_cast<std::size_t>(j);
    if (v.extent(j) == shape[d]) {
      strides[d] = v.stride(j);
    } else if (v.extent(j) == 1) {
      strides[d] = 0;
    } else {
      throw shape_error("ufx::broadcast_to: cannot broadcast an array of shape " + format_extents(v.shape()) + " to shape " +
                        format_extents(shape) + ": its axis " + std::to_string(j) + " has extent " +
                        std::to_string(v.extent(j)) + " where the target's axis " + std::to_string(d) + " has " +
                        std::to_string(shape[d]) + " (extents must be equal, or 1)");
    }
  }
  using C = const typename V::value_type;
  return rebind_view_t<V, C, static_cast<int>(NR)>(v.data(), shape, strides);
}

/// start, extent, step of NumPy's slice `r` over an axis of extent n (PySlice_AdjustIndices).
struct slice_axis {
  index_t start = 0, extent = 0, step = 1;
};
inline slice_axis adjust_slice(const range& r, index_t n) {
  const index_t step = r.step;
  auto adjust = [&](index_t i) {
    if (i < 0) {
      i += n;
      if (i < 0) i = step < 0 ? -1 : 0;
    } else if (i >= n) {
      i = step < 0 ? n - 1 : n;
    }
    return i;
  };
  const index_t start = r.start ? adjust(*r.start) : (step < 0 ? n - 1 : 0);
  const index_t stop = r.stop ? adjust(*r.stop) : (step < 0 ? -1 : n);
  index_t len = 0;
  if (step < 0) {
    if (stop < start) len = (start - stop - 1) / (-step) + 1;
  } else if (start < stop) {
    len = (stop - start - 1) / step + 1;
  }
  return {start, len, step};
}

template <class S>
inline constexpr bool is_index_v = std::is_integral_v<S> && !std::is_same_v<S, bool>;
template <class S>
inline constexpr bool is_slice_arg_v =
    is_index_v<S> || std::is_same_v<S, range> || std::is_same_v<S, all_t> || std::is_same_v<S, newaxis_t>;

/// The argument's axis: how many of the array's axes each slice argument consumes.
template <class S>
inline constexpr int consumes_v = std::is_same_v<S, newaxis_t> ? 0 : 1;
template <class S>
inline constexpr int produces_v = is_index_v<S> ? 0 : 1;

/// Walks the slice arguments: `in` is the array's next axis, `out` the view's next axis.
template <class V, std::size_t NR>
struct slicer {
  const V& v;
  index_t offset = 0;
  std::array<index_t, NR> shape{}, strides{};
  int in = 0;
  std::size_t out = 0;

  void operator()(all_t) {
    shape[out] = v.extent(in);
    strides[out++] = v.stride(in++);
  }
  void operator()(newaxis_t) {
    shape[out] = 1;
    strides[out++] = 0;
  }
  void operator()(const range& r) {
    if (r.step == 0) throw value_error("ufx::slice: the slice step of axis " + std::to_string(in) + " is zero (array of shape " +
                                       format_extents(v.shape()) + ")");
    const slice_axis a = adjust_slice(r, v.extent(in));
    if (a.extent > 0) offset += a.start * v.stride(in);
    shape[out] = a.extent;
    strides[out++] = a.step * v.stride(in++);
  }
  template <class I>
    requires is_index_v<I>
  void operator()(I i) {
    const index_t n = v.extent(in);
    const index_t k = static_cast<index_t>(i) < 0 ? static_cast<index_t>(i) + n : static_cast<index_t>(i);
    if (k < 0 || k >= n)
      throw shape_error("ufx::slice: index " + std::to_string(static_cast<index_t>(i)) + " is out of bounds for axis " +
                        std::to_string(in) + " with size " + std::to_string(n) + " (array of shape " +
                        format_extents(v.shape()) + ")");
    offset += k * v.stride(in++);
  }
};

UFX_TU_NAMESPACE_END
} // namespace detail

UFX_TU_NAMESPACE_BEGIN

// ---- reshape

/// NumPy's `a.reshape(shape)` for a C-contiguous array, as a view: `ufx::reshape(a, {2, -1})`.
/// One extent may be -1 (inferred from the size). A non-contiguous view: ufx::shape_error naming
/// its strides (copy it first); sizes that differ: ufx::shape_error naming both shapes.
template <std::size_t NR, class A>
  requires detail::viewable<A>
auto reshape(A&& a, const index_t (&shape)[NR]) {
  return detail::reshape_impl<detail::source_view_t<std::remove_reference_t<A>>, NR>(detail::source_view(a), shape);
}
template <std::size_t NR, class A>
  requires detail::viewable<A>
auto reshape(A&& a, const std::array<index_t, NR>& shape) {
  return detail::reshape_impl<detail::source_view_t<std::remove_reference_t<A>>, NR>(detail::source_view(a), shape.data());
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
  using V = detail::source_view_t<std::remove_reference_t<A>>;
  constexpr int R = V::rank;
  const V v = detail::source_view(a);
  std::array<index_t, R> shape{}, strides{};
  bool seen[R == 0 ? 1 : R] = {};
  for (int k = 0; k < R; ++k) {
    const int ax = axes[static_cast<std::size_t>(k)] < 0 ? axes[static_cast<std::size_t>(k)] + R : axes[static_cast<std::size_t>(k)];
    if (ax < 0 || ax >= R || seen[ax])
      throw value_error("ufx::permute: the axes " + detail::format_axes(axes) + " are not a permutation of the " +
                        std::to_string(R) + " axes of an array of shape " + detail::format_extents(v.shape()) + ": axis " +
                        std::to_string(axes[static_cast<std::size_t>(k)]) + " at position " + std::to_string(k) +
                        (ax < 0 || ax >= R ? " is out of range" : " repeats"));
    seen[ax] = true;
    shape[static_cast<std::size_t>(k)] = v.extent(ax);
    strides[static_cast<std::size_t>(k)] = v.stride(ax);
  }
  return detail::make_view<V, R>(v.data(), shape, strides);
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
/// A step of 0: ufx::value_error; an integer out of range: ufx::shape_error.
template <class A, class... S>
  requires(detail::viewable<A> && (detail::is_slice_arg_v<std::remove_cvref_t<S>> && ...))
auto slice(A&& a, const S&... s) {
  using V = detail::source_view_t<std::remove_reference_t<A>>;
  constexpr int R = V::rank;
  constexpr int used = (0 + ... + detail::consumes_v<std::remove_cvref_t<S>>);
  static_assert(used <= R, "ufx::slice: more indices than the array has axes");
  constexpr int NR = R - used + (0 + ... + detail::produces_v<std::remove_cvref_t<S>>);
  static_assert(NR <= max_rank, "ufx::slice: the view would have more than ufx::max_rank axes");
  const V v = detail::source_view(a);
  detail::slicer<V, static_cast<std::size_t>(NR)> w{v};
  (w(s), ...);
  while (w.in < R) w(all);
  return detail::make_view<V, NR>(v.data() + w.offset, w.shape, w.strides);
}
template <class A, class... S>
  requires detail::owning_rvalue<A>
void slice(A&& view_of_a_temporary_array_would_dangle, const S&... s) = delete;

// ---- expand_dims, squeeze

/// NumPy's `np.expand_dims(a, Axis)`: a new axis of extent 1 at position Axis of the result
/// (-1: last). `expand_dims<1>(x)` of a (n,) array is `x[:, np.newaxis]`, (n,1).
template <int Axis, class A>
  requires detail::viewable<A>
auto expand_dims(A&& a) {
  using V = detail::source_view_t<std::remove_reference_t<A>>;
  constexpr int R = V::rank;
  static_assert(Axis >= -(R + 1) && Axis <= R, "ufx::expand_dims: the axis is out of range for the result's rank (R + 1)");
  static_assert(R + 1 <= max_rank, "ufx::expand_dims: the view would have more than ufx::max_rank axes");
  constexpr int ax = Axis < 0 ? Axis + R + 1 : Axis;
  const V v = detail::source_view(a);
  std::array<index_t, R + 1> shape{}, strides{};
  for (int k = 0, j = 0; k <= R; ++k) {
    if (k == ax) {
      shape[static_cast<std::size_t>(k)] = 1;
      strides[static_cast<std::size_t>(k)] = 0;
    } else {
      shape[static_cast<std::size_t>(k)] = v.extent(j);
      strides[static_cast<std::size_t>(k)] = v.stride(j++);
    }
  }
  return detail::make_view<V, R + 1>(v.data(), shape, strides);
}
template <int Axis, class A>
  requires detail::owning_rvalue<A>
void expand_dims(A&& view_of_a_temporary_array_would_dangle) = delete;

/// NumPy's `np.squeeze(a, axis=Axis)`: drops axis Axis (negative: from the end), whose extent must
/// be 1 (else ufx::shape_error naming the axis and its extent).
template <int Axis, class A>
  requires detail::viewable<A>
auto squeeze(A&& a) {
  using V = detail::source_view_t<std::remove_reference_t<A>>;
  constexpr int R = V::rank;
  static_assert(Axis >= -R && Axis < R, "ufx::squeeze: the axis is out of range for the array's rank");
  constexpr int ax = Axis < 0 ? Axis + R : Axis;
  const V v = detail::source_view(a);
  if (v.extent(ax) != 1)
    throw shape_error("ufx::squeeze: cannot select an axis to squeeze out which has size not equal to one: axis " +
                      std::to_string(ax) + " of shape " + detail::format_extents(v.shape()) + " has extent " +
                      std::to_string(v.extent(ax)));
  std::array<index_t, R - 1> shape{}, strides{};
  for (int k = 0, j = 0; k < R; ++k) {
    if (k == ax) continue;
    shape[static_cast<std::size_t>(j)] = v.extent(k);
    strides[static_cast<std::size_t>(j++)] = v.stride(k);
  }
  return detail::make_view<V, R - 1>(v.data(), shape, strides);
}
template <int Axis, class A>
  requires detail::owning_rvalue<A>
void squeeze(A&& view_of_a_temporary_array_would_dangle) = delete;

// ---- broadcast_to

/// NumPy's `np.broadcast_to(a, shape)`: a read-only view (ndview<const T> or device_view<const T>,
/// as NumPy's is read-only, since many of its elements share memory) with stride 0 on the axes
/// broadcast. Shapes that do not broadcast: ufx::shape_error naming both shapes and the axis.
template <std::size_t NR, class A>
  requires detail::viewable<A>
auto broadcast_to(A&& a, const index_t (&shape)[NR]) {
  return detail::broadcast_to_impl<detail::source_view_t<std::remove_reference_t<A>>, NR>(detail::source_view(a), shape);
}
template <std::size_t NR, class A>
  requires detail::viewable<A>
auto broadcast_to(A&& a, const std::array<index_t, NR>& shape) {
  return detail::broadcast_to_impl<detail::source_view_t<std::remove_reference_t<A>>, NR>(detail::source_view(a), shape.data());
}
template <std::size_t NR, class A>
  requires detail::owning_rvalue<A>
void broadcast_to(A&& view_of_a_temporary_array_would_dangle, const index_t (&shape)[NR]) = delete;
template <std::size_t NR, class A>
  requires detail::owning_rvalue<A>
void broadcast_to(A&& view_of_a_temporary_array_would_dangle, const std::array<index_t, NR>& shape) = delete;

UFX_TU_NAMESPACE_END

} // namespace ufx
