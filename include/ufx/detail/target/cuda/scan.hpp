#pragma once
// ufx::cuda: the device scan (device/scan.hpp) through Thrust's CUDA system (CUB's scan-by-key)
// without its own synchronisation, on the target's device; one synchronisation, at the end (none on
// a stream: queued on it; Thrust's own temporaries still come from cudaMalloc).
#include <exception>
#include <string>

#include "ufx/detail/fail.hpp"
#include "ufx/detail/target/cuda/device.hpp"
#include "ufx/detail/device/scan.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <class Kern, int N, class OutE>
void scan_on(const cuda_t& t, const scan_plan<N>& plan, const Kern& k, OutE* out) {
#if UFX_CUDA_TU
  const cuda_scope scope(t);
  try {
    if (t.has_stream()) device_scan(thrust::cuda::par_nosync.on(static_cast<cudaStream_t>(t.stream_handle)), plan, k, out);
    else device_scan(thrust::cuda::par_nosync, plan, k, out);
  } catch (const ufx::device_error&) {
    throw;
  } catch (const std::exception& e) { // thrust::system_error, std::bad_alloc: Thrust clears the CUDA error first
    fail<device_error>(std::string("the device scan (thrust::inclusive_scan_by_key) failed: ") + e.what());
  }
  if (!t.has_stream()) synchronize(scope.space()); // on a stream the call returns once queued
#else
  (void)plan, (void)k, (void)out;
  cuda_not_compiled(t);
#endif
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
