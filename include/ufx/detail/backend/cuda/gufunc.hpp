#pragma once
// ufx::cuda for gufuncs: one loop index per CUDA thread, the same body as ufx::sim.
#include "ufx/detail/backend/cuda/for_each.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <int N, class Kernel>
void run_gufunc(const cuda_t& t, const layout<N>& L, const Kernel& k, bool /*dense*/, index_t /*work*/) {
  for_each(t, L, k);
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
