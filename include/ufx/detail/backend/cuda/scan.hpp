#pragma once
// ufx::cuda: the device scan (device/scan.hpp) through Thrust's CUDA system (CUB's scan-by-key)
// without its own synchronisation, on the target's device, queued on the call's stream (without
// one, the legacy default stream). Thrust's temporaries come from ufx's device memory
// (thrust_temporaries), freed in that stream's order.
#include <exception>
#include <string>

#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/core/fail.hpp"
#include "ufx/detail/backend/cuda/device.hpp"
#include "ufx/detail/device/scan.hpp"

#if UFX_CUDA_TU
#  include <thrust/system/cuda/execution_policy.h>
#endif

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// Thrust's temporary allocator: ufx's device memory, the device's pool, in the order of the call's
/// stream (in a chunked call, the stream's arena: no allocation per chunk).
struct thrust_temporaries {
  using value_type = char;
  memory_space space;
  void* stream;
  char* allocate(std::ptrdiff_t n) const {
    return static_cast<char*>(device_malloc_async(space, static_cast<std::size_t>(n), stream));
  }
  void deallocate(char* p, std::size_t) const noexcept { device_free_async(space, p, stream); }
};

template <>
struct scan_hook<cuda_t> {
  template <class Kern, int N, class OutE>
  static void run(const cuda_t& t, const scan_plan<N>& plan, const Kern& k, OutE* out) {
#if UFX_CUDA_TU
    const cuda_scope scope(t);
    try {
      const thrust_temporaries temps{scope.space(), t.stream_handle};
      if (t.has_stream())
        device_scan(thrust::cuda::par_nosync(temps).on(static_cast<cudaStream_t>(t.stream_handle)), plan, k, out);
      else device_scan(thrust::cuda::par_nosync(temps), plan, k, out);
      note_queued(current_call); // Thrust's scan counted as one launch
    } catch (const ufx::device_error&) {
      throw;
    } catch (const std::exception& e) { // thrust::system_error, std::bad_alloc: Thrust clears the CUDA error first
      fail<device_error>(std::string("the device scan (thrust::inclusive_scan_by_key) failed: ") + e.what());
    }
    // queued on the call's stream (without one, the legacy default stream): staging::finish's copy of a
    // result to the host is what waits (place.hpp)
#else
    (void)plan, (void)k, (void)out;
    cuda_not_compiled(t);
#endif
  }
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
