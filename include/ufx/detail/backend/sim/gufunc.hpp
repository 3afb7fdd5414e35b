#pragma once
// ufx::sim for gufuncs: the elementwise launch (and its operand check, core reach included) with
// the gufunc kernel as the body.
#include "ufx/detail/backend/sim/for_each.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <int N, class Kernel>
void run_gufunc(const sim_t& t, const layout<N>& L, const Kernel& k, bool /*dense*/, index_t /*work*/) {
  for_each(t, L, k);
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
