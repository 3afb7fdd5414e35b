#pragma once
/// \file thrust.hpp
/// `thrust::device_vector` (and `thrust::host_vector`) as ufx operands, without copies. Opt in
/// with `#include <ufx/thrust.hpp>`. A device_vector's memory is wherever Thrust's device system
/// puts it, and ufx never chooses that system: it is Thrust's own configuration, CUDA unless the
/// program defines THRUST_DEVICE_SYSTEM (for example THRUST_DEVICE_SYSTEM_CPP or _OMP), whatever
/// the order of the includes. On the CUDA system a device_vector holds CUDA memory: calls on it
/// run on ufx::cuda (in code nvcc compiles) and return `device_array`s. On a CPU system it is host
/// memory and behaves like a std::vector.
///
///   thrust::device_vector<float> x(n, 1.f);
///   auto y = add(x, x);                       // a ufx::device_array<float, 1> on the GPU
///   add(x, x, ufx::out(x));                   // in place

#include <thrust/device_vector.h>
#include <thrust/host_vector.h>

#include "ufx/adapter.hpp"

namespace ufx {

namespace detail {
template <class V>
struct thrust_vector_adapter {
  using value_type = typename V::value_type;
  static constexpr int rank = 1;
  static operand<const value_type, 1> in(const V& v) {
    const ndview<const value_type, 1> view(thrust::raw_pointer_cast(v.data()), {static_cast<index_t>(v.size())});
    return {view, space_of(view), {}};
  }
  static operand<value_type, 1> out(V& v) {
    const ndview<value_type, 1> view(thrust::raw_pointer_cast(v.data()), {static_cast<index_t>(v.size())});
    return {view, space_of(view), {}};
  }
};
} // namespace detail

/// Adapts `thrust::device_vector` as a rank-1 operand, without a copy.
template <class T, class A>
struct adapter<thrust::device_vector<T, A>> : detail::thrust_vector_adapter<thrust::device_vector<T, A>> {
#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
  /// device: on Thrust's CUDA system, calls return a `ufx::device_array`.
  static constexpr container_kind kind = container_kind::device;
#else
  /// sequence: on a CPU system, calls return a `std::vector`.
  static constexpr container_kind kind = container_kind::sequence;
#endif
};

/// Adapts `thrust::host_vector` as a rank-1 operand, without a copy.
template <class T, class A>
struct adapter<thrust::host_vector<T, A>> : detail::thrust_vector_adapter<thrust::host_vector<T, A>> {
  /// sequence: calls return a `std::vector`, as for a std::vector.
  static constexpr container_kind kind = container_kind::sequence;
};

} // namespace ufx
