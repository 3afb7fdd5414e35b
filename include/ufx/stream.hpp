#pragma once
/// \file stream.hpp
/// Streams, events and pinned host memory (docs/streams.md).
///
///   ufx::stream s(ufx::sim);                   // or ufx::stream s(ufx::cuda.device(1))
///   add(ufx::sim.on(s), dx, dy, ufx::out(dz)); // queued on s; returns at once
///   ufx::event start, stop;
///   start.record(s); ... stop.record(s);
///   s.synchronize();                           // waits; device errors surface here
///   float ms = ufx::elapsed_ms(start, stop);
///
/// A call on a stream returns once its work is queued. What it reads and writes must stay valid
/// until the stream has run it: device arrays, `ufx::out(...)` destinations, and host memory that
/// is pinned (`ufx::pinned_vector<T>`, `ufx::pin(container)`). A call that reads or writes host
/// memory that is not pinned waits for the stream at that copy, as CUDA does with pageable memory
/// (numba#5130's silent synchronisation, made a rule you can read).
///
/// On ufx::sim a stream is a worker thread that runs its work in order, so a missing synchronize
/// shows up in tests as a wrong result, as it would on a GPU.

#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ufx/detail/lib/runtime.hpp"
#include "ufx/errors.hpp"
#include "ufx/targets.hpp"

namespace ufx {

/// A queue of device work on one device (CUDA's cudaStream_t; on ufx::sim a worker thread).
class stream {
public:
  /// A new stream on the target's device (its bound device, else the thread's current one).
  explicit stream(const sim_t& t) : stream(t.space()) {}
  /// The same on ufx::cuda.
  explicit stream(const cuda_t& t) : stream(t.space()) {}
  ~stream() {
    if (handle_) space_.runtime->destroy_stream(space_.device, handle_);
  }
  /// Takes o's stream; o is left without one.
  stream(stream&& o) noexcept : space_(o.space_), handle_(std::exchange(o.handle_, nullptr)) {}
  /// Swaps the streams of this and o (o then destroys this one's former stream when it goes).
  stream& operator=(stream&& o) noexcept {
    std::swap(space_, o.space_);
    std::swap(handle_, o.handle_);
    return *this;
  }
  stream(const stream&) = delete;
  stream& operator=(const stream&) = delete;

  /// Waits for the work queued so far; throws ufx::device_error with the first failure of that work.
  void synchronize() const {
    if (capturing()) [[unlikely]]
      detail::refuse_in_capture("ufx::stream::synchronize", "a wait for the captured stream",
                                "synchronize after the capture, or after g.launch()");
    space_.runtime->stream_synchronize(space_.device, handle_);
  }
  /// True while this thread captures the stream into a graph (ufx::capture).
  bool capturing() const noexcept {
    const detail::capture_state* c = detail::this_thread_capture();
    return c && handle_ && c->stream == handle_;
  }
  /// The device the stream runs on.
  const memory_space& space() const noexcept { return space_; }
  /// cudaStream_t on ufx::cuda (cast it); the sim's queue on ufx::sim.
  void* native_handle() const noexcept { return handle_; }

private:
  explicit stream(const memory_space& s) : space_(s) {
    detail::require_space(s);
    handle_ = s.runtime->create_stream(s.device);
  }
  memory_space space_;
  void* handle_ = nullptr;
};

/// A point in a stream's work: `record(s)` marks it, `s2.wait(e)` makes another stream wait for it,
/// `elapsed_ms(a, b)` times the work between two (the timing Numba users do with cuda.event).
class event {
public:
  event() = default;
  ~event() { reset(); }
  /// Takes o's event; o is left never recorded.
  event(event&& o) noexcept : space_(o.space_), handle_(std::exchange(o.handle_, nullptr)) {}
  /// Swaps the events of this and o.
  event& operator=(event&& o) noexcept {
    std::swap(space_, o.space_);
    std::swap(handle_, o.handle_);
    return *this;
  }
  event(const event&) = delete;
  event& operator=(const event&) = delete;

  /// Marks the current end of stream `s`'s work: the event completes when `s` gets there.
  void record(const stream& s) {
    refuse_captured(s, "record");
    if (handle_ && space_.runtime != s.space().runtime) reset();
    if (!handle_) {
      space_ = s.space();
      handle_ = space_.runtime->create_event(space_.device);
    }
    space_.runtime->record_event(handle_, s.native_handle());
  }
  /// Waits until the event has completed (nothing to wait for when never recorded).
  void synchronize() const {
    if (handle_) space_.runtime->event_synchronize(handle_);
  }
  /// True when the event has completed (or was never recorded).
  bool done() const { return !handle_ || space_.runtime->event_done(handle_); }

