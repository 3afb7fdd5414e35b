#pragma once
// The bodies of ufx/device_array.hpp: copies between containers and device arrays, after the adapters they need (the
// class is in ufx/device_array.hpp, which includes this file after it), at once or on a target's stream.
#include <cstddef>
#include <string>
#include <type_traits>

#include "ufx/detail/step/adapt.hpp"
#include "ufx/detail/backends.hpp"
#include "ufx/detail/core/broadcast.hpp"
#include "ufx/detail/step/transfer.hpp"

namespace ufx {
namespace detail {
UFX_TU_NAMESPACE_BEGIN
/// The stream a target carries (null: none, or a CPU target).
inline void* target_stream(const target& t) {
  return t.visit([](const auto& x) -> void* {
    if constexpr (std::remove_cvref_t<decltype(x)>::is_device) return x.stream_handle;
    else return nullptr;
  });
}

/// A copy between host memory and device memory `dev` on `stream` (null: at once): queued when both sides are dense and
/// the host side is pinned, else after the stream's queued work.
template <class T, int R>
void transfer_on(void* stream, const memory_space& dev, const memory_space& dst_space, const ndview<T, R>& dst,
                 const memory_space& src_space, const ndview<const T, R>& src) {
  if (stream && dst.size() > 0) {
    const std::size_t bytes = sizeof(T) * static_cast<std::size_t>(dst.size());
    const void* host_side =
        dst_space.is_host() ? static_cast<const void*>(dst.data()) : static_cast<const void*>(src.data());
    if (dst.is_contiguous() && src.is_contiguous() && is_pinned(host_side, bytes)) {
      dev.runtime->copy_async(dst_space, dst.data(), src_space, src.data(), bytes, stream);
      return;
    }
    if (capture_on(dev.runtime)) [[unlikely]]
      refuse_in_capture("ufx::device_array", "a copy made at the call (to or from host memory that is not pinned)",
                        "copy before or after the capture, or to and from pinned memory (ufx::pinned_vector)");
    dev.runtime->stream_synchronize(dev.device, stream);
  }
  transfer(dst_space, dst, src_space, src);
}
UFX_TU_NAMESPACE_END

/// device_array's copies to a host container (ToHost) and from one, at once or on `on`'s stream.
template <bool ToHost, class T, int R, class C>
void device_array_copy(const device_array<T, R>& d, C&& c, const ufx::target* on) {
  const char* who = ToHost ? "ufx::device_array::copy_to_host" : "ufx::device_array::copy_from_host";
  auto o = [&] {
    if constexpr (ToHost) return adapt_out(c);
    else return adapt_in(c);
  }();
  constexpr bool same_type = std::is_same_v<typename decltype(o)::value_type, T>;
  static_assert(!ToHost || same_type, "device_array::copy_to_host: element types differ");
  static_assert(ToHost || same_type, "device_array::copy_from_host: element types differ");
  static_assert(!ToHost || decltype(o)::rank == R, "device_array::copy_to_host: ranks differ");
  static_assert(ToHost || decltype(o)::rank == R, "device_array::copy_from_host: ranks differ");
  d.require_memory(who);
  if (const dims da(d.shape()), dc(o.view.shape()); !(da == dc))
    throw shape_error(std::string(who) + ": shapes differ: device array " + format_shape(da) + ", container " +
                      format_shape(dc));
  if (on && on->space() != d.space())
    throw device_error(std::string(who) + ": the array is in " + to_string(d.space()) + " but the copy was asked of " +
                       to_string(on->space()));
  void* const stream = on ? target_stream(*on) : nullptr;
  if constexpr (ToHost) transfer_on(stream, d.space(), o.space, o.view, d.space(), ndview<const T, R>(d.view()));
  else transfer_on(stream, d.space(), d.space(), ndview<T, R>(d.view()), o.space, o.view);
}
} // namespace detail

template <class T, int R>
template <class C>
void device_array<T, R>::copy_to_host(C&& dst) const {
  detail::device_array_copy<true>(*this, std::forward<C>(dst), nullptr);
}

template <class T, int R>
template <class C>
void device_array<T, R>::copy_to_host(C&& dst, const ufx::target& on) const {
  detail::device_array_copy<true>(*this, std::forward<C>(dst), &on);
}

template <class T, int R>
template <class C>
void device_array<T, R>::copy_from_host(const C& src, const ufx::target& on) {
  detail::device_array_copy<false>(*this, src, &on);
}

template <class T, int R>
template <class C>
void device_array<T, R>::copy_from_host(const C& src) {
  detail::device_array_copy<false>(*this, src, nullptr);
}

} // namespace ufx
