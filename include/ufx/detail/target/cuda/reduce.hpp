#pragma once
// ufx::cuda: the device reduction of sim/reduce.hpp through thrust::cuda::par (CUB's for_each
// underneath), on the target's device.
#include "ufx/detail/target/cuda/device.hpp"
#include "ufx/detail/target/sim/reduce.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <class Kern, int N, class OutE, class Fin, class Res>
void reduce_on(const cuda_t& t, const reduce_plan<N>& plan, const Kern& k, OutE* out, const Fin& fin, const Res& empty) {
#if UFX_CUDA_TU
  const cuda_scope scope(t);
  device_reduce_all(thrust::cuda::par, scope.space(), plan, k, out, fin, empty);
  synchronize(scope.space());
#else
  (void)plan, (void)k, (void)out, (void)fin, (void)empty;
  cuda_not_compiled(t);
#endif
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
