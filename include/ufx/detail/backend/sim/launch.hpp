#pragma once
// ufx::sim's launch: the configuration is checked against the virtual device, then every block runs, and in it every
// thread, in order (ufx's own bodies never wait at a barrier, or are block bodies whose barriers are phase boundaries;
// ufx::kernel's raw kernels, which wait anywhere, run on raw/blocks.hpp's block runner). On a stream the grid runs on
// the stream's worker after its earlier work. The caller has checked that every operand lies in the device's memory.
#include <atomic>
#include <cstddef>
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
/// Hands a launch of ufx's own kernels, which ufx::profile does not trace, to the collections: its configuration.
void sim_profile_untraced(const char* label, const launch_config& c, int device);

/// fn(index) for every block of a grid, or every thread of a block, in order (x fastest).
template <class Fn>
void for_each_index(const dim3& extent, const Fn& fn) {
  for (unsigned z = 0; z < extent.z; ++z)
    for (unsigned y = 0; y < extent.y; ++y)
      for (unsigned x = 0; x < extent.x; ++x) fn(dim3(x, y, z));
}

/// A block body's grid (device/thread.hpp): block by block, each phase for every thread of the block in order, then the
/// next phase; the block's shared memory is one host buffer, its threads' states one array. Each block's shared memory
/// starts as all-ones bytes (NaN as a float or double, -1 as an integer), not as what the previous block left: a body
/// that reads a slot no thread of its block wrote gets a value that shows in its results (on a GPU such a read is
/// undefined, and compute-sanitizer's initcheck checks global memory only).
template <class Body>
void run_block_grid(const launch_config& c, const Body& body, const char* label) {
  using state_type = typename Body::state_type;
  std::vector<state_type> state(static_cast<std::size_t>(c.block.count()));
  std::vector<std::max_align_t> memory(c.shared_bytes / sizeof(std::max_align_t) + 1);
  unsigned char* const shared = reinterpret_cast<unsigned char*>(memory.data());
  thread_pos p{{}, {}, c.block, c.grid};
  for_each_index(c.grid, [&](const dim3& b) {
    p.block_idx = b;
    for (auto& s : state) s = state_type{};
    std::memset(shared, 0xff, c.shared_bytes);
    for (int phase = 0; phase >= 0;) {
      int next = 0;
      std::size_t i = 0;
      for_each_index(c.block, [&](const dim3& t) {
        p.thread_idx = t;
        const int r = body.step(p, state[i], shared, phase);
        if (i++ == 0) next = r;
        else if (r != next)
          throw kernel_error(std::string(label) + ": the threads of block " + format_dim3(b) +
                             " disagree on the phase after phase " + std::to_string(phase));
      });
      phase = next;
    }
  });
}

/// A launch's grid: a block body's (run_block_grid), else body(p) for every thread of every block in order.
template <class Body>
void run_any_grid(const launch_config& c, const Body& body, const char* label) {
  if constexpr (block_body<Body>) {
    run_block_grid(c, body, label);
  } else {
    thread_pos p{{}, {}, c.block, c.grid};
    for_each_index(c.grid, [&](const dim3& b) {
      p.block_idx = b;
      for_each_index(c.block, [&](const dim3& t) {
        p.thread_idx = t;
        body(p);
      });
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
    if (sim_profile_collecting.load(std::memory_order_relaxed) != 0) [[unlikely]]
      sim_profile_untraced(label, c, t.ordinal());
    if (t.has_stream())
      sim_enqueue(t.stream_handle,
                  [c, body, label] { run_any_grid(c, body, label); }); // after the stream's earlier work
    else run_any_grid(c, body, label);
  }
};

} // namespace ufx::detail
