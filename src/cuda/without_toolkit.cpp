// Built when the CUDA toolkit is not found: ufx::cuda's runtime says it is unavailable.
#include "ufx/detail/lib/runtime.hpp"
#include "ufx/errors.hpp"

namespace ufx {
namespace detail {
namespace {
constexpr std::string_view reason = "ufx was built without the CUDA toolkit";

struct no_cuda_runtime final : device_runtime { // every other call throws unavailable()'s message
  std::string_view name() const noexcept override { return "ufx::cuda"; }
  bool available() const noexcept override { return false; }
  std::string_view unavailable_reason() const noexcept override { return reason; }
};
} // namespace

const device_runtime& cuda_runtime() noexcept {
  static const no_cuda_runtime rt;
  return rt;
}
[[noreturn]] void throw_cuda_error(int, const char* what) {
  throw device_error(std::string("ufx::cuda: ") + what + " failed: " + std::string(reason));
}
void note_queued(const char*) noexcept {}
} // namespace detail

bool cuda_available() noexcept { return false; }
std::string_view cuda_unavailable_reason() noexcept { return detail::reason; }
} // namespace ufx
