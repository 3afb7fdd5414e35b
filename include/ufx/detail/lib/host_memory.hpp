#pragma once
// Host memory for ufx's own arrays (every ndarray; src/host_memory.cpp, measured in docs/performance.md). Small blocks
// come from operator new, 64-byte aligned; from host_large_bytes a block gets its own mapping, 2 MiB aligned and marked
// for transparent huge pages (madvise, as NumPy does from 4 MiB): where THP is "madvise" only (Debian's default
// kernels) a first touch then faults once per 2 MiB, not per 4 KiB. A few freed large blocks are kept for the next
// array of the same size (rounded to 2 MiB), which a loop making a fresh result per call finds.
#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>

#include "ufx/config.hpp"

namespace ufx::detail {

/// From this many bytes a block gets its own huge-page-aligned mapping.
inline constexpr std::size_t host_large_bytes = std::size_t{4} << 20;

/// `bytes` of host memory, 64-byte aligned (2 MiB aligned from host_large_bytes); std::bad_alloc when there is none.
void* host_allocate(std::size_t bytes);
/// Returns a block from host_allocate(bytes) (the same `bytes`).
void host_deallocate(void* p, std::size_t bytes) noexcept;

/// Marks the 2 MiB-aligned part of [p, p + bytes) for transparent huge pages (madvise), so its first touch faults once
/// per 2 MiB. For memory ufx does not own (a fresh std::vector's or Eigen result's malloc'ed buffer): a hint leaving
/// contents and owner alone; nothing below host_large_bytes or off Linux. Returns whether it was taken (tests).
bool host_hint_huge_pages(void* p, std::size_t bytes) noexcept;

/// What the cache of freed large blocks holds now (for tests and the performance guide).
struct host_cache_stats {
  std::size_t blocks = 0, bytes = 0;
};
host_cache_stats host_cache() noexcept;
/// Unmaps every cached block.
void host_cache_release() noexcept;

/// memcpy by up to `threads` host threads, 1 MiB a range (one thread's memcpy does not reach the host's memory
/// bandwidth: staging pageable data for a device does this). `streaming`: each range written with non-temporal stores
/// (stream_copy), which neither read the destination's lines first nor keep them in the cache: for a staging block,
/// which the device's copy engine reads next, and a large result arriving from it.
void host_copy(void* dst, const void* src, std::size_t bytes, int threads, bool streaming = false);
/// memcpy whose stores bypass the cache where the CPU has them (x86-64: 16-byte `movntdq` to the aligned part of `dst`,
/// then a store fence), else memcpy. The same bytes either way.
void stream_copy(void* dst, const void* src, std::size_t bytes) noexcept;

template <class T>
struct host_array_deleter {
  std::size_t n = 0;
  void operator()(T* p) const noexcept {
    std::destroy_n(p, n);
    host_deallocate(p, n * sizeof(T));
  }
};

template <class T>
using host_array_ptr = std::unique_ptr<T[], host_array_deleter<T>>;

/// n default-initialised T (arithmetic T: uninitialised, so the first write is the first touch).
template <class T>
host_array_ptr<T> host_array(std::size_t n) {
  static_assert(alignof(T) <= 64, "ufx::ndarray: element types aligned to more than 64 bytes are not supported");
  if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_alloc();
  T* p = static_cast<T*>(host_allocate(n * sizeof(T)));
  if constexpr (!std::is_trivially_default_constructible_v<T>) {
    try {
      std::uninitialized_default_construct_n(p, n);
    } catch (...) {
      host_deallocate(p, n * sizeof(T));
      throw;
    }
  }
  return host_array_ptr<T>(p, host_array_deleter<T>{n});
}

} // namespace ufx::detail
