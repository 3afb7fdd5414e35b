#pragma once
// The bodies of ufx/views.hpp: which arguments the view functions take, and each view's shape and strides over the same
// memory. Included by ufx/views.hpp after the slicer's arguments (ufx::range, ufx::all_t, ufx::newaxis_t).
#include <array>
#include <cstddef>
#include <string>
#include <type_traits>

#include "ufx/config.hpp"
#include "ufx/detail/core/broadcast.hpp"
#include "ufx/device_array.hpp"
#include "ufx/errors.hpp"
#include "ufx/ndarray.hpp"
#include "ufx/ndview.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <class C>
struct view_traits {
  static constexpr bool source = false;
};
/// A view or array type C<T, R>: `rebind` is the type of the same kind with element type U and rank NR.
template <template <class, int> class C, bool Owning>
struct view_kind {
  static constexpr bool source = true, owning = Owning;
  template <class U, int NR>
  using rebind = C<U, NR>;
};
template <class T, int R>
struct view_traits<ndview<T, R>> : view_kind<ndview, false> {};
template <class T, int R>
struct view_traits<device_view<T, R>> : view_kind<device_view, false> {};
template <class T, int R>
struct view_traits<ndarray<T, R>> : view_kind<ndarray, true> {};
template <class T, int R>
struct view_traits<device_array<T, R>> : view_kind<device_array, true> {};

/// What the view functions accept: ndview, device_view, ndarray, device_array.
template <class A>
concept view_source = view_traits<std::remove_cvref_t<A>>::source;

/// A temporary ndarray or device_array: a view of it would dangle.
template <class A>
concept owning_rvalue = view_source<A> && view_traits<std::remove_cvref_t<A>>::owning && !std::is_lvalue_reference_v<A>;

template <class A>
concept viewable = view_source<A> && !owning_rvalue<A>;

/// The view an argument stands for: itself for a view, `view()` for an array (ndview<const T> for a const ndarray;
/// device_array's view is a device_view, as its `view()` gives).
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
  return rebind_view_t<V, typename V::element_type, NR>(data, shape, strides);
}

template <class V, std::size_t NR>
auto reshape_impl(const V& v, const index_t* req) {
  std::array<index_t, NR> shape{};
  for (std::size_t k = 0; k != NR; ++k) shape[k] = req[k];
  int unknown = -1;
  index_t known = 1;
  for (std::size_t k = 0; k != NR; ++k) {
    if (shape[k] == -1) {
      if (unknown >= 0)
        throw value_error("ufx::reshape: can only specify one unknown dimension (-1); the shape " +
                          format_extents(shape) + " has -1 at axes " + std::to_string(unknown) + " and " +
                          std::to_string(k));
      unknown = static_cast<int>(k);
    } else if (shape[k] < 0) {
      throw value_error("ufx::reshape: the shape " + format_extents(shape) + " has a negative extent at axis " +
                        std::to_string(k));
    } else {
      known *= shape[k];
    }
  }
  const index_t n = v.size();
  const std::string from =
      "cannot reshape an array of shape " + format_extents(v.shape()) + " (size " + std::to_string(n) + ")";
  if (unknown >= 0) {
    if (known == 0 || n % known != 0)
      throw shape_error("ufx::reshape: " + from + " into shape " + format_extents(shape) + ": no extent at axis " +
                        std::to_string(unknown) + " makes the sizes equal");
    shape[static_cast<std::size_t>(unknown)] = n / known;
  } else if (known != n) {
    throw shape_error("ufx::reshape: " + from + " into shape " + format_extents(shape) + " (size " +
                      std::to_string(known) + ")");
  }
  if (n > 0 && !v.is_contiguous())
    throw shape_error("ufx::reshape: the array of shape " + format_extents(v.shape()) + " has strides " +
                      format_extents(v.strides()) +
                      " (in elements): it is not contiguous in C order, so no view of it has shape " +
                      format_extents(shape) + "; copy it first");
  std::array<index_t, NR> strides{};
  index_t s = 1;
  for (int k = static_cast<int>(NR) - 1; k >= 0; --k) {
    strides[static_cast<std::size_t>(k)] = s;
    s *= shape[static_cast<std::size_t>(k)];
  }
  return make_view<V, static_cast<int>(NR)>(v.data(), shape, strides);
}

