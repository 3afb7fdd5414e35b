#pragma once
// ufx::cuda: the device scan of sim/scan.hpp through thrust::cuda::par (CUB's scan-by-key), on
// the target's device.
#include "ufx/detail/target/cuda/device.hpp"
#include "ufx/detail/target/sim/scan.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <class Kern, int N, class OutE>
void scan_on(const cuda_t& t, const scan_plan<N>& plan, const Kern& k, OutE* out) {
#if UFX_CUDA_TU
  const cuda_scope scope(t);
  device_scan(thrust::cuda::par, plan, k, out);
  synchronize(scope.space());
#else
  (void)plan, (void)k, (void)out;
  cuda_not_compiled(t);
#endif
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
