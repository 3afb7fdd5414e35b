#pragma once
// ufx::sim for gufuncs: the operand check (core reach included), then the device bodies ufx::cuda runs
// (device/gufunc.hpp: staged through shared memory, or one thread per loop index).
#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/backend/sim/checks.hpp"
#include "ufx/detail/device/gufunc.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <>
struct gufunc_hook<sim_t> {
  template <int N, class Kernel>
  static void run(const sim_t& t, const layout<N>& L, const Kernel& k, bool dense, index_t /*work*/) {
    check_device_operands(t.space(), L, k);
    device_gufunc(t, L, k, dense, "ufx gufunc kernel");
  }
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
