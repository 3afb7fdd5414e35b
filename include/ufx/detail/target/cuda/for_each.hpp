#pragma once
// ufx::cuda: one loop index per CUDA thread, launched through Thrust's CUDA system (CUB's
// for_each underneath), on the target's device.
#include "ufx/detail/target/cuda/device.hpp"
#include "ufx/detail/target/sim/for_each.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <int N, class Kernel>
void for_each(const cuda_t& t, const layout<N>& L, const Kernel& k) {
#if UFX_CUDA_TU
  const cuda_scope scope(t);
  thrust::for_each_n(thrust::cuda::par, thrust::counting_iterator<index_t>(0), L.size(), element_at<N, Kernel>{L, k});
  synchronize(scope.space());
#else
  (void)L, (void)k;
  cuda_not_compiled(t);
#endif
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
