#pragma once
// ufx::cuda for gufuncs: the same bodies as ufx::sim (device/gufunc.hpp): small fixed-size cores staged through shared
// memory a block at a time, others one loop index per CUDA thread.
#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/backend/cuda/for_each.hpp"
#include "ufx/detail/device/gufunc.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <>
struct gufunc_hook<cuda_t> {
  template <int N, class Kernel>
  static void run(const cuda_t& t, const layout<N>& L, const Kernel& k, bool dense, index_t /*work*/) {
    device_gufunc(t, L, k, dense, "ufx gufunc kernel");
  }
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
