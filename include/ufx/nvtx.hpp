#pragma once
/// \file nvtx.hpp
/// NVTX ranges for Nsight Systems: every ufx call shows as a named range on its thread's timeline,
/// with the kernels it launched beneath it.
///
///   ufx::set_nvtx(true);                       // or run the program with UFX_NVTX=1
///   auto add = ufx::vectorize(f).named("add");
///   add(ufx::cuda, x, y);                      // range "vectorize add"
///   ufx::sum(x, ufx::axis{1});                 // range "reduce sum axis=1"
///   { ufx::nvtx_range step("my step"); ... }   // a range of your own
///
/// Names. The front door ("vectorize", "guvectorize", "reduce", "transform_reduce", "accumulate",
/// "reducers", "argmax", "mean", "kernel", ...), then the label a kernel object was given with
/// `.named("...")` (ufx::kernel's name; ufx::sum, prod, min and max have theirs), then a
/// reduction's axes ("axis=1", "axis=(0,2)"). A call larger than the device runs in chunks, each
/// a range inside the call's: "chunked add 3/8". With NVTX on, the CUDA devices are named
/// "ufx::cuda device N" and each stream ufx creates "ufx::cuda stream K (device N)".
/// Ranges are opened on every target, not only ufx::cuda: on the CPU targets they mark the time
/// a call took on the calling thread.
///
/// Cost. Off (the default), a call reads an atomic flag (relaxed) and does nothing else: the names are
/// built, and NVTX called, only when on (a counting test holds this: ufx::detail::ranges_opened).
/// On, a range costs a string of a few dozen bytes and NVTX's push and pop, which do nothing more
/// unless a profiler is attached.
///
/// Build. NVTX3 is header-only and comes with the CUDA toolkit; libufx is built with it when
/// CMake's UFX_NVTX option is on (the default) and `nvtx3/nvToolsExt.h` is found. No ufx header
/// includes NVTX. Without it, `nvtx_available()` is false and `set_nvtx(true)` throws
/// ufx::device_error.

namespace ufx {

/// Whether this libufx was built with NVTX.
bool nvtx_available() noexcept;
/// Turns ufx's NVTX ranges on or off (for all threads; the environment variable UFX_NVTX=1 turns
/// them on at start-up). Throws ufx::device_error for `true` where NVTX is not available.
void set_nvtx(bool on);
/// Whether ufx's NVTX ranges are on.
bool nvtx_enabled() noexcept;

/// A range of the program's own around a scope, when ufx's NVTX ranges are on (nested freely
/// with ufx's).
class nvtx_range {
public:
  /// Opens a range named `name` (null: an empty name) when ufx's NVTX ranges are on; the
  /// destructor closes it.
  explicit nvtx_range(const char* name) noexcept;
  ~nvtx_range();
  nvtx_range(const nvtx_range&) = delete;
  nvtx_range& operator=(const nvtx_range&) = delete;

private:
  int opened_ = 0;
};

} // namespace ufx
