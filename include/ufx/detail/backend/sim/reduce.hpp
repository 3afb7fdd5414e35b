#pragma once
// ufx::sim: the device reduction (device/reduce.hpp) through the sim's launch, after the operand memory check.
#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/backend/sim/checks.hpp"
#include "ufx/detail/device/reduce.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

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
