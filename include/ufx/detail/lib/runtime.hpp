#pragma once
// The device memory runtimes: allocation, copies and synchronisation for each kind of device memory (ufx::sim's in
// src/sim/runtime.cpp, ufx::cuda's in src/cuda/runtime.cpp). They live in src/ so that a host-only translation unit
// never includes cuda_runtime.h. A memory_space names its runtime, so nothing here switches on a kind of memory.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ufx/devices.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {

/// What ufx asked of a device runtime so far (device_runtime::counts): the call budgets tests hold each front door to,
/// counted alike on the sim and ufx::cuda. `waits`: synchronisations (device, stream, event); a copy to the host,
/// though it waits too, counts as a copy. `allocations` / `frees`: device memory from the runtime (not a chunk loop's
/// carving of its stream arena). `queries`: pointers classified (space_of: cudaPointerGetAttributes). `graph_launches`:
/// replays of captured graphs (ufx::graph::launch), each one launch of the whole recording.
template <class T>
struct call_fields {
  T launches{}, waits{}, allocations{}, frees{};
  T to_device{}, to_host{}, within{}, queued_copies{}, queries{}, graph_launches{};
  /// The counts {f(x, o.x...)} for each field x: the one list of the fields besides their declaration.
  template <class F, class... O>
  call_fields<long> map(F f, const O&... o) const {
    return {f(launches, o.launches...),       f(waits, o.waits...),
            f(allocations, o.allocations...), f(frees, o.frees...),
            f(to_device, o.to_device...),     f(to_host, o.to_host...),
            f(within, o.within...),           f(queued_copies, o.queued_copies...),
            f(queries, o.queries...),         f(graph_launches, o.graph_launches...)};
  }
  static void add(std::atomic<long>& c) noexcept { c.fetch_add(1, std::memory_order_relaxed); }
};
using call_counts = call_fields<long>;
using call_counters = call_fields<std::atomic<long>>;
inline call_counts operator-(const call_counts& a, const call_counts& b) { return a.map(std::minus<long>(), b); }

class device_runtime {
public:
  virtual ~device_runtime() = default;
  call_counts counts() const noexcept {
    return counters.map([](const std::atomic<long>& c) { return c.load(std::memory_order_relaxed); });
  }
  mutable call_counters counters;
  /// "ufx::sim", "ufx::cuda".
  virtual std::string_view name() const noexcept = 0;
  /// Whether the runtime can run here; when not, why.
  virtual bool available() const noexcept = 0;
  virtual std::string_view unavailable_reason() const noexcept = 0;
  /// Throws device_error "<name> is not available here: <reason>" (src/runtime.cpp). The calls below default to it
  /// (ufx::cuda built without the toolkit overrides none of them); the counts to 0, the noexcept ones to nothing or -1.
  [[noreturn]] void unavailable() const;

  virtual int device_count() const { return 0; }
  virtual device_info info(int /*device*/) const { unavailable(); }
  virtual int current_device() const { return 0; }
  virtual void select_device(int /*device*/) const { unavailable(); }

  /// Allocates on `device`, usable by work queued on stream `s` (CUDA's cudaMallocAsync, from the device's pool, which
  /// keeps freed memory for reuse); null `s`: in ordered_stream's order, or at once where there is none. When it
  /// cannot, throws device_error ("out of device memory", sizes), leaving nothing.
  virtual void* allocate(int /*device*/, std::size_t /*bytes*/, void* /*s*/) const { unavailable(); }
  /// Frees `p` once the work queued on `s` before this call has run, without waiting for it; null `s` as allocate's.
  virtual void deallocate(int /*device*/, void* /*p*/, void* /*s*/) const noexcept {}
  /// Copies bytes where each side is host memory or this runtime's memory (any of its devices).
  virtual void copy(const memory_space& /*dst_space*/, void* /*dst*/, const memory_space& /*src_space*/,
                    const void* /*src*/, std::size_t /*bytes*/) const {
    unavailable();
  }
  /// Waits for the device's pending work; throws device_error with the first asynchronous error.
  virtual void synchronize(int /*device*/) const { unavailable(); }
  /// The device whose memory holds [p, p + bytes), or -1 when it is not this runtime's memory.
  virtual int device_of(const void* /*p*/, std::size_t /*bytes*/) const noexcept { return -1; }

  // ---- streams and events (handles are opaque: cudaStream_t / cudaEvent_t, or the sim's queues)

