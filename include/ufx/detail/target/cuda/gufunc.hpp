#pragma once
// ufx::cuda for gufuncs: one loop index per CUDA thread through Thrust's CUDA system, the same
// per-thread body as ufx::sim. Only a translation unit compiled by nvcc can launch.
#include "ufx/detail/memory.hpp"
#include "ufx/detail/target/sim/for_each.hpp"
#include "ufx/errors.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <int N, class Kernel>
void run_gufunc(cuda_t, const layout<N>& L, const Kernel& k, bool /*dense*/, index_t /*work*/) {
#if UFX_CUDA_TU
  require_space(memory_space::cuda);
  thrust::for_each_n(thrust::cuda::par, thrust::counting_iterator<index_t>(0), L.size(), element_at<N, Kernel>{L, k});
  synchronize(memory_space::cuda);
#else
  (void)L;
  (void)k;
  require_space(memory_space::cuda);
  throw device_error("ufx::cuda: this call was compiled by a host compiler; compile its translation unit with "
                     "nvcc (CMake language CUDA, --extended-lambda) to run kernels on ufx::cuda");
#endif
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
