#pragma once
// Device memory runtime: allocation and copies for the device memory spaces (ufx::sim, ufx::cuda).
// Defined in src/ so that a host-only translation unit never includes cuda_runtime.h.

#include <cstddef>

#include "ufx/targets.hpp"

namespace ufx::detail {

/// Allocates `bytes` in `space` (sim or cuda). Throws device_error when the space is unavailable.
void* device_malloc(memory_space space, std::size_t bytes);
void device_free(memory_space space, void* p) noexcept;
/// Copies `bytes` between any two spaces; a host side is plain host memory.
void copy_bytes(memory_space dst_space, void* dst, memory_space src_space, const void* src, std::size_t bytes);
/// Waits for the space's pending work; throws device_error with the first asynchronous error.
void synchronize(memory_space space);

// The sim arena is one reserved address range, so "is this a sim pointer" is two comparisons.
extern const char* sim_arena_begin;
extern const char* sim_arena_end;
inline bool in_sim_arena(const void* lo, const void* hi) noexcept {
  auto* a = static_cast<const char*>(lo);
  auto* b = static_cast<const char*>(hi);
  return sim_arena_begin != nullptr && a >= sim_arena_begin && b <= sim_arena_end;
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

/// Throws device_error unless `space` can run here (cuda: runtime built with CUDA and a device answers).
void require_space(memory_space space);

} // namespace ufx::detail
