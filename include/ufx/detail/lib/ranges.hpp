#pragma once
// Profiler ranges around ufx's calls (ufx/nvtx.hpp): when ranges are on, each front door's call_scope (core/fail.hpp)
// opens one named after the front door, the call's label and its axes ("vectorize add", "reduce sum axis=1", "kernel
// tiled_matmul"), and each chunk of a chunked call one more ("chunked add 3/8"). Off, a call reads a relaxed atomic
// flag and nothing else; names are built and NVTX called in libufx (src/ranges.cpp): no header includes NVTX.
#include <atomic>

#include "ufx/config.hpp"

namespace ufx::detail {

/// True while NVTX ranges are on (ufx::set_nvtx, UFX_NVTX=1) or a range observer is set.
extern std::atomic<bool> ranges_on;

/// Opens a call's range: front door `who` ("ufx::vectorize"), `label` (or null), `naxes` axes; returns what to close.
int range_push(const char* who, const char* label, const int* axes, int naxes) noexcept;
/// Opens the range of chunk k of n (counted from 1) of the innermost open call on this thread.
int chunk_range_push(long k, long n) noexcept;
void range_pop(int opened) noexcept;

/// Gets each range's name as it opens (null as one closes): how tests read ranges, NVTX or not. Null removes it.
using range_observer = void (*)(const char* name);
void set_range_observer(range_observer f) noexcept;
/// Ranges opened so far (all threads): what a counting test reads.
long ranges_opened() noexcept;

UFX_TU_NAMESPACE_BEGIN

/// The label the next call_scope on this thread takes (set by a named kernel object's call).
inline thread_local const char* pending_label = nullptr;

/// Gives the call made inside it a label (a named vectorize, reducer, gufunc or kernel), when ranges are on.
class label_scope {
public:
  explicit label_scope(const char* label) noexcept {
    if (label && ranges_on.load(std::memory_order_relaxed)) [[unlikely]] {
      pending_label = label;
      set_ = true;
    }
  }
  ~label_scope() {
    if (set_) pending_label = nullptr; // not taken: the call threw before its call_scope
  }
  label_scope(const label_scope&) = delete;
  label_scope& operator=(const label_scope&) = delete;

private:
  bool set_ = false;
};

/// The range of one chunk of a call that runs in chunks (detail/step/chunk.hpp).
class chunk_range {
public:
  chunk_range(long k, long n) noexcept {
    if (ranges_on.load(std::memory_order_relaxed)) [[unlikely]]
      opened_ = chunk_range_push(k, n);
  }
  ~chunk_range() {
    if (opened_) range_pop(opened_);
  }
  chunk_range(const chunk_range&) = delete;
  chunk_range& operator=(const chunk_range&) = delete;

private:
  int opened_ = 0;
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
