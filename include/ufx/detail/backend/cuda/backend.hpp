#pragma once
// ufx::cuda's folder: the device code paths of detail/device/ as CUDA kernels, and CUB where it is the best tool.
// Everything the target provides, for detail/backends.hpp to include.
#include "ufx/detail/backend/cuda/kernel.hpp"
#include "ufx/detail/backend/cuda/launch.hpp"
#include "ufx/detail/backend/cuda/reduce.hpp"
#include "ufx/detail/backend/cuda/scan.hpp"
#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/device/elementwise.hpp"
#include "ufx/detail/device/gufunc.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// Elementwise loops through the launch seam (dense operands with vector loads, else a thread per index).
template <>
struct for_each_hook<cuda_t> {
  template <int N, class Kernel>
  static void run(const cuda_t& t, const layout<N>& L, const Kernel& k) {
    device_loop(t, L, k, "ufx elementwise kernel");
  }
};

/// Gufuncs: ufx::sim's bodies (device/gufunc.hpp): small fixed-size cores staged through shared memory a block at a
/// time, others one loop index per CUDA thread.
template <>
struct gufunc_hook<cuda_t> {
  template <int N, class Kernel>
  static void run(const cuda_t& t, const layout<N>& L, const Kernel& k, bool dense, index_t /*work*/) {
    device_gufunc(t, L, k, dense, "ufx gufunc kernel");
  }
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
