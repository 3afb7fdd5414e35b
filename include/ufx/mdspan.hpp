#pragma once
/// \file mdspan.hpp
/// `cuda::std::mdspan` (libcu++) as ufx operands, without copies: any rank, `layout_right`,
/// `layout_left` or `layout_stride`, over host or device memory (where it points decides where a
/// call runs, as for ndview). Results of calls on mdspans alone come back as `ufx::ndarray`.
///
///   cuda::std::mdspan<float, cuda::std::dextents<int, 2>> m(ptr, 3, 4);
///   auto r = add(m, 1.f);            // a (3,4) ndarray
///   add(m, m, ufx::out(m));          // in place, on the device when ptr is device memory

#include <cuda/std/mdspan>
#include <type_traits>

#include "ufx/adapter.hpp"

namespace ufx {

/// Adapts libcu++'s `cuda::std::mdspan` over a plain pointer, of any rank and layout, without a copy.
template <class T, class Extents, class Layout, class Accessor>
struct adapter<cuda::std::mdspan<T, Extents, Layout, Accessor>> {
  /// The adapted mdspan type.
  using M = cuda::std::mdspan<T, Extents, Layout, Accessor>;
  static_assert(std::is_same_v<typename Accessor::data_handle_type, T*>,
                "ufx: an mdspan operand needs an accessor whose data handle is a plain pointer");
  /// ufx_host: calls on mdspans alone return a `ufx::ndarray`.
  static constexpr container_kind kind = container_kind::ufx_host;
  /// The mdspan's rank.
  static constexpr int rank = static_cast<int>(Extents::rank());
  /// The element type without const or volatile.
  using value_type = std::remove_cv_t<T>;

  /// A view of `p` with m's extents and strides.
  template <class E>
  static ndview<E, rank> view_of(E* p, const M& m) {
    std::array<index_t, rank> shape{}, strides{};
    for (int k = 0; k < rank; ++k) {
      shape[k] = static_cast<index_t>(m.extent(static_cast<std::size_t>(k)));
      strides[k] = static_cast<index_t>(m.stride(static_cast<std::size_t>(k)));
    }
    return ndview<E, rank>(p, shape, strides);
  }
  /// m's elements as an operand, in the memory space its pointer is in.
  static operand<const value_type, rank> in(const M& m) {
    const auto v = view_of<const value_type>(m.data_handle(), m);
    return {v, space_of(v), {}};
  }
  /// m as an operand ufx writes (`ufx::out(m)`), for an mdspan of non-const elements.
  static operand<T, rank> out(const M& m) requires(!std::is_const_v<T>) {
    const auto v = view_of<T>(m.data_handle(), m);
    return {v, space_of(v), {}};
  }
};

} // namespace ufx
