// What every device runtime shares: moving bytes between spaces, classifying pointers, the public device functions
// (devices(), current_device(), select_device()). Nothing here knows a particular runtime: memory_space names its own.
#include <algorithm>
#include <atomic>
#include <utility>
#include <vector>
#include <new>
#include <mutex>
#include <map>
#include <cstring>
#include <memory>
#include <ostream>
#include <string>

#include "runtime_common.hpp"
#include "ufx/detail/cpu/executor.hpp"
#include "ufx/detail/lib/host_memory.hpp"
#include "ufx/detail/lib/runtime.hpp"
#include "ufx/errors.hpp"

namespace ufx::detail {

std::string_view runtime_name(const device_runtime& rt) noexcept { return rt.name(); }
int runtime_current_device(const device_runtime& rt) { return rt.current_device(); }

void device_runtime::unavailable() const {
  throw device_error(std::string(name()) + " is not available here: " + std::string(unavailable_reason()));
}

void require_space(const memory_space& s) {
  if (s.is_host()) return;
  if (!s.runtime->available()) s.runtime->unavailable();
  const int n = s.runtime->device_count();
  if (s.device < 0 || s.device >= n)
    throw device_error(std::string(s.runtime->name()) + ": device " + std::to_string(s.device) + " does not exist (" +
                       std::to_string(n) + (n == 1 ? " device" : " devices") + " here)");
}

// ---- the scratch cache: small temporaries of calls without a stream, kept for the next call
//
// A call without a stream runs in one order per device (ufx::cuda: the legacy default stream; the sim: at once),
// whichever host thread makes it, so a temporary it gives back can serve the next such call at once: that call's work
// is queued after the work that used it. Blocks of up to 64 KiB (a reduction's value slot and CUB's storage, small
// staged operands) are kept, rounded up to a power of two, up to 1 MiB in all; a call then allocates nothing. An
// allocation that finds the device full gives the kept blocks back first, and configure_sim gives back the sim's.

namespace {
struct scratch_block {
  const device_runtime* rt;
  int device;
  void* p;
  std::size_t bytes;
};
struct scratch_cache {
  std::mutex m;
  std::vector<scratch_block> idle; // kept for the next call
  std::vector<scratch_block> lent; // in a call's hands
  std::size_t idle_bytes = 0;
};
scratch_cache& scratch() {
  static auto* c = new scratch_cache; // never destroyed: a block kept at exit goes with the process
  return *c;
}
constexpr std::size_t scratch_largest = std::size_t{64} << 10, scratch_keep = std::size_t{1} << 20;

std::size_t scratch_size(std::size_t bytes) {
  std::size_t b = 256;
  while (b < bytes) b *= 2;
  return b;
}

/// Frees a block the cache held, in the order of calls without a stream.
void scratch_free(const scratch_block& b) noexcept {
  b.rt->deallocate(b.device, b.p, nullptr);
  call_counters::add(b.rt->counters.frees);
}

/// Gives back the blocks kept for device `device` of `rt` (every device: -1); true when there were any.
bool scratch_trim(const device_runtime* rt, int device) noexcept {
  std::vector<scratch_block> out;
  {
    auto& c = scratch();
    const std::lock_guard lock(c.m);
    std::erase_if(c.idle, [&](const scratch_block& b) {
      if (b.rt != rt || (device >= 0 && b.device != device)) return false;
      out.push_back(b);
      c.idle_bytes -= b.bytes;
      return true;
    });
  }
  for (const auto& b : out) scratch_free(b);
  return !out.empty();
}

template <class Alloc>
void* allocate_or_trim(const memory_space& s, const Alloc& alloc) {
  try {
    return alloc();
  } catch (const device_error&) {
    if (!scratch_trim(s.runtime, s.device)) throw;
    return alloc();
  }
}

/// A block of at least `bytes` for a call without a stream: one kept of its size, else a new one
/// (the space checked, allocated in the order of such calls).
void* scratch_take(const memory_space& s, std::size_t bytes) {
  const std::size_t size = scratch_size(bytes);
  auto& c = scratch();
  {
    const std::lock_guard lock(c.m);
    for (auto it = c.idle.begin(); it != c.idle.end(); ++it) {
      if (it->rt != s.runtime || it->device != s.device || it->bytes != size) continue;
      const scratch_block b = *it;
      c.idle.erase(it);
      c.idle_bytes -= size;
      c.lent.push_back(b);
      return b.p;
    }
  }
  require_space(s);
  void* p = allocate_or_trim(s, [&] { return s.runtime->allocate(s.device, size, nullptr); });
  call_counters::add(s.runtime->counters.allocations);
  const std::lock_guard lock(c.m);
  c.lent.push_back({s.runtime, s.device, p, size});
  return p;
}

/// Takes back a block scratch_take lent (kept, or freed when the cache is full); false when `p` is not one.
bool scratch_give(const memory_space& s, void* p) noexcept {
  auto& c = scratch();
  scratch_block b{};
  {
    const std::lock_guard lock(c.m);
    auto it = std::find_if(c.lent.begin(), c.lent.end(),
                           [&](const scratch_block& x) { return x.p == p && x.rt == s.runtime; });
    if (it == c.lent.end()) return false;
    b = *it;
    c.lent.erase(it);
    if (c.idle_bytes + b.bytes <= scratch_keep) {
      c.idle.push_back(b);
      c.idle_bytes += b.bytes;
      return true;
    }
  }
  scratch_free(b);
  return true;
}
} // namespace

void scratch_release(const device_runtime& rt) noexcept { scratch_trim(&rt, -1); }

long scratch_kept(const device_runtime& rt) noexcept {
  auto& c = scratch();
  const std::lock_guard lock(c.m);
  return static_cast<long>(
      std::count_if(c.idle.begin(), c.idle.end(), [&](const scratch_block& b) { return b.rt == &rt; }));
}

void* device_malloc(const memory_space& s, std::size_t bytes) {
  if (s.is_host()) throw device_error("ufx: device_malloc called for host memory");
  if (capture_on(s.runtime)) [[unlikely]]
    refuse_in_capture("ufx", "a device array allocated (a call's result, a new array, a copy to the device)",
                      "allocate it before the capture and write into it with ufx::out(...)");
  require_space(s);
  void* p = allocate_or_trim(s, [&] { return s.runtime->allocate(s.device, bytes, nullptr); });
  call_counters::add(s.runtime->counters.allocations);
  return p;
}

void device_free(const memory_space& s, void* p) noexcept {
  if (p == nullptr || !s.is_device()) return;
  s.runtime->deallocate(s.device, p, nullptr);
  call_counters::add(s.runtime->counters.frees);
}

// ---- stream arenas: the device memory a chunked call keeps per stream

namespace {
struct stream_arena {
  void* stream;
  char* base;
  std::size_t bytes, used;
};
struct arena_registry {
  std::mutex m;
  std::vector<stream_arena> list;
  std::atomic<int> live{0}; // list.size(), read without the lock on every stream allocation
};
arena_registry& arenas() {
  static arena_registry r;
  return r;
}
constexpr std::size_t arena_alignment = 256; // cudaMalloc's
} // namespace

void stream_arena_attach(void* stream, void* base, std::size_t bytes) {
  auto& r = arenas();
  const std::lock_guard lock(r.m);
  r.list.push_back({stream, static_cast<char*>(base), bytes, 0});
  r.live.store(static_cast<int>(r.list.size()), std::memory_order_release);
}
void stream_arena_reset(void* stream) noexcept {
  auto& r = arenas();
  const std::lock_guard lock(r.m);
  for (auto& a : r.list)
    if (a.stream == stream) a.used = 0;
}
void stream_arena_detach(void* stream) noexcept {
  auto& r = arenas();
  const std::lock_guard lock(r.m);
  std::erase_if(r.list, [&](const stream_arena& a) { return a.stream == stream; });
  r.live.store(static_cast<int>(r.list.size()), std::memory_order_release);
}

void* device_malloc_async(const memory_space& s, std::size_t bytes, void* stream) {
  if (s.is_host()) throw device_error("ufx: device_malloc_async called for host memory");
  if (!stream) { // a call without a stream: in the order of the runtime's calls (CUDA's legacy stream), else at once
    if (capture_on(s.runtime)) [[unlikely]] // CUDA's legacy stream inside a capture breaks it: the sim says so too
      refuse_in_capture("ufx", "a temporary allocated outside the captured stream's order",
                        "this is ufx's error: please report it, with the call");
    if (bytes <= scratch_largest) return scratch_take(s, bytes); // a kept block needs no check of the space
    require_space(s);
    stream = s.runtime->ordered_stream(s.device);
    if (!stream) return device_malloc(s, bytes);
  }
  if (auto& r = arenas(); r.live.load(std::memory_order_acquire) > 0) {
    const std::lock_guard lock(r.m);
    for (auto& a : r.list) {
      if (a.stream != stream) continue;
      const std::size_t need =
          (std::max<std::size_t>(bytes, 1) + arena_alignment - 1) / arena_alignment * arena_alignment;
      if (a.used + need > a.bytes) break; // full: from the pool
      void* p = a.base + a.used;
      a.used += need;
      return p;
    }
  }
  require_space(s);
  void* p = allocate_or_trim(s, [&] { return s.runtime->allocate(s.device, bytes, stream); });
  call_counters::add(s.runtime->counters.allocations);
  return p;
}

void device_free_async(const memory_space& s, void* p, void* stream) noexcept {
  if (p == nullptr || !s.is_device()) return;
  if (!stream) {
    if (scratch_give(s, p)) return;
    stream = s.runtime->ordered_stream(s.device);
    if (!stream) return device_free(s, p);
  }
  if (auto& r = arenas(); r.live.load(std::memory_order_acquire) > 0) {
    const std::lock_guard lock(r.m);
    for (const auto& a : r.list)
      if (static_cast<char*>(p) >= a.base && static_cast<char*>(p) < a.base + a.bytes) return; // the arena's
  }
  s.runtime->deallocate(s.device, p, stream);
  call_counters::add(s.runtime->counters.frees);
}

staging_settings& copy_staging() noexcept {
  static staging_settings s;
  return s;
}

int staging_threads(const device_runtime& rt) noexcept {
  return rt.copies_by_dma() ? std::max(1, std::min(copy_staging().threads, host_threads())) : 1;
}
bool staging_streams(const device_runtime& rt) noexcept {
  const staging_settings& c = copy_staging();
  return c.streaming_stores && (rt.copies_by_dma() || c.sim);
}

namespace {
/// copy_bytes between pageable host memory and device `dev` through pinned blocks (copy_staging): to the device, the
/// host packs block i + 1 while the device copies block i; from it, the device copies blocks ahead while the host
/// unpacks the oldest. Returns once every byte has arrived; on failure, once queued copies stopped using the blocks.
void staged_copy(const device_runtime& rt, const memory_space& dev, char* dst, const char* src, std::size_t bytes,
                 bool to_device) {
  const staging_settings cfg = copy_staging();
  const std::size_t chunk = std::max<std::size_t>(cfg.chunk, 4096);
  const std::size_t n = (bytes + chunk - 1) / chunk;
  const int k = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(std::max(2, cfg.blocks)), n));
  const int threads = staging_threads(rt);
  const bool streaming = staging_streams(rt);
  struct slot {
    char* block = nullptr;
    std::size_t size = 0, off = 0, len = 0;
    void* event = nullptr;
    bool queued = false;
  };
  std::vector<slot> slots(static_cast<std::size_t>(k));
  const int prev = rt.current_device();
  void* stream = rt.ordered_stream(dev.device);
  const bool own_stream = stream == nullptr;
  auto release = [&]() noexcept {
    try {
      if (stream) rt.stream_synchronize(dev.device, stream);
    } catch (...) { // the copy's own error is the one reported
    }
    for (auto& s : slots) {
      if (s.event) rt.destroy_event(s.event);
      if (s.block) pinned_staging_give(s.block, s.size);
    }
    if (own_stream && stream) rt.destroy_stream(dev.device, stream);
    if (prev != dev.device) try {
        rt.select_device(prev);
      } catch (...) {}
  };
  try {
    if (prev != dev.device) rt.select_device(dev.device);
    if (own_stream) stream = rt.create_stream(dev.device);
    for (auto& s : slots) {
      s.size = chunk;
      s.block = static_cast<char*>(pinned_staging_take(s.size));
      s.event = rt.create_event(dev.device);
    }
    auto queue = [&](std::size_t i) { // chunk i's copy on its slot
      slot& s = slots[i % static_cast<std::size_t>(k)];
      s.off = i * chunk;
      s.len = std::min(chunk, bytes - s.off);
      if (to_device) {
        host_copy(s.block, src + s.off, s.len, threads, streaming);
        rt.copy_async(dev, dst + s.off, memory_space::host, s.block, s.len, stream);
      } else {
        rt.copy_async(memory_space::host, s.block, dev, src + s.off, s.len, stream);
      }
      rt.record_event(s.event, stream);
      s.queued = true;
    };
    if (to_device) {
      for (std::size_t i = 0; i < n; ++i) {
        slot& s = slots[i % static_cast<std::size_t>(k)];
        if (s.queued) rt.event_synchronize(s.event); // its previous block has left
        queue(i);
      }
    } else {
      for (std::size_t i = 0; i < static_cast<std::size_t>(k); ++i) queue(i);
      for (std::size_t i = 0; i < n; ++i) {
        slot& s = slots[i % static_cast<std::size_t>(k)];
        rt.event_synchronize(s.event);
        host_copy(dst + s.off, s.block, s.len, threads, streaming);
        if (i + static_cast<std::size_t>(k) < n) queue(i + static_cast<std::size_t>(k));
      }
    }
    rt.stream_synchronize(dev.device, stream);
  } catch (...) {
    release();
    throw;
  }
  release();
}
} // namespace