  /// A new stream on `device`: work queued on it runs in order, after the work queued before.
  virtual void* create_stream(int /*device*/) const { unavailable(); }
  /// Waits for the stream's work, then frees it.
  virtual void destroy_stream(int /*device*/, void* /*s*/) const noexcept {}
  /// Waits for the stream's work; throws device_error with the first failure of that work.
  virtual void stream_synchronize(int /*device*/, void* /*s*/) const { unavailable(); }
  /// Queues a copy on `s`; each side this runtime's memory or pinned host memory, kept valid until it has run.
  virtual void copy_async(const memory_space& /*dst_space*/, void* /*dst*/, const memory_space& /*src_space*/,
                          const void* /*src*/, std::size_t /*bytes*/, void* /*s*/) const {
    unavailable();
  }
  virtual void* create_event(int /*device*/) const { unavailable(); }
  virtual void destroy_event(void* /*e*/) const noexcept {}
  /// Marks the point in stream `s` the event completes at.
  virtual void record_event(void* /*e*/, void* /*s*/) const { unavailable(); }
  /// Stream `s` waits, before its later work, for the event's last recorded point.
  virtual void wait_event(void* /*s*/, void* /*e*/) const { unavailable(); }
  virtual void event_synchronize(void* /*e*/) const { unavailable(); }
  virtual bool event_done(void* /*e*/) const { unavailable(); }
  /// Milliseconds between two completed events.
  virtual float event_elapsed_ms(void* /*start*/, void* /*end*/) const { unavailable(); }
  /// The stream whose queued work every call without a stream of its own is ordered with (CUDA's legacy default
  /// stream); null where there is none (the sim, whose calls run at once).
  virtual void* ordered_stream(int) const { return nullptr; }
  /// ufx::sim's uninitialised-read check (nothing elsewhere): `bytes` at `p` (a new device_array) hold nothing written
  /// (the sim fills and remembers them); note_defined: they have been written (a copy, a call's output).
  virtual void note_undefined(void*, std::size_t) const {}
  virtual void note_defined(const void*, std::size_t) const {}
  /// Whether copies to and from host memory are the device's DMA (ufx::cuda), which packing pageable data into pinned
  /// blocks on several host threads speeds up (copy_staging); on the sim's host memory that only costs.
  virtual bool copies_by_dma() const { return false; }

  // ---- graphs (ufx::capture, stream.hpp): a stream's work recorded once and replayed by one launch. Handles are
  // opaque: a cudaGraphExec_t with its graph, or the sim's list of recorded tasks.

  /// Stream `s` records the work queued on it from here on instead of running it (cudaStreamBeginCapture).
  virtual void begin_capture(int /*device*/, void* /*s*/) const { unavailable(); }
  /// Ends the recording and returns a graph ready to launch. With `g` (a graph of this runtime), g takes the new
  /// recording in place (cudaGraphExecUpdate; where CUDA cannot update, a new instantiation) and is returned.
  virtual void* end_capture(int /*device*/, void* /*s*/, void* /*g*/) const { unavailable(); }
  /// Ends a recording and drops it (the capture's function threw).
  virtual void abort_capture(int /*device*/, void* /*s*/) const noexcept {}
  /// Queues one replay of graph `g` on stream `s`.
  virtual void launch_graph(void* /*g*/, void* /*s*/) const { unavailable(); }
  /// Frees the graph; replays already queued still run.
  virtual void destroy_graph(void* /*g*/) const noexcept {}
  /// The operations the graph holds (CUDA's nodes: kernels, copies, memory nodes; the sim's recorded tasks).
  virtual std::size_t graph_size(void* /*g*/) const { return 0; }
  /// An id of the allocation that holds `p`, unique over the process's life (0: none, or not tracked: ufx::cuda), so
  /// that the sim can tell that an array a graph uses was freed (or freed and its memory allocated again).
  virtual std::uint64_t allocation_id(const void* /*p*/) const noexcept { return 0; }

  // ---- page-locked host memory (ufx::cuda's cudaHostAlloc / cudaHostRegister; nothing elsewhere)
  virtual void* host_allocate_pinned(std::size_t) const { return nullptr; }
  /// Names this runtime's devices for a profiler (NVTX, src/ranges.cpp); ufx::cuda's do so.
  virtual void name_for_profiler() const {}
  virtual void host_free_pinned(void*) const noexcept {}
  virtual void host_register(const void*, std::size_t) const {}
  virtual void host_unregister(const void*) const noexcept {}
};

