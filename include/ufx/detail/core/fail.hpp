#pragma once
// Errors in the user's words: every message starts with the front door being called on this thread ("ufx::vectorize:
// ..."), set once per call by a call_scope, so no function below a front door threads a `who` through its signature.
// CUDA status codes are wrapped in one place (throw_cuda_error, src/cuda/runtime.cpp).
#include <string>
#include <string_view>

#include "ufx/config.hpp"
#include "ufx/detail/lib/ranges.hpp"
#include "ufx/errors.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// The front door running on this thread, for messages ("ufx" outside any call).
inline thread_local const char* current_call = "ufx";

/// Names the front door for the duration of a call (nested calls restore the outer name), and opens the call's profiler
/// range when ranges are on (detail/lib/ranges.hpp): named after `who`, the label a named kernel object gave
/// (pending_label) and the reduction's `naxes` axes.
class call_scope {
public:
  explicit call_scope(const char* who, const int* axes = nullptr, int naxes = 0) noexcept : prev_(current_call) {
    current_call = who;
    if (ranges_on.load(std::memory_order_relaxed)) [[unlikely]] {
      opened_ = range_push(who, pending_label, axes, naxes);
      pending_label = nullptr;
    }
  }
  ~call_scope() {
    if (opened_) range_pop(opened_);
    current_call = prev_;
  }
  call_scope(const call_scope&) = delete;
  call_scope& operator=(const call_scope&) = delete;

private:
  const char* prev_;
  int opened_ = 0;
};

/// "who: what", with who the current front door.
inline std::string message(std::string_view what) { return std::string(current_call) + ": " + std::string(what); }

/// Throws E("who: what").
template <class E>
[[noreturn]] void fail(std::string_view what) {
  throw E(message(what));
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