void copy_bytes(const memory_space& dst_space, void* dst, const memory_space& src_space, const void* src,
                std::size_t bytes) {
  if (bytes == 0) return;
  if (capture_on(dst_space.runtime) || capture_on(src_space.runtime)) [[unlikely]]
    refuse_in_capture("ufx",
                      "a copy made at the call (to or from host memory that is not pinned, to_host, a result "
                      "returned to the host)",
                      "copy before or after the capture, or between device arrays and pinned host memory "
                      "(ufx::pinned_vector), which the stream copies at each replay");
  if (dst_space.is_host() && src_space.is_host()) {
    std::memmove(dst, src, bytes);
    return;
  }
  if (dst_space.is_device() && src_space.is_device() && dst_space.runtime != src_space.runtime) {
    // two kinds of device (ufx::sim and ufx::cuda): through the host
    std::unique_ptr<char[]> bounce(new char[bytes]);
    copy_bytes(memory_space::host, bounce.get(), src_space, src, bytes);
    copy_bytes(dst_space, dst, memory_space::host, bounce.get(), bytes);
    return;
  }
  const device_runtime& rt = dst_space.is_device() ? *dst_space.runtime : *src_space.runtime;
  require_space(dst_space);
  require_space(src_space);
  call_counters::add(dst_space.is_host() ? rt.counters.to_host
                                         : (src_space.is_host() ? rt.counters.to_device : rt.counters.within));
  if (dst_space.is_host() != src_space.is_host()) {
    const staging_settings& cfg = copy_staging();
    const void* host_side = dst_space.is_host() ? dst : src;
    if (cfg.enabled && bytes >= cfg.min_bytes && (rt.copies_by_dma() || cfg.sim) && !is_pinned(host_side, bytes))
      return staged_copy(rt, dst_space.is_host() ? src_space : dst_space, static_cast<char*>(dst),
                         static_cast<const char*>(src), bytes, dst_space.is_device());
  }
  rt.copy(dst_space, dst, src_space, src, bytes);
}

