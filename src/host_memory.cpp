// Host memory for ufx's arrays: include/ufx/detail/lib/host_memory.hpp says what and why.
#include "ufx/detail/lib/host_memory.hpp"

#include <cstdint>
#include <mutex>
#include <new>
#include <vector>

#if defined(__linux__)
#  include <sys/mman.h>
#endif

// Under AddressSanitizer (asan.hpp), mapped and handed-out blocks are unpoisoned, cached ones
// poisoned (a use after free of a large ndarray is then caught), and unmapped ones cleaned.
#include "asan.hpp"

namespace ufx::detail {

namespace {

constexpr std::size_t small_align = 64;

#if defined(__linux__)
constexpr std::size_t huge_page = std::size_t{2} << 20;
/// At most this many freed large blocks, and this many bytes of them, are kept for reuse.
constexpr std::size_t cache_max_blocks = 4;
constexpr std::size_t cache_max_bytes = std::size_t{512} << 20;

std::size_t mapped_size(std::size_t bytes) { return (bytes + huge_page - 1) / huge_page * huge_page; }

struct block {
  void* p;
  std::size_t bytes; // mapped_size
};

struct block_cache {
  std::mutex m;
  std::vector<block> blocks; // oldest first
  std::size_t bytes = 0;
};

/// Never destroyed: arrays freed during static destruction still find it.
block_cache& cache() {
  static block_cache* c = new block_cache;
  return *c;
}

/// A fresh mapping of `bytes` (a multiple of 2 MiB) starting on a 2 MiB boundary, marked for
/// transparent huge pages; null when the system has no memory for it.
void* map_aligned(std::size_t bytes) {
  const std::size_t len = bytes + huge_page;
  void* raw = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const auto a = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t start = (a + huge_page - 1) / huge_page * huge_page, end = start + bytes;
  if (start > a) munmap(raw, start - a);
  if (a + len > end) munmap(reinterpret_cast<void*>(end), a + len - end);
  madvise(reinterpret_cast<void*>(start), bytes, MADV_HUGEPAGE); // no THP: plain pages, still right
  UFX_ASAN_UNPOISON(reinterpret_cast<void*>(start), bytes);
  return reinterpret_cast<void*>(start);
}

void unmap(void* p, std::size_t bytes) {
  UFX_ASAN_UNPOISON(p, bytes);
  munmap(p, bytes);
}
#endif

} // namespace

void* host_allocate(std::size_t bytes) {
#if defined(__linux__)
  if (bytes >= host_large_bytes) {
    const std::size_t size = mapped_size(bytes);
    block_cache& c = cache();
    {
      const std::lock_guard lock(c.m);
      for (std::size_t i = c.blocks.size(); i-- > 0;)
        if (c.blocks[i].bytes == size) {
          void* p = c.blocks[i].p;
          c.blocks.erase(c.blocks.begin() + static_cast<std::ptrdiff_t>(i));
          c.bytes -= size;
          UFX_ASAN_UNPOISON(p, size);
          return p;
        }
    }
    if (void* p = map_aligned(size)) return p;
    host_cache_release(); // the cached blocks may be what is missing
    if (void* p = map_aligned(size)) return p;
    throw std::bad_alloc();
  }
#endif
  return ::operator new (bytes > 0 ? bytes : 1, std::align_val_t{small_align});
}

void host_deallocate(void* p, std::size_t bytes) noexcept {
  if (!p) return;
#if defined(__linux__)
  if (bytes >= host_large_bytes) {
    const std::size_t size = mapped_size(bytes);
    if (size <= cache_max_bytes) {
      block_cache& c = cache();
      std::vector<block> evicted;
      {
        const std::lock_guard lock(c.m);
        while (!c.blocks.empty() && (c.blocks.size() >= cache_max_blocks || c.bytes + size > cache_max_bytes)) {
          evicted.push_back(c.blocks.front());
          c.bytes -= c.blocks.front().bytes;
          c.blocks.erase(c.blocks.begin());
        }
        try {
          c.blocks.push_back({p, size});
          UFX_ASAN_POISON(p, size);
          c.bytes += size;
          p = nullptr;
        } catch (...) { // no memory for the cache's own list: unmap instead
        }
      }
      for (const block& b : evicted) unmap(b.p, b.bytes);
    }
    if (p) unmap(p, size);
    return;
  }
#endif
  ::operator delete (p, std::align_val_t{small_align});
}

bool host_hint_huge_pages(void* p, std::size_t bytes) noexcept {
#if defined(__linux__)
  if (!p || bytes < host_large_bytes) return false;
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t start = (a + huge_page - 1) / huge_page * huge_page, end = (a + bytes) / huge_page * huge_page;
  if (end <= start) return false;
  return madvise(reinterpret_cast<void*>(start), end - start, MADV_HUGEPAGE) == 0;
#else
  (void)p;
  (void)bytes;
  return false;
#endif
}

host_cache_stats host_cache() noexcept {
#if defined(__linux__)
  block_cache& c = cache();
  const std::lock_guard lock(c.m);
  return {c.blocks.size(), c.bytes};
#else
  return {};
#endif
}

void host_cache_release() noexcept {
#if defined(__linux__)
  block_cache& c = cache();
  std::vector<block> all;
  {
    const std::lock_guard lock(c.m);
    all.swap(c.blocks);
    c.bytes = 0;
  }
  for (const block& b : all) unmap(b.p, b.bytes);
#endif
}

} // namespace ufx::detail
