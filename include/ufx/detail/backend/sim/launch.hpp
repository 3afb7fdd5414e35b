#pragma once
// ufx::sim's launch: the configuration is checked against the virtual device, then every block runs, and in it every
// thread, in order (ufx's own bodies never wait at a barrier, or are block bodies whose barriers are phase boundaries;
// ufx::kernel's raw kernels, which wait anywhere, run on raw/blocks.hpp's block runner). On a stream the grid runs on
// the stream's worker after its earlier work. The caller has checked that every operand lies in the device's memory.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/device/thread.hpp"
#include "ufx/detail/lib/runtime.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {

/// The sim device's launch limits (what check_launch reads; no memory figures), built once for every device ordinal the
/// sim can have, so a launch reads them without a lock or a copy (src/sim/runtime.cpp). The caller has checked the
/// device exists (require_space).
const device_info& sim_launch_limits(int device) noexcept;
inline const device_info& sim_device_info(const sim_t& t) { return sim_launch_limits(t.ordinal()); }

/// Collections of the sim's launches under way (ufx::profile, UFX_SIM_PROFILE; src/profile.cpp): while there are none
/// (almost always), a launch asks with one load.
extern std::atomic<int> sim_profile_collecting;

/// fn(index) for every block of a grid, or every thread of a block, in order (x fastest).
template <class Fn>
void for_each_index(const dim3& extent, const Fn& fn) {
  for (unsigned z = 0; z < extent.z; ++z)
    for (unsigned y = 0; y < extent.y; ++y)
      for (unsigned x = 0; x < extent.x; ++x) fn(dim3(x, y, z));
}

namespace sim_impl {
class launch_trace;
}

/// Hands `bytes` at `p`, of operand `operand` (based at `base`; an output below `outputs`, a store), to the trace of
/// the launch this thread runs under a sim_front_scope; nothing without one.
void sim_front_touch(const void* base, const void* p, std::size_t bytes, int operand, int outputs);
/// Hands an access of `bytes` at byte `offset` of the block's shared memory (a store, or a load), in the region at
/// byte `region` that holds operand `operand`'s data, to the same trace.
void sim_front_shared(std::size_t region, std::size_t offset, std::size_t bytes, int operand, bool store, int outputs);

/// A traced launch of ufx's kernels on this thread, for the grid loop (run_any_grid's observer): begun with the launch,
/// its profile handed to the collections by finish(); a launch that throws is dropped.
class sim_front_scope {
public:
  sim_front_scope(const char* label, const launch_config& c, int device);
  ~sim_front_scope();
  sim_front_scope(const sim_front_scope&) = delete;
  sim_front_scope& operator=(const sim_front_scope&) = delete;
  /// Thread `thread` (linear) of block `block` (linear) runs next.
  void thread(std::int32_t block, unsigned thread) const;
  /// Block `block` has ended.
  void end_block(std::int32_t block) const;
  /// The launch ended: its profile joins the collections (marked untraced when no access came through sim_acc).
  void finish();

private:
  sim_impl::launch_trace* t_;
  sim_impl::launch_trace* outer_; // the thread's trace before this one (none: launches do not nest)
};

/// What the grid loops tell an observer (ufx::profile's trace, backend/sim/trace.hpp): which thread runs next, by
/// linear block and thread index, and that a block has ended. The plain launch's observer does nothing.
struct no_grid_observer {
  void thread(std::int32_t, unsigned) const {}
  void end_block(std::int32_t) const {}
};

/// A block body's grid (device/thread.hpp): block by block, each phase for every thread of the block in order, then the
/// next phase; the block's shared memory is one host buffer, its threads' states one array. Each block's shared memory
/// starts as all-ones bytes (NaN as a float or double, -1 as an integer), not as what the previous block left: a body
/// that reads a slot no thread of its block wrote gets a value that shows in its results (on a GPU such a read is
/// undefined, and compute-sanitizer's initcheck checks global memory only).
template <class Body, class Observer = no_grid_observer>
void run_block_grid(const launch_config& c, const Body& body, const char* label, const Observer& obs = {}) {
  using state_type = typename Body::state_type;
  std::vector<state_type> state(static_cast<std::size_t>(c.block.count()));
  std::vector<std::max_align_t> memory(c.shared_bytes / sizeof(std::max_align_t) + 1);
  unsigned char* const shared = reinterpret_cast<unsigned char*>(memory.data());
  thread_pos p{{}, {}, c.block, c.grid};
  std::int32_t block = 0;
  for_each_index(c.grid, [&](const dim3& b) {
    p.block_idx = b;
    for (auto& s : state) s = state_type{};
    std::memset(shared, 0xff, c.shared_bytes);
    for (int phase = 0; phase >= 0;) {
      int next = 0;
      std::size_t i = 0;
      for_each_index(c.block, [&](const dim3& t) {
        p.thread_idx = t;
        obs.thread(block, static_cast<unsigned>(i));
        const int r = body.step(p, state[i], shared, phase);
        if (i++ == 0) next = r;
        else if (r != next)
          throw kernel_error(std::string(label) + ": the threads of block " + format_dim3(b) +
                             " disagree on the phase after phase " + std::to_string(phase));
      });
      phase = next;
    }
    obs.end_block(block++);
  });
}

/// A launch's grid: a block body's (run_block_grid), else body(p) for every thread of every block in order.
template <class Body, class Observer = no_grid_observer>
void run_any_grid(const launch_config& c, const Body& body, const char* label, const Observer& obs = {}) {
  if constexpr (block_body<Body>) {
    run_block_grid(c, body, label, obs);
  } else {
    thread_pos p{{}, {}, c.block, c.grid};
    std::int32_t block = 0;
    for_each_index(c.grid, [&](const dim3& b) {
      p.block_idx = b;
      unsigned i = 0;
      for_each_index(c.block, [&](const dim3& t) {
        p.thread_idx = t;
        obs.thread(block, i++);
        body(p);
      });
      obs.end_block(block++);
    });
  }
}

template <>
struct launch_hook<sim_t> {
  /// Keeps a call's operands and temporaries alive in a task queued after the call's tasks on the stream's worker.
  static void keep_until_run(const sim_t& t, stream_keep&& k) {
    if (!k.items.empty()) sim_enqueue(t.stream_handle, [k = std::move(k)] {});
  }

  template <class Body>
  static void run(const sim_t& t, const launch_config& c, const Body& body, const char* label) {
    require_space(t.space());
    check_launch(c, sim_device_info(t), label);
    call_counters::add(t.runtime().counters.launches);
    if (sim_profile_collecting.load(std::memory_order_relaxed) != 0) [[unlikely]] {
      // ufx::profile: the grid under a trace (backend/sim/trace.hpp), whose accessors tell it each access
      const int device = t.ordinal();
      auto traced = [c, body, label, device] {
        sim_front_scope scope(label, c, device);
        run_any_grid(c, body, label, scope);
        scope.finish();
      };
      if (t.has_stream()) sim_enqueue(t.stream_handle, std::move(traced));
      else traced();
      return;
    }
    if (t.has_stream())
      sim_enqueue(t.stream_handle,
                  [c, body, label] { run_any_grid(c, body, label); }); // after the stream's earlier work
    else run_any_grid(c, body, label);
  }
};

} // namespace ufx::detail
