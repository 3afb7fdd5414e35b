#pragma once
// Step 3's data movement: buffers in any memory space and copies between strided views in any two spaces, packed and
// unpacked on the host side, so they need no kernel (a host-compiled translation unit can move ufx::cuda data): dense
// data with matching strides is one block copy; a strided device side comes over as the byte range it spans.
#include <algorithm>
#include <memory>
#include <utility>

#include "ufx/detail/step/adapt.hpp"
#include "ufx/detail/core/broadcast.hpp"
#include "ufx/detail/core/loop.hpp"
#include "ufx/detail/body/map.hpp"
#include "ufx/detail/step/run.hpp"
#include "ufx/detail/lib/runtime.hpp"
#include "ufx/ndview.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <class T, int R>
ndview<T, R> host_image(const memory_space& s, const ndview<T, R>& v, std::unique_ptr<char[]>& keep, bool load);

/// Copies src into dst (same shape, in `tag`'s memory), any strides, as a kernel on `tag`.
template <class Tag, class T, int R>
void copy_on(const Tag& tag, const ndview<T, R>& dst, const ndview<const T, R>& src) {
  layout<2> L = layout_of<2>(dims(dst.shape()));
  set_strides(L, 0, dst);
  set_strides(L, 1, src);
  map_body<identity, 1, array_acc<T>, array_acc<const T>> k{
      identity{}, detail::make_tuple(array_acc<T>{dst.data()}, array_acc<const T>{src.data()})};
  run_on(tag, L, k);
}

/// Copies src into dst (same shape, both in memory space `s`), any strides: on the host, or by a kernel on the device
/// that owns `s` (through the host where this translation unit cannot launch).
template <class T, int R>
void copy_within(const memory_space& s, const ndview<T, R>& dst, const ndview<const T, R>& src) {
  if (s.is_host()) return copy_on(host, dst, src);
  target_for(s).visit([&](const auto& tag) {
    using Tag = std::remove_cvref_t<decltype(tag)>;
    if constexpr (launches_here<Tag>) {
      copy_on(tag, dst, src);
    } else {
      std::unique_ptr<char[]> keep_src, keep_dst;
      const ndview<const T, R> hs = host_image(s, src, keep_src, true);
      const ndview<T, R> hd = host_image(s, dst, keep_dst, true);
      copy_within(memory_space::host, hd, hs);
      const auto [lo, hi] = byte_range(dst);
      copy_bytes(s, const_cast<char*>(lo), memory_space::host, keep_dst.get(), static_cast<std::size_t>(hi - lo));
    }
  });
}

/// A host-side image of view `v` in space `s`: `v` itself on the host, else the byte range it spans copied to a host
/// buffer (`keep` owns it) and `v` re-pointed there.
template <class T, int R>
ndview<T, R> host_image(const memory_space& s, const ndview<T, R>& v, std::unique_ptr<char[]>& keep, bool load) {
  if (s.is_host()) return v;
  const auto [lo, hi] = byte_range(v);
  const auto bytes = static_cast<std::size_t>(hi - lo);
  keep.reset(new char[bytes]);
  if (load) copy_bytes(memory_space::host, keep.get(), s, lo, bytes);
  auto* base = reinterpret_cast<T*>(keep.get() + (reinterpret_cast<const char*>(v.data()) - lo));
  return ndview<T, R>(base, v.shape(), v.strides());
}

/// Copies src (in src_space) into dst (in dst_space); shapes must match.
template <class T, int R>
void transfer(const memory_space& dst_space, const ndview<T, R>& dst, const memory_space& src_space,
              const ndview<const T, R>& src) {
  if (dst.size() == 0) return;
  if (dst_space == src_space) return copy_within(dst_space, dst, src);
  const auto bytes = sizeof(T) * static_cast<std::size_t>(dst.size());
  if (is_dense(dst) && is_dense(src) && strides_like(dst) == strides_like(src)) {
    copy_bytes(dst_space, dst.data(), src_space, src.data(), bytes);
    return;
  }
  // pack on the host in dst's layout when dst is dense (so the far side needs no unpacking)
  const auto strides = strides_like(dst);
  std::unique_ptr<T[]> packed(new T[static_cast<std::size_t>(dst.size())]);
  // the layout's lowest element sits at packed[0] (strides_like gives non-negative strides)
  const ndview<T, R> packed_view(packed.get(), dst.shape(), strides);
  {
    std::unique_ptr<char[]> keep;
    const ndview<const T, R> s = host_image(src_space, src, keep, true);
    copy_within(memory_space::host, packed_view, s);
  }
  if (is_dense(dst)) {
    copy_bytes(dst_space, dst.data(), memory_space::host, packed.get(), bytes);
    return;
  }
  std::unique_ptr<char[]> keep;
  const ndview<T, R> d = host_image(dst_space, dst, keep, true); // the gaps keep their contents
  copy_within(memory_space::host, d, ndview<const T, R>(packed_view));
  if (!dst_space.is_host()) {
    const auto [lo, hi] = byte_range(dst);
    copy_bytes(dst_space, const_cast<char*>(lo), memory_space::host, keep.get(), static_cast<std::size_t>(hi - lo));
  }
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
