#pragma once
// ufx::cuda: the device reduction of sim/reduce.hpp through thrust::cuda::par (CUB's for_each
// underneath), in translation units compiled by nvcc; elsewhere a call throws device_error.
#include "ufx/detail/memory.hpp"
#include "ufx/detail/target/sim/reduce.hpp"
#include "ufx/errors.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <class Kern, int N, class OutE, class Fin, class Res>
void reduce_on(cuda_t, const reduce_plan<N>& plan, const Kern& k, OutE* out, const Fin& fin, const Res& empty) {
  require_space(memory_space::cuda);
#if UFX_CUDA_TU
  device_reduce_all(thrust::cuda::par, memory_space::cuda, plan, k, out, fin, empty);
  synchronize(memory_space::cuda);
#else
  (void)plan, (void)k, (void)out, (void)fin, (void)empty;
  throw device_error("ufx::cuda: this call was compiled by a host compiler; compile its translation unit with "
                     "nvcc (CMake language CUDA, --extended-lambda) to run kernels on ufx::cuda");
#endif
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
