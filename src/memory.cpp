// Host side of the device memory runtime: the sim arena and dispatch between spaces.
#include <sys/mman.h>

#include <atomic>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <string>

#include "cuda_backend.hpp"
#include "ufx/detail/memory.hpp"
#include "ufx/errors.hpp"

namespace ufx::detail {

const char* sim_arena_begin = nullptr;
const char* sim_arena_end = nullptr;

namespace {

// One reserved range of address space; blocks are carved out first-fit and given back with
// madvise, so a sim allocation costs what a real one does (pages on first touch) and a sim pointer
// is recognised by two comparisons.
class sim_arena {
public:
  static sim_arena& get() {
    static sim_arena a;
    return a;
  }

  void* allocate(std::size_t bytes) {
    std::size_t n = round_up(bytes == 0 ? 1 : bytes);
    std::lock_guard lock(mutex_);
    for (auto it = free_.begin(); it != free_.end(); ++it) {
      if (it->second < n) continue;
      std::size_t off = it->first, size = it->second;
      free_.erase(it);
      if (size > n) free_.emplace(off + n, size - n);
      live_.emplace(off, n);
      ++counters_.allocations;
      ++counters_.live_allocations;
      return base_ + off;
    }
    throw device_error("ufx::sim: out of emulated device memory (requested " + std::to_string(bytes) + " bytes)");
  }

  void release(void* p) noexcept {
    std::lock_guard lock(mutex_);
    auto it = live_.find(static_cast<std::size_t>(static_cast<char*>(p) - base_));
    if (it == live_.end()) return; // not ours: ignore, as cudaFree of a stale pointer would only report
    std::size_t off = it->first, n = it->second;
    live_.erase(it);
    --counters_.live_allocations;
    if (n >= (std::size_t{1} << 20)) madvise(base_ + off, n, MADV_DONTNEED);
    auto next = free_.emplace(off, n).first;
    if (auto after = std::next(next); after != free_.end() && next->first + next->second == after->first) {
      next->second += after->second;
      free_.erase(after);
    }
    if (next != free_.begin()) {
      auto before = std::prev(next);
      if (before->first + before->second == next->first) {
        before->second += next->second;
        free_.erase(next);
      }
    }
  }

  sim_counters counters() {
    std::lock_guard lock(mutex_);
    return counters_;
  }
  void count_copy(memory_space dst, memory_space src) {
    std::lock_guard lock(mutex_);
    if (dst == memory_space::sim && src == memory_space::sim) ++counters_.device_to_device;
    else if (dst == memory_space::sim) ++counters_.host_to_device;
    else ++counters_.device_to_host;
  }

private:
  sim_arena() {
    // Reserve as much address space as the system grants, from 1 TiB down.
    for (std::size_t size = std::size_t{1} << 40; size >= (std::size_t{1} << 28); size /= 2) {
      void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (p == MAP_FAILED) continue;
      base_ = static_cast<char*>(p);
      free_.emplace(0, size);
      sim_arena_begin = base_;
      sim_arena_end = base_ + size;
      return;
    }
    throw device_error("ufx::sim: could not reserve address space for the emulated device");
  }
  static std::size_t round_up(std::size_t n) { return (n + 255) / 256 * 256; }

  std::mutex mutex_;
  char* base_ = nullptr;
  std::map<std::size_t, std::size_t> free_; // offset -> size
  std::map<std::size_t, std::size_t> live_; // offset -> size
  sim_counters counters_;
};

} // namespace

void require_space(memory_space space) {
  if (space == memory_space::cuda && !cuda_available())
    throw device_error("ufx::cuda is not available here: " + std::string(cuda_unavailable_reason()));
}

void* device_malloc(memory_space space, std::size_t bytes) {
  switch (space) {
  case memory_space::sim: return sim_arena::get().allocate(bytes);
  case memory_space::cuda: require_space(space); return cuda_backend::malloc(bytes);
  case memory_space::host: break;
  }
  throw device_error("ufx: device_malloc called for host memory");
}

void device_free(memory_space space, void* p) noexcept {
  if (p == nullptr) return;
  if (space == memory_space::sim) sim_arena::get().release(p);
  else if (space == memory_space::cuda) cuda_backend::free(p);
}

void copy_bytes(memory_space dst_space, void* dst, memory_space src_space, const void* src, std::size_t bytes) {
  if (bytes == 0) return;
  if (dst_space == memory_space::cuda || src_space == memory_space::cuda) {
    if ((dst_space == memory_space::sim) || (src_space == memory_space::sim))
      throw device_error("ufx: cannot copy directly between ufx::sim and ufx::cuda memory");
    require_space(memory_space::cuda);
    cuda_backend::copy(dst, src, bytes);
    return;
  }
  if (dst_space == memory_space::sim || src_space == memory_space::sim) {
    auto check = [](memory_space s, const void* p, std::size_t n, const char* what) {
      if (s == memory_space::sim && !in_sim_arena(p, static_cast<const char*>(p) + n))
        throw device_error(std::string("ufx::sim: copy ") + what + " pointer is not a ufx::sim device allocation");
    };
    check(dst_space, dst, bytes, "destination");
    check(src_space, src, bytes, "source");
    sim_arena::get().count_copy(dst_space, src_space);
  }
  std::memcpy(dst, src, bytes);
}

void synchronize(memory_space space) {
  if (space == memory_space::cuda) cuda_backend::synchronize();
}

sim_counters sim_stats() noexcept { return sim_arena::get().counters(); }

} // namespace ufx::detail
