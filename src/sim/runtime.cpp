// ufx::sim's device runtime: virtual devices carved out of one reserved address range, so a sim pointer is recognised
// (and its device found) by comparisons, and a sim allocation costs what a real one does (pages on first touch). Each
// device has a memory limit; an allocation beyond it throws "out of device memory" as ufx::cuda's does.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <utility>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "asan.hpp"
#include "runtime_common.hpp"
#include "ufx/detail/lib/runtime.hpp"
#include "ufx/errors.hpp"

namespace ufx::detail {

const device_info& sim_launch_limits(int device) noexcept; // declared for the backend in backend/sim/launch.hpp

namespace {

constexpr std::size_t align_bytes = 256;        // cudaMalloc's alignment
constexpr std::size_t device_granule = 2 << 20; // devices start on 2 MiB boundaries

std::size_t physical_memory() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return std::size_t{16} << 30;
  return static_cast<std::size_t>(pages) * static_cast<std::size_t>(page);
}

/// "64MiB", "2G", "1048576" -> bytes; throws device_error naming the variable.
std::size_t parse_bytes(const char* var, const std::string& text) {
  std::size_t i = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  std::string unit = text.substr(i);
  unit.erase(std::remove_if(unit.begin(), unit.end(), [](unsigned char c) { return std::isspace(c); }), unit.end());
  for (auto& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  int shift = -1;
  if (unit.empty() || unit == "b") shift = 0;
  else if (unit == "k" || unit == "kib" || unit == "kb") shift = 10;
  else if (unit == "m" || unit == "mib" || unit == "mb") shift = 20;
  else if (unit == "g" || unit == "gib" || unit == "gb") shift = 30;
  else if (unit == "t" || unit == "tib" || unit == "tb") shift = 40;
  if (i == 0 || shift < 0)
    throw device_error(std::string("ufx::sim: ") + var + "=" + text +
                       " is not a size (write bytes, or a number with KiB, MiB, GiB or TiB)");
  return std::stoull(text.substr(0, i)) << shift;
}

sim_config config_from_environment() {
  sim_config c;
  c.memory = physical_memory();
  if (const char* d = std::getenv("UFX_SIM_DEVICES"); d && *d) {
    char* end = nullptr;
    const long n = std::strtol(d, &end, 10);
    if (end == d || *end != '\0' || n < 1 || n > 64)
      throw device_error(std::string("ufx::sim: UFX_SIM_DEVICES=") + d + " is not a device count from 1 to 64");
    c.devices = static_cast<int>(n);
  }
  if (const char* m = std::getenv("UFX_SIM_MEMORY"); m && *m) c.memory = parse_bytes("UFX_SIM_MEMORY", m);
  if (c.memory == 0) throw device_error("ufx::sim: UFX_SIM_MEMORY must be more than 0 bytes");
  return c;
}

struct sim_device {
  std::map<std::size_t, std::size_t> free; // offset -> size, within this device's range
  struct allocation {
    std::size_t size;
    std::uint64_t id; // allocation_id: unique over the process's life
  };
  std::map<std::size_t, allocation> live; // offset -> its size and id
  std::size_t used = 0;
  std::size_t kept = 0; // about how many freed bytes still hold their pages (not returned to the OS)
};

/// Freed device memory the sim keeps resident per device, so new results reuse touched pages instead of faulting in
/// new ones (as host_memory.cpp's cache does); beyond it, freed blocks of 1 MiB or more go back to the OS.
constexpr std::size_t sim_keep_bytes = std::size_t{512} << 20;

/// A sim stream: a worker thread running queued tasks in order, as a GPU runs a stream's work.
class sim_stream {
public:
  explicit sim_stream(int device) : device_(device), worker_([this] { loop(); }) {}
  ~sim_stream() {
    {
      std::unique_lock lock(m_);
      stop_ = true;
    }
    cv_.notify_all();
    worker_.join();
  }
  /// `always`: run even after a failure (an event's completion, so that waiting for it ends; the
  /// failure itself is reported by the stream's synchronize, as CUDA reports a sticky error).
  void enqueue(std::function<void()> task, bool always = false) {
    {
      std::lock_guard lock(m_);
      if (recording_) { // a capture: kept for the graph's replays, not run now
        recording_->push_back(std::move(task));
        return;
      }
      q_.push_back({std::move(task), always});
    }
    cv_.notify_all();
  }
  /// From here on, enqueue records tasks instead of queueing them (ufx::capture); the work queued before still runs.
  void begin_recording() {
    std::lock_guard lock(m_);
    if (recording_) throw device_error("ufx::capture: the stream is already being captured");
    recording_ = std::make_unique<std::vector<std::function<void()>>>();
  }
  /// The tasks recorded since begin_recording (none when there was no recording).
  std::vector<std::function<void()>> end_recording() {
    std::lock_guard lock(m_);
    std::vector<std::function<void()>> r;
    if (recording_) r = std::move(*recording_);
    recording_.reset();
    return r;
  }
  /// Waits until every queued task has run; rethrows the first failure (and forgets it).
  void synchronize() {
    std::unique_lock lock(m_);
    idle_.wait(lock, [&] { return q_.empty() && !busy_; });
    if (error_) {
      auto e = std::exchange(error_, nullptr);
      std::rethrow_exception(e);
    }
  }
  int device() const { return device_; }

private:
  void loop() {
    std::unique_lock lock(m_);
    for (;;) {
      cv_.wait(lock, [&] { return stop_ || !q_.empty(); });
      if (q_.empty()) return; // stopping, and nothing left
      auto [task, always] = std::move(q_.front());
      q_.pop_front();
      busy_ = true;
      const bool skip = error_ != nullptr && !always; // after a failure, later work is skipped until synchronize
      lock.unlock();
      std::exception_ptr failed;
      if (!skip) {
        try {
          task();
        } catch (...) {
          failed = std::current_exception();
        }
      }
      task = nullptr; // releases what the task held before the stream counts as idle
      lock.lock();
      if (failed && !error_) error_ = failed;
      busy_ = false;
      if (q_.empty()) idle_.notify_all();
    }
  }

  int device_;
  std::mutex m_;
  std::condition_variable cv_, idle_;
  std::deque<std::pair<std::function<void()>, bool>> q_;
  bool busy_ = false, stop_ = false;
  std::exception_ptr error_;
  std::unique_ptr<std::vector<std::function<void()>>> recording_;
  std::thread worker_; // last: starts once the rest is built
};

/// A sim graph: the tasks a capture recorded, replayed in order by one task on a stream. A replay holds them, so a
/// graph destroyed or updated while a replay is queued still runs that replay. Temporaries the recorded calls allocated
/// are freed when the tasks that release them go, with the graph (as CUDA's graph memory nodes live with the graph).
struct sim_graph {
  std::shared_ptr<const std::vector<std::function<void()>>> tasks;
};

/// A sim event: completes when the stream reaches the point it was recorded at.
struct sim_event {
  std::mutex m;
  std::condition_variable cv;
  std::uint64_t recorded = 0, completed = 0; // generations
  std::chrono::steady_clock::time_point when{};
};

void complete(sim_event* e, std::uint64_t generation) {
  {
    std::lock_guard lock(e->m);
    if (generation > e->completed) {
      e->completed = generation;
      e->when = std::chrono::steady_clock::now();
    }
  }
  e->cv.notify_all();
}

/// The sim's device memory that holds nothing written: ranges of new device_arrays, until a copy,
/// a call's output or a kernel's write covers them (the block runner's uninitialised-read check).
class undefined_ranges {
public:
  void add(const void* p, std::size_t n) {
    if (n == 0) return;
    const std::lock_guard lock(m_);
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    cut(a, a + n);
    r_[a] = a + n;
    count_.store(r_.size(), std::memory_order_relaxed);
  }
  void remove(const void* p, std::size_t n) {
    if (n == 0 || count_.load(std::memory_order_relaxed) == 0) return;
    const std::lock_guard lock(m_);
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    cut(a, a + n);
    count_.store(r_.size(), std::memory_order_relaxed);
  }
  bool contains(const void* p, std::size_t n) {
    if (count_.load(std::memory_order_relaxed) == 0) return false;
    const std::lock_guard lock(m_);
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    auto it = r_.upper_bound(a);
    if (it == r_.begin()) return false;
    --it;
    return it->first <= a && a + n <= it->second;
  }

private:
  /// Removes [a, b) from the ranges, splitting those it cuts.
  void cut(std::uintptr_t a, std::uintptr_t b) {
    auto it = r_.upper_bound(a);
    if (it != r_.begin()) --it;
    while (it != r_.end() && it->first < b) {
      const std::uintptr_t s = it->first, e = it->second;
      if (e <= a) {
        ++it;
        continue;
      }
      it = r_.erase(it);
      if (s < a) r_[s] = a;
      if (b < e) r_[b] = e;
    }
  }
  std::mutex m_;
  std::map<std::uintptr_t, std::uintptr_t> r_; // start -> end
  std::atomic<std::size_t> count_{0};
};

undefined_ranges& undefined_memory() {
  static undefined_ranges u;
  return u;
}

class sim_runtime_impl final : public device_runtime {
public:
  std::string_view name() const noexcept override { return "ufx::sim"; }
  bool available() const noexcept override { return true; }
  std::string_view unavailable_reason() const noexcept override { return {}; }

  int device_count() const override {
    if (const int n = device_count_.load(std::memory_order_acquire)) return n; // every launch asks (require_space)
    std::lock_guard lock(mutex_);
    ensure();
    return config_.devices;
  }

  device_info info(int device) const override {
    std::lock_guard lock(mutex_);
    ensure();
    check_device(device);
    device_info d = sim_launch_limits(device);
    d.total_memory = config_.memory;
    d.free_memory = config_.memory - devices_[static_cast<std::size_t>(device)].used;
    return d;
  }

  int current_device() const override { return current_; }
  void select_device(int device) const override {
    std::lock_guard lock(mutex_);
    ensure();
    check_device(device);
    current_ = device;
  }

  /// At once, whatever the stream: work queued on it from here on runs later.
  void* allocate(int device, std::size_t bytes, void*) const override {
    std::lock_guard lock(mutex_);
    ensure();
    check_device(device);
    sim_device& dev = devices_[static_cast<std::size_t>(device)];
    const std::size_t n = round_up(bytes == 0 ? 1 : bytes, align_bytes);
    if (n <= config_.memory - dev.used) {
      for (auto it = dev.free.begin(); it != dev.free.end(); ++it) {
        if (it->second < n) continue;
        const std::size_t off = it->first, size = it->second;
        dev.free.erase(it);
        if (size > n) dev.free.emplace(off + n, size - n);
        dev.live.emplace(off, sim_device::allocation{n, ++allocation_ids_});
        dev.used += n;
        dev.kept -= std::min(dev.kept, n);
        ++counters_.allocations;
        ++counters_.live_allocations;
        return base_ + static_cast<std::size_t>(device) * stride_ + off;
      }
    }
    throw device_error(out_of_memory_message("ufx::sim", device, bytes, config_.memory - dev.used, config_.memory));
  }

  void deallocate(int device, void* p, void* s) const noexcept override {
    // on a stream: freed when its worker drops the task, after the work queued before it (run, or skipped on failure)
    if (s) {
      std::shared_ptr<void> release(p, [this, device](void* q) { deallocate(device, q, nullptr); });
      return sim_enqueue(s, [r = std::move(release)] {});
    }
    std::lock_guard lock(mutex_);
    if (base_ == nullptr || device < 0 || device >= config_.devices) return;
    sim_device& dev = devices_[static_cast<std::size_t>(device)];
    char* start = base_ + static_cast<std::size_t>(device) * stride_;
    auto it = dev.live.find(static_cast<std::size_t>(static_cast<char*>(p) - start));
    if (it == dev.live.end()) return; // not ours: ignore, as cudaFree of a stale pointer would only report
    const std::size_t off = it->first, n = it->second.size;
    dev.live.erase(it);
    undefined_memory().remove(start + off, n);
    dev.used -= n;
    --counters_.live_allocations;
    if (n >= (std::size_t{1} << 20)) {
      if (dev.kept + n <= sim_keep_bytes) dev.kept += n;
      else madvise(start + off, n, MADV_DONTNEED);
    }
    auto next = dev.free.emplace(off, n).first;
    if (auto after = std::next(next); after != dev.free.end() && next->first + next->second == after->first) {
      next->second += after->second;
      dev.free.erase(after);
    }
    if (next != dev.free.begin()) {
      auto before = std::prev(next);
      if (before->first + before->second == next->first) {
        before->second += next->second;
        dev.free.erase(next);
      }
    }
  }

  void copy(const memory_space& dst_space, void* dst, const memory_space& src_space, const void* src,
            std::size_t bytes) const override {
    auto check = [&](const memory_space& s, const void* p, const char* what) {
      if (s.is_host()) return;
      if (device_of(p, bytes) != s.device)
        throw device_error(std::string("ufx::sim: copy ") + what + " is not in a " + to_string(s) + " allocation");
    };
    check(dst_space, dst, "destination");
    check(src_space, src, "source");
    {
      std::lock_guard lock(mutex_);
      if (dst_space.is_device() && src_space.is_device()) ++counters_.device_to_device;
      else if (dst_space.is_device()) ++counters_.host_to_device;
      else ++counters_.device_to_host;
    }
    std::memmove(dst, src, bytes);
    if (dst_space.is_device()) undefined_memory().remove(dst, bytes);
  }

  void note_undefined(void* p, std::size_t bytes) const override {
    fill_undefined(p, bytes);
    undefined_memory().add(p, bytes);
  }
  void note_defined(const void* p, std::size_t bytes) const override { undefined_memory().remove(p, bytes); }

  /// Waits for every stream of the device, as cudaDeviceSynchronize does (calls without a stream ran at once), and
  /// throws the first failure any of them holds.
  void synchronize(int device) const override {
    call_counters::add(device_runtime::counters.waits);
    std::exception_ptr first;
    const std::lock_guard lock(streams_mutex_);
    for (sim_stream* s : streams_) {
      if (s->device() != device) continue;
      try {
        s->synchronize();
      } catch (...) {
        if (!first) first = std::current_exception();
      }
    }
    if (first) std::rethrow_exception(first);
  }

  void* create_stream(int device) const override {
    check_device(device);
    auto s = std::make_unique<sim_stream>(device);
    const std::lock_guard lock(streams_mutex_);
    streams_.push_back(s.get());
    return s.release();
  }
  void destroy_stream(int, void* s) const noexcept override {
    {
      const std::lock_guard lock(streams_mutex_);
      std::erase(streams_, static_cast<sim_stream*>(s));
    }
    delete static_cast<sim_stream*>(s); // outside the lock: its worker finishes its tasks first
  }
  void stream_synchronize(int, void* s) const override {
    call_counters::add(device_runtime::counters.waits);
    static_cast<sim_stream*>(s)->synchronize();
  }
  void copy_async(const memory_space& dst_space, void* dst, const memory_space& src_space, const void* src,
                  std::size_t bytes, void* s) const override {
    call_counters::add(device_runtime::counters.queued_copies);
    static_cast<sim_stream*>(s)->enqueue([=, this] { copy(dst_space, dst, src_space, src, bytes); });
  }
  void begin_capture(int, void* s) const override { static_cast<sim_stream*>(s)->begin_recording(); }
  void* end_capture(int, void* s, void* g) const override {
    auto* stream = static_cast<sim_stream*>(s);
    auto tasks = std::make_shared<const std::vector<std::function<void()>>>(stream->end_recording());
    auto* graph = g ? static_cast<sim_graph*>(g) : new sim_graph;
    graph->tasks = std::move(tasks);
    return graph;
  }
  void abort_capture(int, void* s) const noexcept override {
    try {
      static_cast<sim_stream*>(s)->end_recording();
    } catch (...) {}
  }
  /// ufx::graph::launch has checked the stream is of the graph's device.
  void launch_graph(void* g, void* s) const override {
    static_cast<sim_stream*>(s)->enqueue([tasks = static_cast<sim_graph*>(g)->tasks] {
      for (const auto& task : *tasks) task();
    });
  }
  void destroy_graph(void* g) const noexcept override { delete static_cast<sim_graph*>(g); }
  std::size_t graph_size(void* g) const override { return static_cast<sim_graph*>(g)->tasks->size(); }
  std::uint64_t allocation_id(const void* p) const noexcept override {
    const int device = device_of(p, 1);
    if (device < 0) return 0;
    std::lock_guard lock(mutex_);
    if (device >= static_cast<int>(devices_.size())) return 0;
    const sim_device& dev = devices_[static_cast<std::size_t>(device)];
    const auto off =
        static_cast<std::size_t>(static_cast<const char*>(p) - (base_ + static_cast<std::size_t>(device) * stride_));
    auto it = dev.live.upper_bound(off);
    if (it == dev.live.begin()) return 0;
    --it;
    return off < it->first + it->second.size ? it->second.id : 0;
  }

  void* create_event(int) const override { return new sim_event; }
  void destroy_event(void* e) const noexcept override { delete static_cast<sim_event*>(e); }
  void record_event(void* ev, void* s) const override {
    auto* e = static_cast<sim_event*>(ev);
    std::uint64_t g;
    {
      std::lock_guard lock(e->m);
      g = ++e->recorded;
    }
    static_cast<sim_stream*>(s)->enqueue([e, g] { complete(e, g); }, true);
  }
  void wait_event(void* s, void* ev) const override {
    auto* e = static_cast<sim_event*>(ev);
    std::uint64_t g;
    {
      std::lock_guard lock(e->m);
      g = e->recorded;
    }
    static_cast<sim_stream*>(s)->enqueue([e, g] {
      std::unique_lock lock(e->m);
      e->cv.wait(lock, [&] { return e->completed >= g; });
    });
  }
  void event_synchronize(void* ev) const override {
    call_counters::add(device_runtime::counters.waits);
    auto* e = static_cast<sim_event*>(ev);
    std::unique_lock lock(e->m);
    e->cv.wait(lock, [&] { return e->completed >= e->recorded; });
  }
  bool event_done(void* ev) const override {
    auto* e = static_cast<sim_event*>(ev);
    std::lock_guard lock(e->m);
    return e->completed >= e->recorded;
  }
  float event_elapsed_ms(void* a, void* b) const override {
    auto* s = static_cast<sim_event*>(a);
    auto* e = static_cast<sim_event*>(b);
    std::chrono::steady_clock::time_point t0, t1;
    bool ok;
    {
      std::scoped_lock lock(s->m, e->m);
      ok = s->recorded > 0 && e->recorded > 0 && s->completed >= s->recorded && e->completed >= e->recorded;
      t0 = s->when;
      t1 = e->when;
    }
    if (!ok) throw device_error("ufx::elapsed_ms: both events must have been recorded and completed");
    return std::chrono::duration<float, std::milli>(t1 - t0).count();
  }

  int device_of(const void* p, std::size_t bytes) const noexcept override {
    auto* c = static_cast<const char*>(p);
    const char* b = begin_.load(std::memory_order_acquire);
    if (b == nullptr || c < b || c >= end_.load(std::memory_order_relaxed)) return -1;
    const std::size_t span = span_.load(std::memory_order_relaxed);
    const auto d = static_cast<std::size_t>(c - b) / span;
    const char* dev_end = b + (d + 1) * span;
    if (bytes > static_cast<std::size_t>(dev_end - c)) return -1;
    return static_cast<int>(d);
  }

  sim_counters counters() const {
    std::lock_guard lock(mutex_);
    sim_counters c = counters_;
    c.queued_copies = device_runtime::counters.queued_copies.load(std::memory_order_relaxed); // one count
    return c;
  }

  void configure(const sim_config& c) {
    std::lock_guard lock(mutex_);
    if (c.devices < 1 || c.devices > 64)
      throw device_error("ufx::configure_sim: the device count must be from 1 to 64");
    if (base_ != nullptr) {
      for (const sim_device& d : devices_)
        if (!d.live.empty())
          throw device_error("ufx::configure_sim: ufx::sim memory is still allocated (" +
                             std::to_string(counters_.live_allocations) +
                             " allocations); free every sim device_array first");
      unmap();
    }
    sim_config next = c;
    if (next.memory == 0) next.memory = configured_ ? config_.memory : config_from_environment().memory;
    map(next);
  }

  sim_config configuration() const {
    std::lock_guard lock(mutex_);
    ensure();
    return config_;
  }

private:
  static std::size_t round_up(std::size_t n, std::size_t a) { return (n + a - 1) / a * a; }

  void check_device(int device) const {
    if (device < 0 || device >= config_.devices)
      throw device_error("ufx::sim: device " + std::to_string(device) + " does not exist (the sim has " +
                         std::to_string(config_.devices) + (config_.devices == 1 ? " device" : " devices") +
                         "; set UFX_SIM_DEVICES or call ufx::configure_sim)");
  }

  // Called with the mutex held: maps the devices of the environment's configuration on first use.
  void ensure() const {
    if (base_ == nullptr) const_cast<sim_runtime_impl*>(this)->map(configured_ ? config_ : config_from_environment());
  }

  void map(const sim_config& c) {
    const std::size_t stride = round_up(c.memory, device_granule);
    const std::size_t total = stride * static_cast<std::size_t>(c.devices);
    void* p = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
      throw device_error("ufx::sim: could not reserve " + std::to_string(total >> 20) + " MiB of address space for " +
                         std::to_string(c.devices) + " emulated devices (lower UFX_SIM_MEMORY)");
    madvise(p, total, MADV_HUGEPAGE); // device memory in 2 MiB pages where THP allows (a hint only)
    UFX_ASAN_UNPOISON(p, total);      // stale shadow of an earlier stack there (asan.hpp)
    base_ = static_cast<char*>(p);
    stride_ = stride;
    config_ = c;
    configured_ = true;
    device_count_.store(c.devices, std::memory_order_release);
    devices_.assign(static_cast<std::size_t>(c.devices), sim_device{});
    for (sim_device& d : devices_) d.free.emplace(0, c.memory);
    span_.store(stride, std::memory_order_relaxed);
    end_.store(base_ + total, std::memory_order_relaxed);
    begin_.store(base_, std::memory_order_release);
    current_ = std::min(current_, c.devices - 1);
  }

  void unmap() {
    UFX_ASAN_UNPOISON(base_, stride_ * static_cast<std::size_t>(config_.devices));
    munmap(base_, stride_ * static_cast<std::size_t>(config_.devices));
    begin_.store(nullptr, std::memory_order_release);
    device_count_.store(0, std::memory_order_release);
    base_ = nullptr;
    devices_.clear();
  }

  mutable std::mutex mutex_;
  mutable std::mutex streams_mutex_;
  mutable std::vector<sim_stream*> streams_; // the live streams (synchronize waits for a device's)
  mutable char* base_ = nullptr;
  mutable std::size_t stride_ = 1;
  mutable sim_config config_;
  mutable bool configured_ = false;
  mutable std::vector<sim_device> devices_;
  mutable sim_counters counters_;
  mutable std::uint64_t allocation_ids_ = 0;
  std::atomic<int> device_count_{0}; // config_.devices once mapped, 0 before
  // the range device_of reads without the lock (set before any pointer into it exists)
  std::atomic<const char*> begin_{nullptr}, end_{nullptr};
  std::atomic<std::size_t> span_{1};
  static thread_local int current_;
};

thread_local int sim_runtime_impl::current_ = 0;

} // namespace

const device_info& sim_launch_limits(int device) noexcept {
  static const std::vector<device_info> limits = [] {
    // read once: glibc reads /sys/devices/system/cpu/online at every hardware_concurrency(), which
    // took most of a small launch's time on the sim (each launch checks its configuration)
    const int host_cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    std::vector<device_info> v(64);
    for (int k = 0; k < 64; ++k) {
      device_info& d = v[static_cast<std::size_t>(k)];
      d.target = "ufx::sim";
      d.ordinal = k;
      d.name = "ufx::sim virtual device " + std::to_string(k);
      d.compute_major = 9;
      d.compute_minor = 0;
      d.multiprocessors = host_cores;
      d.max_threads_per_block = 1024;
      d.shared_memory_per_block = 48 << 10;
      d.warp_size = 32;
    }
    return v;
  }();
  return limits[static_cast<std::size_t>(std::clamp(device, 0, 63))];
}

namespace {

sim_runtime_impl& the_sim() {
  static sim_runtime_impl rt;
  return rt;
}

} // namespace

const device_runtime& sim_runtime() noexcept { return the_sim(); }
void sim_enqueue(void* stream, std::function<void()> task) {
  static_cast<sim_stream*>(stream)->enqueue(std::move(task));
}
sim_counters sim_stats() noexcept {
  sim_counters c = the_sim().counters();
  c.live_allocations -= scratch_kept(the_sim()); // kept for the next call, as a pool keeps memory
  return c;
}

bool sim_memory_undefined(const void* p, std::size_t bytes) { return undefined_memory().contains(p, bytes); }
void sim_memory_defined(const void* p, std::size_t bytes) { undefined_memory().remove(p, bytes); }

} // namespace ufx::detail

namespace ufx {
void configure_sim(const sim_config& c) {
  detail::scratch_release(detail::the_sim()); // the blocks kept for calls are not the user's
  detail::the_sim().configure(c);
}
sim_config sim_configuration() { return detail::the_sim().configuration(); }
} // namespace ufx
