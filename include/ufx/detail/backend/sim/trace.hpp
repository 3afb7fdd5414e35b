#pragma once
// ufx::profile of ufx's own kernels on the sim: the sim's array accessor (sim_acc, what acc_for gives sim_t's
// kernels: array_acc's pointer, and the operand's position) hands each load and store to the launch this thread is
// tracing, and the traced grid loop (launch.hpp: sim_front_scope) says which thread runs and when a block ends. While
// nothing collects, an access costs one load of sim_profile_collecting and a branch, on the sim only: the host targets
// and ufx::cuda keep array_acc. The tracer is src/sim/profile.cpp's, shared with raw kernels.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "ufx/detail/backend/sim/launch.hpp"
#include "ufx/detail/body/map.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {

UFX_TU_NAMESPACE_BEGIN

/// ufx::sim's array accessor: array_acc's, with the operand's position for ufx::profile.
template <class T>
struct sim_acc {
  using element_type = T;
  static constexpr bool is_array = true;
  T* p;
  int operand = 0, outputs = 0;
  UFX_HD T& at(index_t o) const {
    touch(p + o, sizeof(T));
    return p[o];
  }
  /// An access of `bytes` at q, told to the trace while ufx::profile collects.
  UFX_HD void touch(const T* q, std::size_t bytes) const {
#if !defined(__CUDA_ARCH__)
    if (sim_profile_collecting.load(std::memory_order_relaxed) != 0) [[unlikely]]
      sim_front_touch(p, q, bytes, operand, outputs);
#else
    (void)q;
    (void)bytes;
#endif
  }
  static UFX_HD sim_acc of(T* p, int operand, int outputs) { return {p, operand, outputs}; }
};
template <class T>
struct acc_for<sim_t, T> {
  using type = sim_acc<T>;
};

template <class T>
UFX_HD void acc_touch(const sim_acc<T>& a, const void* q, std::size_t bytes) {
  a.touch(static_cast<const T*>(q), bytes);
}
template <class T>
UFX_HD void acc_shared_touch(const sim_acc<T>& a, std::size_t region, std::size_t offset, std::size_t bytes,
                             bool store) {
#if !defined(__CUDA_ARCH__)
  if (sim_profile_collecting.load(std::memory_order_relaxed) != 0) [[unlikely]]
    sim_front_shared(region, offset, bytes, a.operand, store, a.outputs);
#else
  (void)a;
  (void)region;
  (void)offset;
  (void)bytes;
  (void)store;
#endif
}

template <int V, class T>
UFX_HD const vec_of<std::remove_cv_t<T>, V>& acc_load(const sim_acc<T>& a, index_t i) {
  a.touch(a.p + i, V * sizeof(T));
  return *reinterpret_cast<const vec_of<std::remove_cv_t<T>, V>*>(a.p + i);
}
template <int V, class T>
UFX_HD void acc_store(const sim_acc<T>& a, index_t i, const vec_of<T, V>& r) {
  a.touch(a.p + i, V * sizeof(T));
  *reinterpret_cast<vec_of<T, V>*>(a.p + i) = r;
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