void synchronize(const memory_space& s) {
  if (s.is_device() && capture_on(s.runtime)) [[unlikely]]
    refuse_in_capture("ufx::synchronize", "a wait for the device", "synchronize after the capture, or after a launch");
  if (s.is_device()) s.runtime->synchronize(s.device);
}

memory_space space_of(const void* p, std::size_t bytes) noexcept {
  int n = 0;
  const device_runtime* const* list = all_runtimes(n);
  for (int i = 0; i < n; ++i) {
    call_counters::add(list[i]->counters.queries);
    const int d = list[i]->device_of(p, bytes);
    if (d >= 0) return memory_space{list[i], d};
  }
  return memory_space::host;
}

// ---- pinned host memory: one registry of page-locked ranges, whichever runtime locked them

namespace {
struct pinned_registry {
  std::mutex m;
  std::map<const char*, std::pair<const char*, bool>> ranges; // begin -> (end, allocated by ufx)
};
pinned_registry& pinned() {
  static pinned_registry r;
  return r;
}
} // namespace

void* pinned_allocate(std::size_t bytes) {
  void* p = cuda_runtime().host_allocate_pinned(bytes); // null where no GPU answers
  const bool by_cuda = p != nullptr;
  if (!p) p = ::operator new (bytes == 0 ? 1 : bytes, std::align_val_t{64});
  auto& r = pinned();
  const std::lock_guard lock(r.m);
  r.ranges[static_cast<const char*>(p)] = {static_cast<const char*>(p) + bytes, by_cuda};
  return p;
}

