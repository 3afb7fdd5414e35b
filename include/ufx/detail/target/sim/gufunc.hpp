#pragma once
// ufx::sim for gufuncs: one "thread" per loop index, each computing its own offsets and calling the
// kernel (exactly the CUDA kernel's body), launched through Thrust's CPP system. Before launch every
// array operand's whole reach, loop and core dimensions, must lie inside a sim allocation.
#include "ufx/detail/loop.hpp"
#include "ufx/detail/target/sim/for_each.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {

/// The elementwise launch (and its operand check, core reach included) with the gufunc body.
template <int N, class Kernel>
void run_gufunc(const sim_t& t, const layout<N>& L, const Kernel& k, bool /*dense*/, index_t /*work*/) {
  for_each(t, L, k);
}

} // namespace ufx::detail
