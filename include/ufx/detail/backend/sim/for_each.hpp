#pragma once
// ufx::sim: elementwise loops through the launch seam (ufx::cuda's bodies), after the operand memory check.
#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/backend/sim/checks.hpp"
#include "ufx/detail/device/elementwise.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <>
struct for_each_hook<sim_t> {
  template <int N, class Kernel>
  static void run(const sim_t& t, const layout<N>& L, const Kernel& k) {
    check_device_operands(t.space(), L, k);
    device_loop(t, L, k, "ufx elementwise kernel");
  }
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
