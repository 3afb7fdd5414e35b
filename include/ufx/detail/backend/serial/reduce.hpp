#pragma once
// ufx::serial: the CPU reduction (cpu/reduce.hpp) on the calling thread.
#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/cpu/reduce.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <>
struct reduce_hook<serial_t> {
  template <class Kern, int N, class OutE, class Fin, class Res>
  static void run(const serial_t&, const reduce_plan<N>& plan, const Kern& k, OutE* out, const Fin& fin,
                  const Res& empty) {
    cpu_reduce(cpu_executor{}, plan, k, out, fin, empty);
  }
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
