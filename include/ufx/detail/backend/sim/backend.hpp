#pragma once
// ufx::sim's folder: the device code paths of detail/device/, run on the CPU against a virtual device, each after the
// operand memory check (checks.hpp). Everything the target provides, for detail/backends.hpp to include.
#include "ufx/detail/backend/sim/checks.hpp"
#include "ufx/detail/backend/sim/kernel.hpp"
#include "ufx/detail/backend/sim/launch.hpp"
#include "ufx/detail/backend/sim/scan.hpp"
#include "ufx/detail/backend/sim/trace.hpp"
#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/device/elementwise.hpp"
#include "ufx/detail/device/gufunc.hpp"
#include "ufx/detail/device/reduce.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// Elementwise loops through the launch seam (ufx::cuda's bodies).
template <>
struct for_each_hook<sim_t> {
  template <int N, class Kernel>
  static void run(const sim_t& t, const layout<N>& L, const Kernel& k) {
    check_device_operands(t.space(), L, k);
    device_loop(t, L, k, "ufx elementwise kernel");
  }
};

/// Gufuncs: the operand check (core reach included), then ufx::cuda's bodies (device/gufunc.hpp: staged through shared
/// memory, or one thread per loop index).
template <>
struct gufunc_hook<sim_t> {
  template <int N, class Kernel>
  static void run(const sim_t& t, const layout<N>& L, const Kernel& k, bool dense, index_t /*work*/) {
    check_device_operands(t.space(), L, k);
    device_gufunc(t, L, k, dense, "ufx gufunc kernel");
  }
};

/// Reductions: the device reduction (device/reduce.hpp) through the sim's launch.
template <>
struct reduce_hook<sim_t> {
  template <class Kern, int N, class OutE, class Fin, class Res>
  static void run(const sim_t& t, const reduce_plan<N>& plan, const Kern& k, OutE* out, const Fin& fin,
                  const Res& empty) {
    check_reduce_operands(t.space(), plan, k, out);
    device_reduce_all(t, t.space(), plan, k, out, fin, empty);
  }
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
