// Built when the CUDA toolkit is not found: ufx::cuda's runtime says it is unavailable.
#include "ufx/detail/lib/runtime.hpp"
#include "ufx/errors.hpp"

namespace ufx {
namespace detail {
namespace {
constexpr std::string_view reason = "ufx was built without the CUDA toolkit";

class no_cuda_runtime final : public device_runtime {
  [[noreturn]] static void fail() { throw device_error("ufx::cuda is not available here: " + std::string(reason)); }

public:
  std::string_view name() const noexcept override { return "ufx::cuda"; }
  bool available() const noexcept override { return false; }
  std::string_view unavailable_reason() const noexcept override { return reason; }
  int device_count() const override { return 0; }
  device_info info(int) const override { fail(); }
  int current_device() const override { return 0; }
  void select_device(int) const override { fail(); }
  void* allocate(int, std::size_t, void*) const override { fail(); }
  void deallocate(int, void*, void*) const noexcept override {}
  void copy(const memory_space&, void*, const memory_space&, const void*, std::size_t) const override { fail(); }
  void synchronize(int) const override { fail(); }
  int device_of(const void*, std::size_t) const noexcept override { return -1; }
  void* create_stream(int) const override { fail(); }
  void destroy_stream(int, void*) const noexcept override {}
  void stream_synchronize(int, void*) const override { fail(); }
  void copy_async(const memory_space&, void*, const memory_space&, const void*, std::size_t, void*) const override {
    fail();
  }
  void* create_event(int) const override { fail(); }
  void destroy_event(void*) const noexcept override {}
  void record_event(void*, void*) const override { fail(); }
  void wait_event(void*, void*) const override { fail(); }
  void event_synchronize(void*) const override { fail(); }
  bool event_done(void*) const override { fail(); }
  float event_elapsed_ms(void*, void*) const override { fail(); }
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
