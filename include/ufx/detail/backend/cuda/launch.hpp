#pragma once
// ufx::cuda's launch, and what every ufx::cuda algorithm does around one: check the target can run here, make its
// device current for the call (cuda_scope), and turn CUDA status codes into ufx::device_error. ufx's one __global__
// template, launch_kernel, takes the body by value (kernel parameters: nothing copied to local memory), on the target's
// device (a block body as block_phases, a barrier after each phase); launch errors are checked at once and named by the
// kernel's label. Only a translation unit compiled by nvcc can launch; elsewhere a call throws device_error saying so.
#include <mutex>

#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/device/thread.hpp"
#include "ufx/detail/lib/runtime.hpp"
#include "ufx/detail/step/run.hpp"
#include "ufx/errors.hpp"
#include "ufx/targets.hpp"

#if UFX_CUDA_TU
#  include <cuda_runtime_api.h>
#endif

namespace ufx::detail {

/// Wraps a CUDA status code in a ufx::device_error naming the operation (src/cuda/runtime.cpp).
[[noreturn]] void throw_cuda_error(int code, const char* what);
/// Records that this thread queued work of front door `call` without waiting for it: an error of that work surfaces at
/// a later wait, whose message names the calls (src/cuda/runtime.cpp).
void note_queued(const char* call) noexcept;

UFX_TU_NAMESPACE_BEGIN

#if UFX_CUDA_TU
inline void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw_cuda_error(static_cast<int>(e), what);
}

/// The target's device is current for the scope (the previous one is restored after).
class cuda_scope {
public:
  explicit cuda_scope(const cuda_t& t) : space_(t.space()) {
    require_space(space_);
    cuda_check(cudaGetDevice(&prev_), "cudaGetDevice");
    if (prev_ != space_.device) cuda_check(cudaSetDevice(space_.device), "cudaSetDevice");
    else prev_ = -1;
  }
  ~cuda_scope() {
    if (prev_ >= 0) cudaSetDevice(prev_);
  }
  cuda_scope(const cuda_scope&) = delete;
  cuda_scope& operator=(const cuda_scope&) = delete;
  const memory_space& space() const { return space_; }

private:
  memory_space space_;
  int prev_ = -1;
};

/// The calling thread's position, from CUDA's built-in variables.
__device__ inline thread_pos device_thread_pos() {
  thread_pos p;
  p.thread_idx = dim3(threadIdx.x, threadIdx.y, threadIdx.z);
  p.block_idx = dim3(blockIdx.x, blockIdx.y, blockIdx.z);
  p.block_dim = dim3(blockDim.x, blockDim.y, blockDim.z);
  p.grid_dim = dim3(gridDim.x, gridDim.y, gridDim.z);
  return p;
}

/// ufx's one __global__: a body called by every thread with its position. ufx's own bodies are launched as they are, a
/// block body as block_phases, a raw kernel as raw_kernel_entry (cuda/kernel.hpp).
template <class Body>
__global__ void launch_kernel(Body body) {
  body(device_thread_pos());
}

/// A block body (device/thread.hpp) per thread: each phase and a barrier until done, over its dynamic shared memory.
template <class Body>
struct block_phases {
  Body body;
  __device__ void operator()(const thread_pos& p) const {
    extern __shared__ __align__(16) unsigned char ufx_block_shared[];
    typename Body::state_type state{};
    for (int phase = 0; phase >= 0;) {
      phase = body.step(p, state, ufx_block_shared, phase);
      __syncthreads();
    }
  }
};

/// The device's launch limits, read once per device (an entry is never written again once known).
inline const device_info& cuda_device_info(int device) {
  static std::mutex m;
  static device_info cache[64];
  static bool known[64] = {};
  if (device < 0 || device >= 64) {
    thread_local device_info other;
    other = cuda_t::runtime().info(device);
    return other;
  }
  const std::lock_guard lock(m);
  if (!known[device]) {
    cache[device] = cuda_t::runtime().info(device);
    known[device] = true;
  }
  return cache[device];
}
#else
/// A launch on ufx::cuda from a host compiler's file: run.hpp's not_launchable, the one message.
[[noreturn]] inline void cuda_not_compiled(const cuda_t& t) { not_launchable(t); }
#endif

template <>
struct launch_hook<cuda_t> {
  /// A call's operands and temporaries on a stream are released at once: ufx::cuda frees device memory in the stream's
  /// order (cudaFreeAsync), after the work queued before it.
  static void keep_until_run(const cuda_t&, stream_keep&&) {}

  template <class Body>
  static void run(const cuda_t& t, const launch_config& c, const Body& body, const char* label) {
#if UFX_CUDA_TU
    const cuda_scope scope(t);
    check_launch(c, cuda_device_info(scope.space().device), label);
    const ::dim3 grid(c.grid.x, c.grid.y, c.grid.z), block(c.block.x, c.block.y, c.block.z);
    const auto stream = static_cast<cudaStream_t>(t.stream_handle);
    if constexpr (block_body<Body>) {
      launch_kernel<<<grid, block, c.shared_bytes, stream>>>(block_phases<Body>{body});
    } else if (c.cooperative) { // every block resident at once (checked by the raw kernel's launch)
      Body arg = body;
      void* args[] = {&arg};
      cuda_check(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(&launch_kernel<Body>), grid, block, args,
                                             c.shared_bytes, stream),
                 label);
    } else {
      launch_kernel<<<grid, block, c.shared_bytes, stream>>>(body);
    }
    cuda_check(cudaGetLastError(), label);
    note_queued(current_call);
#else
    (void)c, (void)body, (void)label;
    cuda_not_compiled(t);
#endif
  }
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