  /// Stream `s` waits for this event before its later work (CUDA's cudaStreamWaitEvent).
  void wait_on(const stream& s) const {
    refuse_captured(s, "wait_on");
    if (!handle_) return;
    if (s.space().runtime != space_.runtime)
      throw device_error("ufx::event: a stream of " + to_string(s.space()) + " cannot wait for an event of " +
                         to_string(space_));
    space_.runtime->wait_event(s.native_handle(), handle_);
  }

  friend float elapsed_ms(const event& start, const event& end) {
    if (!start.handle_ || !end.handle_ || start.space_.runtime != end.space_.runtime)
      throw device_error("ufx::elapsed_ms: both events must have been recorded, on streams of one runtime");
    return start.space_.runtime->event_elapsed_ms(start.handle_, end.handle_);
  }

private:
  static void refuse_captured(const stream& s, const char* what) {
    if (s.capturing()) [[unlikely]]
      detail::refuse_in_capture(std::string("ufx::event::") + what, "an event on the captured stream",
                                "record events and order streams around g.launch(), outside the capture");
  }
  void reset() noexcept {
    if (handle_) space_.runtime->destroy_event(handle_);
    handle_ = nullptr;
  }
  memory_space space_;
  void* handle_ = nullptr;
};

/// Milliseconds of stream work between two recorded events (both must have completed).
float elapsed_ms(const event& start, const event& end);

/// A recording of the device work a sequence of calls queued on a stream, replayed by one launch (CUDA graphs; on
/// ufx::sim the stream's recorded tasks). Made by ufx::capture:
///
///   ufx::stream s(ufx::cuda);                       // ufx::sim too
///   ufx::graph g = ufx::capture(s, [&](auto t) {    // t: ufx::cuda.on(s)
///     add(t, dx, dy, ufx::out(dz));
///     ufx::sum(t, dz, ufx::out(total));             // a 0-d device array
///   });
///   for (int i = 0; i < 1000; ++i) g.launch();      // on s; g.launch(other) on another stream of the device
///   s.synchronize();
///
/// A replay does what the captured calls' device work did, on the same arrays: one graph launch, no allocation, no
/// wait, no pointer query. The arrays must live while the graph is launched (ufx::sim checks each replay). What a
/// capture cannot record is an error raised before the call records anything (docs/streams.md, "Graphs").
class graph {
public:
  graph() = default;
  ~graph() { reset(); }
  /// Takes o's graph; o is left empty.
  graph(graph&& o) noexcept { swap(o); }
  /// Swaps the graphs of this and o.
  graph& operator=(graph&& o) noexcept {
    swap(o);
    return *this;
  }
  graph(const graph&) = delete;
  graph& operator=(const graph&) = delete;

  /// Queues one replay on the stream the graph was captured on (which must still exist).
  void launch() const { detail::graph_launch(space_, handle_, stream_, name_, operands_); }
  /// Queues one replay on stream `s`, a stream of the device the graph was captured on.
  void launch(const stream& s) const {
    if (handle_ && s.space() != space_)
      throw device_error("ufx::graph::launch: s is a stream of " + to_string(s.space()) +
                         "; the graph was captured on " + to_string(space_));
    detail::graph_launch(space_, handle_, s.native_handle(), name_, operands_);
  }
  /// Records `fn` again on stream `s` (as ufx::capture does) and makes this graph replay the new recording: on
  /// ufx::cuda the instantiated graph is updated in place (cudaGraphExecUpdate) where the calls are the same with other
  /// arrays or scalars, else instantiated anew. Same errors as ufx::capture; on an error the graph is unchanged.
  template <class F>
  void update(const stream& s, F&& fn);

  /// Names the graph: a replay opens one profiler range "graph <name>" (ufx/nvtx.hpp) and errors name it.
  graph& named(std::string name) & {
    name_ = std::move(name);
    return *this;
  }
  /// The same, on a graph just captured: `ufx::capture(s, fn).named("step")`.
  graph&& named(std::string name) && {
    name_ = std::move(name);
    return std::move(*this);
  }
  /// The graph's name ("" when it has none).
  const std::string& name() const noexcept { return name_; }
  /// The operations recorded: CUDA's graph nodes (kernels, copies, memory nodes), the sim's queued tasks; 0 when empty.
  std::size_t size() const { return handle_ ? space_.runtime->graph_size(handle_) : 0; }
  /// True for a graph holding no recording (default-constructed or moved from): launching it is an error.
  bool empty() const noexcept { return handle_ == nullptr; }
  /// The device the graph runs on.
  const memory_space& space() const noexcept { return space_; }
  /// The cudaGraphExec_t's holder on ufx::cuda; the sim's recording on ufx::sim.
  void* native_handle() const noexcept { return handle_; }

private:
  template <class F>
  friend graph capture(const stream& s, F&& fn);
  void swap(graph& o) noexcept {
    std::swap(space_, o.space_);
    std::swap(handle_, o.handle_);
    std::swap(stream_, o.stream_);
    std::swap(name_, o.name_);
    std::swap(operands_, o.operands_);
  }
  void reset() noexcept {
    if (handle_) space_.runtime->destroy_graph(handle_);
    handle_ = nullptr;
  }
  template <class F>
  void record(const stream& s, F& fn);