template <class V, std::size_t NR>
auto broadcast_to_impl(const V& v, const index_t* req) {
  constexpr int R = V::rank;
  static_assert(
      static_cast<int>(NR) >= R,
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
      throw shape_error("ufx::broadcast_to: cannot broadcast an array of shape " + format_extents(v.shape()) +
                        " to shape " + format_extents(shape) + ": its axis " + std::to_string(j) + " has extent " +
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
    if (r.step == 0)
      throw value_error("ufx::slice: the slice step of axis " + std::to_string(in) + " is zero (array of shape " +
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

/// ufx::permute's view: axis k of the result is v's axis axes[k].
template <class V>
auto permute_impl(const V& v, const std::array<int, static_cast<std::size_t>(V::rank)>& axes) {
  constexpr int R = V::rank;
  std::array<index_t, R> shape{}, strides{};
  bool seen[R == 0 ? 1 : R] = {};
  for (int k = 0; k < R; ++k) {
    const int ax = axes[static_cast<std::size_t>(k)] < 0 ? axes[static_cast<std::size_t>(k)] + R
                                                         : axes[static_cast<std::size_t>(k)];
    if (ax < 0 || ax >= R || seen[ax])
      throw value_error("ufx::permute: the axes " + format_axes(axes) + " are not a permutation of the " +
                        std::to_string(R) + " axes of an array of shape " + format_extents(v.shape()) + ": axis " +
                        std::to_string(axes[static_cast<std::size_t>(k)]) + " at position " + std::to_string(k) +
                        (ax < 0 || ax >= R ? " is out of range" : " repeats"));
    seen[ax] = true;
    shape[static_cast<std::size_t>(k)] = v.extent(ax);
    strides[static_cast<std::size_t>(k)] = v.stride(ax);
  }
  return make_view<V, R>(v.data(), shape, strides);
}

/// ufx::slice's view: each argument walks one axis of v (newaxis none), from the first; the axes left over are whole.
template <class V, class... S>
auto slice_impl(const V& v, const S&... s) {
  constexpr int R = V::rank;
  constexpr int used = (0 + ... + consumes_v<std::remove_cvref_t<S>>);
  static_assert(used <= R, "ufx::slice: more indices than the array has axes");
  constexpr int NR = R - used + (0 + ... + produces_v<std::remove_cvref_t<S>>);
  static_assert(NR <= max_rank, "ufx::slice: the view would have more than ufx::max_rank axes");
  slicer<V, static_cast<std::size_t>(NR)> w{v};
  (w(s), ...);
  while (w.in < R) w(all);
  return make_view<V, NR>(v.data() + w.offset, w.shape, w.strides);
}

/// ufx::expand_dims's view: an axis of extent 1 (stride 0) at position Axis of the result.
template <int Axis, class V>
auto expand_dims_impl(const V& v) {
  constexpr int R = V::rank;
  static_assert(Axis >= -(R + 1) && Axis <= R,
                "ufx::expand_dims: the axis is out of range for the result's rank (R + 1)");
  static_assert(R + 1 <= max_rank, "ufx::expand_dims: the view would have more than ufx::max_rank axes");
  constexpr int ax = Axis < 0 ? Axis + R + 1 : Axis;
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
  return make_view<V, R + 1>(v.data(), shape, strides);
}

/// ufx::squeeze's view: v without its axis Axis, whose extent must be 1.
template <int Axis, class V>
auto squeeze_impl(const V& v) {
  constexpr int R = V::rank;
  static_assert(Axis >= -R && Axis < R, "ufx::squeeze: the axis is out of range for the array's rank");
  constexpr int ax = Axis < 0 ? Axis + R : Axis;
  if (v.extent(ax) != 1)
    throw shape_error("ufx::squeeze: cannot select an axis to squeeze out which has size not equal to one: axis " +
                      std::to_string(ax) + " of shape " + format_extents(v.shape()) + " has extent " +
                      std::to_string(v.extent(ax)));
  std::array<index_t, R - 1> shape{}, strides{};
  for (int k = 0, j = 0; k < R; ++k) {
    if (k == ax) continue;
    shape[static_cast<std::size_t>(j)] = v.extent(k);
    strides[static_cast<std::size_t>(j++)] = v.stride(k);
  }
  return make_view<V, R - 1>(v.data(), shape, strides);
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