/// Queues `task` on a sim stream: the stream's worker runs it after the work queued before. An exception from it is the
/// stream's error (reported by the next synchronize; later work is skipped until then).
void sim_enqueue(void* stream, std::function<void()> task);

/// What a call queued on a stream keeps alive until the stream has run its work (staged operands, temporaries the
/// queued copies read), as each device target's launch_hook<Tag>::keep_until_run says.
struct stream_keep {
  std::vector<std::shared_ptr<void>> items;
};

/// One array a captured call uses, as ufx::sim identified its allocation (device_runtime::allocation_id), with the call
/// that used it: a replay after the array was freed is an error naming both.
struct graph_operand {
  const void* p = nullptr;
  std::uint64_t id = 0;
  std::string call;
};

/// A capture in progress on the calling thread (ufx::capture, src/graph.cpp): its stream, and what the calls recorded
/// into it used. While it lasts, calls that would wait, copy at the call, allocate device memory or run outside the
/// stream are errors (place.hpp, result.hpp, src/runtime.cpp), raised before they record anything.
struct capture_state {
  memory_space space;
  void* stream = nullptr;
  std::vector<graph_operand> operands;
};
/// This thread's capture, or null (a thread-local pointer; one capture at a time per thread).
capture_state* this_thread_capture() noexcept;
/// The capture of this thread when it records into runtime `rt`'s streams, else null.
inline capture_state* capture_on(const device_runtime* rt) noexcept {
  capture_state* c = this_thread_capture();
  return c && c->space.runtime == rt ? c : nullptr;
}
/// Throws device_error "<who>: <what> inside ufx::capture (...); <instead>": the one wording of the refusals.
[[noreturn]] void refuse_in_capture(std::string_view who, std::string_view what, std::string_view instead);

/// Starts recording stream `s` of `space` into a graph on this thread; `finish` ends it (its graph handle, `update`d in
/// place when given); the destructor drops an unfinished recording. Not nested: a second capture on a thread is an
/// error.
class capture_scope {
public:
  capture_scope(const memory_space& space, void* stream);
  ~capture_scope();
  capture_scope(const capture_scope&) = delete;
  capture_scope& operator=(const capture_scope&) = delete;
  void* finish(void* update);
  capture_state state;

private:
  bool open_ = true;
};
/// One replay of graph `g` (of `space`) on `stream`: the sim's check of the arrays it uses, an NVTX range named `name`.
void graph_launch(const memory_space& space, void* g, void* stream, const std::string& name,
                  const std::vector<graph_operand>& operands);

/// Page-locked ("pinned") host memory: allocated here or registered, and remembered, so an asynchronous copy to or from
/// it can be queued instead of waiting (src/runtime.cpp).
void* pinned_allocate(std::size_t bytes);
void pinned_deallocate(void* p) noexcept;
void pin_range(const void* p, std::size_t bytes);
void unpin_range(const void* p) noexcept;
bool is_pinned(const void* p, std::size_t bytes) noexcept;
/// Pinned staging blocks of chunked calls, a few kept: take one of >= `bytes` (set to its size), then give it back.
void* pinned_staging_take(std::size_t& bytes);
void pinned_staging_give(void* p, std::size_t bytes) noexcept;

/// Device memory kept for one stream of a chunked call (chunk_ring): while attached, allocations ordered on that stream
/// (device_malloc_async) are carved from it and freeing them does nothing; the chunk loop resets it once the stream's
/// work has run, so it allocates nothing (what does not fit comes from the device's pool).
void stream_arena_attach(void* stream, void* base, std::size_t bytes);
void stream_arena_reset(void* stream) noexcept;
void stream_arena_detach(void* stream) noexcept;

/// How copy_bytes moves pageable host data of at least `min_bytes` to or from a device: through `blocks` pinned staging
/// blocks of `chunk` bytes, each packed (or unpacked) by up to `threads` host threads (host_copy) while the device
/// copies another. CUDA's own copy of pageable memory stages through its buffers at about one thread's memcpy rate (10
/// GB/s on an H200's host, a fifth of the link). `sim`: on ufx::sim too, whose memory is host memory, so staging only
/// costs there: the tests turn it on to run the pipeline. A knob for tests and benchmarks; set it between calls.
struct staging_settings {
  bool enabled = true;
  bool sim = false;
  std::size_t min_bytes = std::size_t{4} << 20;
  std::size_t chunk = std::size_t{8} << 20;
  int blocks = 3;
  int threads = 8;
  /// Pack and unpack with non-temporal stores (host_copy's `streaming`): on this project's 2-core EPYC, packing 1 MiB
  /// ranges into three rotating 8 MiB blocks ran 1.5x memcpy's rate.
  bool streaming_stores = true;
};
staging_settings& copy_staging() noexcept;
/// Host threads that pack and unpack staging blocks for runtime `rt` (1 where copies are not DMA).
int staging_threads(const device_runtime& rt) noexcept;
/// Whether they pack and unpack with non-temporal stores: streaming_stores, where copies are DMA or `sim` staging is on
/// (tests); otherwise the sim's device reads a staged block from the cache.
bool staging_streams(const device_runtime& rt) noexcept;

