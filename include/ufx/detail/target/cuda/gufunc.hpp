#pragma once
// ufx::cuda for gufuncs: one loop index per CUDA thread through Thrust's CUDA system, the same
// per-thread body as ufx::sim. Only a translation unit compiled by nvcc can launch.
#include "ufx/detail/runtime.hpp"
#include "ufx/detail/target/cuda/for_each.hpp"
#include "ufx/errors.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// One loop index per CUDA thread: the elementwise launch, with the gufunc kernel as the body.
template <int N, class Kernel>
void run_gufunc(const cuda_t& t, const layout<N>& L, const Kernel& k, bool /*dense*/, index_t /*work*/) {
  for_each(t, L, k);
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
