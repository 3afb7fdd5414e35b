#pragma once
// ufx::serial: the CPU reduction (cpu/reduce.hpp) on the calling thread.
#include "ufx/detail/cpu/reduce.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <class Kern, int N, class OutE, class Fin, class Res>
void reduce_on(const serial_t&, const reduce_plan<N>& plan, const Kern& k, OutE* out, const Fin& fin,
               const Res& empty) {
  cpu_reduce(cpu_executor{}, plan, k, out, fin, empty);
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
