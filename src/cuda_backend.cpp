// CUDA runtime calls, compiled by the host compiler against cudart.
#include "cuda_backend.hpp"

#include <cuda_runtime_api.h>

#include <string>

#include "ufx/errors.hpp"
#include "ufx/targets.hpp"

namespace ufx {
namespace {
struct probe_result {
  bool ok = false;
  std::string why;
};
const probe_result& probe() {
  static const probe_result r = [] {
    probe_result p;
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
      p.why = std::string("no CUDA device answers (cudaGetDeviceCount: ") + cudaGetErrorString(e) + ")";
      cudaGetLastError();
    } else if (count == 0) {
      p.why = "no CUDA device answers (cudaGetDeviceCount found 0 devices)";
    } else {
      p.ok = true;
    }
    return p;
  }();
  return r;
}
} // namespace

bool cuda_available() noexcept { return probe().ok; }
std::string_view cuda_unavailable_reason() noexcept { return probe().why; }

namespace detail::cuda_backend {
static void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    cudaGetLastError();
    throw device_error(std::string("ufx::cuda: ") + what + " failed: " + cudaGetErrorString(e));
  }
}
void* malloc(std::size_t bytes) {
  void* p = nullptr;
  check(cudaMalloc(&p, bytes == 0 ? 1 : bytes), "cudaMalloc");
  return p;
}
void free(void* p) noexcept { cudaFree(p); }
void copy(void* dst, const void* src, std::size_t bytes) { check(cudaMemcpy(dst, src, bytes, cudaMemcpyDefault), "cudaMemcpy"); }
void synchronize() { check(cudaDeviceSynchronize(), "kernel"); }
} // namespace detail::cuda_backend
} // namespace ufx
