#pragma once
// ufx::cuda: elementwise loops through the launch seam (dense operands with vector loads, else a thread per index).
#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/device/elementwise.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <>
struct for_each_hook<cuda_t> {
  template <int N, class Kernel>
  static void run(const cuda_t& t, const layout<N>& L, const Kernel& k) {
    device_loop(t, L, k, "ufx elementwise kernel");
  }
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
