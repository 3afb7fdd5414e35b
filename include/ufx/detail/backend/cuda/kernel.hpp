#pragma once
// ufx::cuda's raw kernels: the body launched through the seam (cuda/launch.hpp) as a raw_kernel_entry, which declares
// its shared arrays as one __shared__ buffer (offsets computed at compile time from the ufx::shared<...> parameter
// types) plus the extern __shared__ dynamic region; ufx::thread reads CUDA's built-in variables.
#include <string>

#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/raw/launch.hpp"
#include "ufx/detail/backend/cuda/launch.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// A raw kernel's body as one thread runs it: with its block's shared memory.
template <class Body>
struct raw_kernel_entry {
  Body body;
  std::size_t dynamic_bytes;
#if UFX_CUDA_TU
  __device__ void operator()(const thread_pos&) const {
    __shared__ __align__(16) unsigned char ufx_static_shared[Body::static_bytes > 0 ? Body::static_bytes : 1];
    extern __shared__ __align__(16) unsigned char ufx_dynamic_shared[];
    body(thread_access::make(ufx_static_shared, ufx_dynamic_shared, dynamic_bytes));
  }
#endif
};

template <>
struct raw_kernel_hook<cuda_t> {
#if UFX_CUDA_TU
  static const device_info& limits(const cuda_t& t) { return cuda_device_info(t.ordinal()); }
#else
  static device_info limits(const cuda_t&) { return host_kernel_limits(cuda_t::name()); } // never launched here
#endif

  /// The blocks of a kernel body (its raw_kernel_entry, with `c`'s block and dynamic shared memory) the device holds at
  /// once: the occupancy CUDA computes for it, times the multiprocessors (what cudaLaunchCooperativeKernel accepts).
  template <class Body>
  static long long cooperative_blocks(const cuda_t& t, const launch_config& c, std::size_t) {
#if UFX_CUDA_TU
    const cuda_scope scope(t);
    int per_sm = 0;
    cuda_check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, launch_kernel<raw_kernel_entry<Body>>,
                                                             static_cast<int>(c.block.count()), c.shared_bytes),
               "ufx::max_cooperative_grid");
    return static_cast<long long>(per_sm) * cuda_device_info(scope.space().device).multiprocessors;
#else
    (void)c;
    cuda_not_compiled(t);
#endif
  }

  /// Launches through the seam; without a stream waits, a failure being a kernel_error naming kernel and device.
  template <class Traits, class Body>
  static void run(const cuda_t& t, const launch_config& c, const Body& body, const std::string& label) {
    launch_hook<cuda_t>::run(t, c, raw_kernel_entry<Body>{body, c.shared_bytes}, label.c_str());
    if (t.has_stream()) return; // failures surface at the stream's synchronize
    const memory_space space = t.space();
    try {
      synchronize(space);
    } catch (const device_error& e) {
      throw kernel_error(label + " on " + to_string(space) + ": " + e.what());
    }
  }
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
