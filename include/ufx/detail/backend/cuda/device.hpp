#pragma once
// What every ufx::cuda algorithm does around a launch: check the target can run here, make its device current for the
// call, and turn CUDA status codes into ufx::device_error. Only a translation unit compiled by nvcc can launch;
// elsewhere a call throws device_error saying so.
#include "ufx/detail/step/run.hpp"
#include "ufx/detail/lib/runtime.hpp"
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
#else
/// A launch on ufx::cuda from a host compiler's file: run.hpp's not_launchable, the one message.
[[noreturn]] inline void cuda_not_compiled(const cuda_t& t) { not_launchable(t); }
#endif

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
