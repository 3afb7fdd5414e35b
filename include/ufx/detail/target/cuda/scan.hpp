#pragma once
// ufx::cuda: the device scan of sim/scan.hpp through thrust::cuda::par (CUB's scan-by-key), in
// translation units compiled by nvcc; elsewhere a call throws device_error.
#include "ufx/detail/memory.hpp"
#include "ufx/detail/target/sim/scan.hpp"
#include "ufx/errors.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <class Kern, int N, class OutE>
void scan_on(cuda_t, const scan_plan<N>& plan, const Kern& k, OutE* out) {
  require_space(memory_space::cuda);
#if UFX_CUDA_TU
  device_scan(thrust::cuda::par, plan, k, out);
  synchronize(memory_space::cuda);
#else
  (void)plan, (void)k, (void)out;
  throw device_error("ufx::cuda: this call was compiled by a host compiler; compile its translation unit with "
                     "nvcc (CMake language CUDA, --extended-lambda) to run kernels on ufx::cuda");
#endif
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