void pinned_deallocate(void* p) noexcept {
  if (!p) return;
  bool by_cuda = false;
  {
    auto& r = pinned();
    const std::lock_guard lock(r.m);
    auto it = r.ranges.find(static_cast<const char*>(p));
    if (it != r.ranges.end()) {
      by_cuda = it->second.second;
      r.ranges.erase(it);
    }
  }
  if (by_cuda) cuda_runtime().host_free_pinned(p);
  else ::operator delete (p, std::align_val_t{64});
}

void pin_range(const void* p, std::size_t bytes) {
  if (!p || bytes == 0) return;
  cuda_runtime().host_register(p, bytes);
  auto& r = pinned();
  const std::lock_guard lock(r.m);
  r.ranges[static_cast<const char*>(p)] = {static_cast<const char*>(p) + bytes, false};
}

void unpin_range(const void* p) noexcept {
  if (!p) return;
  {
    auto& r = pinned();
    const std::lock_guard lock(r.m);
    r.ranges.erase(static_cast<const char*>(p));
  }
  cuda_runtime().host_unregister(p);
}

bool is_pinned(const void* p, std::size_t bytes) noexcept {
  auto* c = static_cast<const char*>(p);
  auto& r = pinned();
  const std::lock_guard lock(r.m);
  auto it = r.ranges.upper_bound(c);
  if (it == r.ranges.begin()) return false;
  --it;
  return c >= it->first && c + bytes <= it->second.first;
}

