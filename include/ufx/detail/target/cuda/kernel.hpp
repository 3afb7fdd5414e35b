#pragma once
// ufx::cuda's raw kernels: the body launched through ufx's one __global__ (cuda/launch.hpp) as a
// raw_kernel_entry, which declares the body's shared arrays as one __shared__ buffer (offsets
// computed at compile time from the ufx::shared<...> parameter types) plus the extern __shared__
// dynamic region; ufx::thread reads CUDA's built-in variables.
#include <string>

#include "ufx/detail/kernel_launch.hpp"
#include "ufx/detail/target/cuda/device.hpp"
#include "ufx/detail/target/cuda/launch.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

#if UFX_CUDA_TU
inline device_info kernel_limits(const cuda_t& t) { return cuda_device_info(t.ordinal()); }

/// A raw kernel's body as one thread runs it: with its block's shared memory.
template <class Body>
struct raw_kernel_entry {
  Body body;
  std::size_t dynamic_bytes;
  __device__ void operator()(const thread_pos&) const {
    __shared__ __align__(16) unsigned char ufx_static_shared[Body::static_bytes > 0 ? Body::static_bytes : 1];
    extern __shared__ __align__(16) unsigned char ufx_dynamic_shared[];
    body(thread_access::make_device(ufx_static_shared, ufx_dynamic_shared, dynamic_bytes));
  }
};
#else
inline device_info kernel_limits(const cuda_t&) { return host_kernel_limits(cuda_t::name()); } // never launched here
#endif

template <class Traits, class Body>
void launch_body(const cuda_t& t, const launch_config& c, const Body& body, const std::string& label) {
#if UFX_CUDA_TU
  const cuda_scope scope(t);
  launch_kernel<<<::dim3(c.grid.x, c.grid.y, c.grid.z), ::dim3(c.block.x, c.block.y, c.block.z), c.shared_bytes,
                  static_cast<cudaStream_t>(t.stream_handle)>>>(raw_kernel_entry<Body>{body, c.shared_bytes});
  cuda_check(cudaGetLastError(), label.c_str());
  if (t.has_stream()) return; // failures surface at the stream's synchronize
  try {
    synchronize(scope.space());
  } catch (const device_error& e) {
    throw kernel_error(label + " on " + to_string(scope.space()) + ": " + e.what());
  }
#else
  (void)c, (void)body, (void)label;
  cuda_not_compiled(t);
#endif
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
