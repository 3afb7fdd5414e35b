#pragma once
/// \file device_array.hpp
/// `ufx::device_array<T, R>` and transfers between containers and device memory.
///
///   auto d = ufx::to_device(x);              // ufx::cuda if a GPU answers, else ufx::sim
///   auto e = ufx::to_device(x, ufx::sim);    // explicit device target
///   auto y = add(d, d);                      // runs where the data is; y is a device_array
///   ufx::ndarray<float, 1> h = y.to_host();
///   y.copy_to_host(vec);                     // into an existing container of the same shape
///   auto z = ufx::device_array_like(x);      // same shape and element type, uninitialised
///
/// Errors. Shape mismatches in copy_to_host / copy_from_host throw ufx::shape_error; a target that
/// is not a device, or a device that is not available, throws ufx::device_error.
///
/// Targets. A device_array lives on one device of ufx::sim or ufx::cuda. Its copies run at the call
/// (strided data packed on the host), or are queued on the stream of the target given
/// (`ufx::to_device(x, ufx::sim.on(s))`, `d.copy_to_host(v, ufx::cuda.on(s))`) when both sides are
/// dense and the host side is pinned.

#include "ufx/detail/adapt.hpp"
#include "ufx/detail/device_array.hpp"
#include "ufx/detail/device_array_decl.hpp"

namespace ufx {
UFX_TU_NAMESPACE_BEGIN

/// Copies any supported container to a new device_array (strided data is packed on the host). On a
/// stream (`ufx::to_device(x, ufx::cuda.on(s))`) a dense pinned container is copied by the stream:
/// the call returns at once and the array is filled when the stream reaches the copy.
template <array_like C>
auto to_device(const C& x, target where = default_device()) {
  auto op = detail::adapt_in(x);
  using V = typename decltype(op)::value_type;
  device_array<V, decltype(op)::rank> d(op.view.shape(), where);
  detail::transfer_on(detail::target_stream(where), d.space(), d.space(), d.view(), op.space, op.view);
  return d;
}

/// A new, uninitialised device_array with x's shape and element type.
template <array_like C>
auto device_array_like(const C& x, target where = default_device()) {
  auto op = detail::adapt_in(x);
  return device_array<typename decltype(op)::value_type, decltype(op)::rank>(op.view.shape(), where);
}

UFX_TU_NAMESPACE_END

} // namespace ufx