// ---- pinned staging blocks for chunked calls, kept across calls (a few, the largest)

namespace {
struct staging_cache {
  std::mutex m;
  std::vector<std::pair<void*, std::size_t>> free; // pinned blocks not in use
};
staging_cache& staging() {
  static auto* c = new staging_cache; // never destroyed: its blocks stay reachable, and no pinned
  return *c;                          // memory is freed while the CUDA runtime shuts down
}
constexpr std::size_t staging_kept = 4; // blocks kept for reuse
} // namespace

void* pinned_staging_take(std::size_t& bytes) {
  {
    auto& c = staging();
    const std::lock_guard lock(c.m);
    auto best = c.free.end();
    for (auto it = c.free.begin(); it != c.free.end(); ++it)
      if (it->second >= bytes && (best == c.free.end() || it->second < best->second)) best = it;
    if (best != c.free.end()) {
      void* p = best->first;
      bytes = best->second;
      c.free.erase(best);
      return p;
    }
  }
  return pinned_allocate(bytes);
}

void pinned_staging_give(void* p, std::size_t bytes) noexcept {
  if (!p) return;
  void* evict = nullptr;
  {
    auto& c = staging();
    const std::lock_guard lock(c.m);
    c.free.emplace_back(p, bytes);
    if (c.free.size() > staging_kept) { // drop the smallest
      auto small = std::min_element(c.free.begin(), c.free.end(),
                                    [](const auto& a, const auto& b) { return a.second < b.second; });
      evict = small->first;
      c.free.erase(small);
    }
  }
  pinned_deallocate(evict);
}

} // namespace ufx::detail

namespace ufx {

namespace {
const detail::device_runtime& runtime_of(const target& t, const char* who) {
  const detail::device_runtime* rt = t.visit([](const auto& tag) -> const detail::device_runtime* {
    if constexpr (std::remove_cvref_t<decltype(tag)>::is_device) return &tag.runtime();
    else return nullptr;
  });
  if (rt == nullptr)
    throw device_error(std::string(who) + ": " + std::string(t.name()) +
                       " is not a device target; use ufx::cuda or ufx::sim");
  return *rt;
}
} // namespace

std::vector<device_info> devices(const target& t) {
  const detail::device_runtime& rt = runtime_of(t, "ufx::devices");
  std::vector<device_info> out;
  if (!rt.available()) return out;
  const int n = rt.device_count();
  for (int i = 0; i < n; ++i) out.push_back(rt.info(i));
  return out;
}

int current_device(const target& t) {
  const detail::device_runtime& rt = runtime_of(t, "ufx::current_device");
  detail::require_space(memory_space{&rt, 0});
  return rt.current_device();
}

void select_device(const target& t, int i) {
  const detail::device_runtime& rt = runtime_of(t, "ufx::select_device");
  detail::require_space(memory_space{&rt, i});
  rt.select_device(i);
}

void synchronize(const target& t) {
  const detail::device_runtime& rt = runtime_of(t, "ufx::synchronize");
  const int device = t.visit([](const auto& tag) {
    if constexpr (std::remove_cvref_t<decltype(tag)>::is_device) return tag.ordinal();
    else return 0;
  });
  detail::require_space(memory_space{&rt, device});
  detail::synchronize(memory_space{&rt, device}); // refused inside a capture
}

std::ostream& operator<<(std::ostream& os, const device_info& d) {
  os << d.target << " device " << d.ordinal << ": " << d.name << ", compute " << d.compute_major << '.'
     << d.compute_minor << ", " << d.multiprocessors << " SMs, " << detail::format_bytes(d.total_memory) << " ("
     << detail::format_bytes(d.free_memory) << " free), " << d.max_threads_per_block << " threads/block, "
     << detail::format_bytes(d.shared_memory_per_block) << " shared/block, warp " << d.warp_size;
  return os;
}

} // namespace ufx
