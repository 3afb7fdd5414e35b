#pragma once
// ufx::host: serial/reduce.hpp's reduction with its tasks (outputs, or nodes of each output's pairwise tree) across
// threads, nodes combined in the tree's order: bitwise ufx::serial's result. Small ones stay on the calling thread.
#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/cpu/executor.hpp"
#include "ufx/detail/cpu/reduce.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <>
struct reduce_hook<host_t> {
  template <class Kern, int N, class OutE, class Fin, class Res>
  static void run(const host_t& t, const reduce_plan<N>& plan, const Kern& k, OutE* out, const Fin& fin,
                  const Res& empty) {
    if (plan.outputs() * plan.count() < host_reduce_cutoff) cpu_reduce(cpu_executor{}, plan, k, out, fin, empty);
    else cpu_reduce(cpu_executor(t), plan, k, out, fin, empty);
  }
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