  memory_space space_;
  void* handle_ = nullptr;
  void* stream_ = nullptr;
  std::string name_;
  std::vector<detail::graph_operand> operands_;
};

/// Records the device work that `fn(t)` queues, with `t` the stream's target (`ufx::sim.on(s)` or `ufx::cuda.on(s)`),
/// into a graph: nothing runs until the graph is launched. Inside `fn`, every call on device data can be recorded
/// (elementwise calls, gufuncs, reductions and scans into device arrays, lazy expressions, raw kernels, and copies
/// between device arrays and pinned host memory); a call that would wait, copy host memory that is not pinned, allocate
/// a device array (a result returned by value) or run on the device without `t` throws ufx::device_error naming the
/// call and what to do instead, before it records anything. If `fn` throws, nothing is recorded and the error
/// propagates.
template <class F>
graph capture(const stream& s, F&& fn) {
  graph g;
  g.record(s, fn);
  return g;
}

template <class F>
void graph::record(const stream& s, F& fn) {
  if (!s.native_handle()) throw device_error("ufx::capture: the stream is empty (moved from)");
  detail::capture_scope scope(s.space(), s.native_handle());
  if (s.space().runtime == &sim_t::runtime()) {
    if constexpr (std::is_invocable_v<F&, const sim_t&>) fn(ufx::sim.on(s));
    else throw device_error("ufx::capture: the stream is ufx::sim's, and the function does not take ufx::sim_t");
  } else {
    if constexpr (std::is_invocable_v<F&, const cuda_t&>) fn(ufx::cuda.on(s));
    else throw device_error("ufx::capture: the stream is ufx::cuda's, and the function does not take ufx::cuda_t");
  }
  void* h = scope.finish(handle_);
  handle_ = h;
  space_ = s.space();
  stream_ = s.native_handle();
  operands_ = std::move(scope.state.operands);
}

template <class F>
void graph::update(const stream& s, F&& fn) {
  if (handle_ && s.space() != space_)
    throw device_error("ufx::graph::update: s is a stream of " + to_string(s.space()) + "; the graph was captured on " +
                       to_string(space_));
  record(s, fn);
}

/// An allocator of page-locked host memory (cudaHostAlloc where a GPU answers): copies between it
/// and a device can run asynchronously on a stream.
template <class T>
struct pinned_allocator {
  /// The element type.
  using value_type = T;
  /// An allocator (it has no state).
  pinned_allocator() = default;
  /// The allocator for T made from one for U (allocators have no state).
  template <class U>
  pinned_allocator(const pinned_allocator<U>&) noexcept {}
  /// Allocates n elements: page-locked where a GPU answers, else host memory aligned to 64 bytes.
  T* allocate(std::size_t n) { return static_cast<T*>(detail::pinned_allocate(n * sizeof(T))); }
  /// Frees memory from allocate.
  void deallocate(T* p, std::size_t) noexcept { detail::pinned_deallocate(p); }
  /// Always true: any pinned allocator frees what another allocated.
  template <class U>
  friend bool operator==(const pinned_allocator&, const pinned_allocator<U>&) noexcept {
    return true;
  }
};

/// A std::vector in pinned host memory.
template <class T>
using pinned_vector = std::vector<T, pinned_allocator<T>>;

/// Pins a container's memory while it lives (cudaHostRegister); ufx then copies to and from it
/// asynchronously on streams. The container must not reallocate meanwhile.
class pinned_region {
public:
  /// Pins the `bytes` bytes at `p` until the region goes (nothing for a null `p` or 0 bytes).
  pinned_region(const void* p, std::size_t bytes) : p_(p) { detail::pin_range(p, bytes); }
  ~pinned_region() { detail::unpin_range(p_); }
  pinned_region(const pinned_region&) = delete;
  pinned_region& operator=(const pinned_region&) = delete;

private:
  const void* p_;
};

/// `auto pinned = ufx::pin(v);` pins `v`'s elements until `pinned` goes out of scope.
template <class C>
[[nodiscard]] pinned_region pin(const C& c) {
  return pinned_region(static_cast<const void*>(std::data(c)), std::size(c) * sizeof(*std::data(c)));
}

template <class Self>
Self detail::device_target<Self>::on(const stream& s) const {
  if (s.space().runtime != &Self::runtime())
    throw device_error(std::string(Self::name()) + ".on(s): s is a stream of " + to_string(s.space()));
  if (bound_device >= 0 && bound_device != s.space().device)
    throw device_error(std::string(Self::name()) + ".device(" + std::to_string(bound_device) +
                       ").on(s): s is a stream of " + to_string(s.space()));
  Self t = static_cast<const Self&>(*this);
  t.bound_device = s.space().device;
  t.stream_handle = s.native_handle();
  return t;
}

} // namespace ufx
