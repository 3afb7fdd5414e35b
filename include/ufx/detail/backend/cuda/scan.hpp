#pragma once
// ufx::cuda's scan: every line at once, thrust::inclusive_scan_by_key on Thrust's CUDA system (CUB's scan-by-key)
// without its own synchronisation, through the plan's strides (device/scan.hpp's positions and functors, which ufx::sim
// walks line by line), queued on the call's stream (without one, the legacy default stream). Thrust's temporaries come
// from ufx's device memory (thrust_temporaries), freed in that stream's order. Only nvcc includes Thrust: a host
// compiler's translation unit gets no Thrust header from ufx, so `thrust::device_vector` in a user's .cpp means what
// Thrust's own configuration says, whatever the include order (ufx never defines THRUST_DEVICE_SYSTEM).
#include <exception>
#include <string>

#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/core/fail.hpp"
#include "ufx/detail/backend/cuda/launch.hpp"
#include "ufx/detail/device/scan.hpp"

#if UFX_CUDA_TU
#  include <thrust/functional.h>
#  include <thrust/iterator/counting_iterator.h>
#  include <thrust/iterator/permutation_iterator.h>
#  include <thrust/iterator/transform_iterator.h>
#  include <thrust/scan.h>
#  include <thrust/system/cuda/execution_policy.h>
#endif

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// Thrust's temporary allocator: ufx's device memory, the device's pool, in the order of the call's stream (in a
/// chunked call, the stream's arena: no allocation per chunk).
struct thrust_temporaries {
  using value_type = char;
  memory_space space;
  void* stream;
  char* allocate(std::ptrdiff_t n) const {
    return static_cast<char*>(device_malloc_async(space, static_cast<std::size_t>(n), stream));
  }
  void deallocate(char* p, std::size_t) const noexcept { device_free_async(space, p, stream); }
};

#if UFX_CUDA_TU
/// Scan-by-key's key (the line of position i) and operator, for Thrust.
struct scan_line_key {
  index_t len;
  UFX_HD index_t operator()(index_t i) const { return i / len; }
};

template <class Kern>
struct scan_combine {
  Kern k;
  UFX_HD typename Kern::acc_type operator()(const typename Kern::acc_type& a, const typename Kern::acc_type& b) const {
    return k.combine(a, b);
  }
};

/// Every line at once, Thrust's scan-by-key on `pol` (thrust::cuda::par...).
template <class Policy, class Kern, int N, class OutE>
void device_scan(const Policy& pol, const scan_plan<N>& plan, const Kern& k, OutE* out) {
  const index_t n = plan.count() * plan.len;
  if (n == 0) return;
  const scan_position<N> pos = scan_positions(plan);
  const thrust::counting_iterator<index_t> first(0);
  auto keys = thrust::make_transform_iterator(first, scan_line_key{plan.len});
  auto values = thrust::make_transform_iterator(first, scan_value<Kern, N>{pos, k});
  auto result = thrust::make_permutation_iterator(out, thrust::make_transform_iterator(first, scan_out_offset<N>{pos}));
  thrust::inclusive_scan_by_key(pol, keys, keys + n, values, result, thrust::equal_to<index_t>(),
                                scan_combine<Kern>{k});
}
#endif

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
    // queued on the call's stream, nothing waits here (as in cuda/reduce.hpp)
#else
    (void)plan, (void)k, (void)out;
    cuda_not_compiled(t);
#endif
  }
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
