#pragma once
// The device memory runtimes: allocation, copies and synchronisation for each kind of device
// memory (ufx::sim's in src/sim_runtime.cpp, ufx::cuda's in src/cuda_runtime.cpp). They live in
// src/ so that a host-only translation unit never includes cuda_runtime.h. A memory_space names
// its runtime, so nothing here switches on a kind of memory.

#include <cstddef>
#include <string>
#include <string_view>

#include "ufx/devices.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {

class device_runtime {
public:
  virtual ~device_runtime() = default;
  /// "ufx::sim", "ufx::cuda".
  virtual std::string_view name() const noexcept = 0;
  /// Whether the runtime can run here; when not, why.
  virtual bool available() const noexcept = 0;
  virtual std::string_view unavailable_reason() const noexcept = 0;

  virtual int device_count() const = 0;
  virtual device_info info(int device) const = 0;
  virtual int current_device() const = 0;
  virtual void select_device(int device) const = 0;

  /// Allocates on `device`; throws device_error ("out of device memory", sizes) and leaves nothing
  /// allocated when it cannot.
  virtual void* allocate(int device, std::size_t bytes) const = 0;
  virtual void deallocate(int device, void* p) const noexcept = 0;
  /// Copies bytes where each side is host memory or this runtime's memory (any of its devices).
  virtual void copy(const memory_space& dst_space, void* dst, const memory_space& src_space, const void* src,
                    std::size_t bytes) const = 0;
  /// Waits for the device's pending work; throws device_error with the first asynchronous error.
  virtual void synchronize(int device) const = 0;
  /// The device whose memory holds [p, p + bytes), or -1 when it is not this runtime's memory.
  virtual int device_of(const void* p, std::size_t bytes) const noexcept = 0;
};

/// Every device runtime, to classify a pointer: the one list a new device kind joins.
inline const device_runtime* const* all_runtimes(int& n) {
  static const device_runtime* const list[] = {&sim_runtime(), &cuda_runtime()};
  n = 2;
  return list;
}

/// Throws device_error unless `s`'s runtime can run here and `s.device` exists.
void require_space(const memory_space& s);

/// Allocates `bytes` in device memory `s`.
void* device_malloc(const memory_space& s, std::size_t bytes);
void device_free(const memory_space& s, void* p) noexcept;
/// Copies `bytes` between any two spaces (device to device across runtimes goes through the host).
void copy_bytes(const memory_space& dst_space, void* dst, const memory_space& src_space, const void* src, std::size_t bytes);
/// Waits for device `s`'s pending work (nothing for host memory).
void synchronize(const memory_space& s);

/// Where [p, p + bytes) lives: a device of some runtime, else host memory.
memory_space space_of(const void* p, std::size_t bytes) noexcept;

/// True when [lo, hi) lies inside memory of device space `s`.
inline bool in_space(const memory_space& s, const void* lo, const void* hi) noexcept {
  if (s.is_host()) return true;
  const auto n = static_cast<std::size_t>(static_cast<const char*>(hi) - static_cast<const char*>(lo));
  return s.runtime->device_of(lo, n) == s.device;
}

/// Counters of the sim runtime, so tests can check that staging copies only what it must.
struct sim_counters {
  long allocations = 0;      // allocations made so far
  long live_allocations = 0; // allocations not yet freed
  long host_to_device = 0;   // copies host -> sim
  long device_to_host = 0;   // copies sim -> host
  long device_to_device = 0; // copies sim -> sim
};
sim_counters sim_stats() noexcept;

} // namespace ufx::detail
