// Built when the CUDA toolkit is not found: ufx::cuda reports itself unavailable.
#include "cuda_backend.hpp"
#include "ufx/errors.hpp"
#include "ufx/targets.hpp"

namespace ufx {
bool cuda_available() noexcept { return false; }
std::string_view cuda_unavailable_reason() noexcept {
  return "ufx was built without the CUDA toolkit";
}
namespace detail::cuda_backend {
[[noreturn]] static void fail() { throw device_error("ufx::cuda is not available here: ufx was built without the CUDA toolkit"); }
void* malloc(std::size_t) { fail(); }
void free(void*) noexcept {}
void copy(void*, const void*, std::size_t) { fail(); }
void synchronize() { fail(); }
} // namespace detail::cuda_backend
} // namespace ufx
