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

template <class T, class Extents, class Layout, class Accessor>
struct adapter<cuda::std::mdspan<T, Extents, Layout, Accessor>> {
  using M = cuda::std::mdspan<T, Extents, Layout, Accessor>;
  static_assert(std::is_same_v<typename Accessor::data_handle_type, T*>,
                "ufx: an mdspan operand needs an accessor whose data handle is a plain pointer");
  static constexpr container_kind kind = container_kind::ufx_host;
  static constexpr int rank = static_cast<int>(Extents::rank());
  using value_type = std::remove_cv_t<T>;

  template <class E>
  static ndview<E, rank> view_of(E* p, const M& m) {
    std::array<index_t, rank> shape{}, strides{};
    for (int k = 0; k < rank; ++k) {
      shape[k] = static_cast<index_t>(m.extent(static_cast<std::size_t>(k)));
      strides[k] = static_cast<index_t>(m.stride(static_cast<std::size_t>(k)));
    }
    return ndview<E, rank>(p, shape, strides);
  }
  static operand<const value_type, rank> in(const M& m) {
    const auto v = view_of<const value_type>(m.data_handle(), m);
    return {v, space_of(v), {}};
  }
  static operand<T, rank> out(const M& m) requires(!std::is_const_v<T>) {
    const auto v = view_of<T>(m.data_handle(), m);
    return {v, space_of(v), {}};
  }
};

} // namespace ufx