/// Every device runtime, to classify a pointer: the one list a new device kind joins.
inline const device_runtime* const* all_runtimes(int& n) {
  static const device_runtime* const list[] = {&sim_runtime(), &cuda_runtime()};
  n = 2;
  return list;
}

/// Throws device_error unless `s`'s runtime can run here and `s.device` exists.
void require_space(const memory_space& s);

/// The scratch cache of src/runtime.cpp (small temporaries of calls without a stream, kept for the next call): gives
/// back the blocks kept for runtime `rt`'s devices (configure_sim, tests), and how many it keeps.
void scratch_release(const device_runtime& rt) noexcept;
long scratch_kept(const device_runtime& rt) noexcept;

void* device_malloc(const memory_space& s, std::size_t bytes);
void device_free(const memory_space& s, void* p) noexcept;
/// The same ordered on `stream`; null: a call's temporary without a stream, ordered on the runtime's ordered_stream
/// (ufx::cuda: allocated and freed in the legacy stream's order, without waiting), else at once as device_malloc /
/// device_free; up to 64 KiB from the scratch cache.
void* device_malloc_async(const memory_space& s, std::size_t bytes, void* stream);
void device_free_async(const memory_space& s, void* p, void* stream) noexcept;
/// Copies `bytes` between any two spaces (device to device across runtimes goes through the host).
void copy_bytes(const memory_space& dst_space, void* dst, const memory_space& src_space, const void* src,
                std::size_t bytes);
/// Waits for device `s`'s pending work (nothing for host memory).
void synchronize(const memory_space& s);
/// True when calls without a stream on space `s` are queued rather than run at once: ufx::cuda queues them on its
/// legacy default stream (ordered_stream), and what reads their results waits.
inline bool queues_calls(const memory_space& s) { return s.is_device() && s.runtime->ordered_stream(s.device); }

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
  long live_allocations = 0; // allocations not yet freed (the scratch cache's kept blocks are free)
  long host_to_device = 0;   // copies host -> sim
  long device_to_host = 0;   // copies sim -> host
  long device_to_device = 0; // copies sim -> sim
  long queued_copies = 0;    // of those, copies queued on a stream (copy_async)
};
sim_counters sim_stats() noexcept;

UFX_TU_NAMESPACE_BEGIN

/// Owning, uninitialised storage for n elements in a memory space.
template <class T>
class buffer {
public:
  buffer() = default;
  /// n elements in space s; with a `stream` (device memory only) allocated and freed in the stream's order (a call's
  /// temporaries on a stream: freed once its queued work has run).
  buffer(const memory_space& s, index_t n, void* stream = nullptr)
      : space_(s), n_(n), stream_(s.is_host() ? nullptr : stream) {
    if (s.is_host()) host_.reset(new T[static_cast<std::size_t>(std::max<index_t>(n, 1))]);
    else dev_ = static_cast<T*>(device_malloc_async(s, sizeof(T) * static_cast<std::size_t>(n), stream_));
  }
  buffer(buffer&& o) noexcept
      : space_(o.space_), n_(o.n_), stream_(o.stream_), host_(std::move(o.host_)),
        dev_(std::exchange(o.dev_, nullptr)) {}
  buffer& operator=(buffer&& o) noexcept {
    std::swap(space_, o.space_);
    std::swap(n_, o.n_);
    std::swap(stream_, o.stream_);
    std::swap(host_, o.host_);
    std::swap(dev_, o.dev_);
    return *this;
  }
  ~buffer() {
    if (dev_) device_free_async(space_, dev_, stream_);
  }
  T* data() const { return space_.is_host() ? host_.get() : dev_; }
  const memory_space& space() const { return space_; }

private:
  memory_space space_ = memory_space::host;
  index_t n_ = 0;
  void* stream_ = nullptr;
  std::unique_ptr<T[]> host_;
  T* dev_ = nullptr;
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
