#pragma once
// ufx::sim's launch: the configuration is checked against the virtual device, then every block
// runs, and within it every thread, in order (ufx's own bodies never wait at a barrier; the raw
// kernels of ufx::kernel, which do, run on the block runner of detail/blocks.hpp).
// On a stream the grid runs on the stream's worker, after its earlier work. Before any body runs,
// the caller has checked that every operand lies in the device's memory.
#include "ufx/detail/device/thread.hpp"
#include "ufx/detail/runtime.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {

/// Device properties of the sim device, for launch checks (cached per launch site is not needed:
/// the query is a lock and a few fields).
inline device_info sim_device_info(const sim_t& t) { return sim_t::runtime().info(t.ordinal()); }

template <class Body>
void run_grid(const launch_config& c, const Body& body) {
  thread_pos p{};
  p.block_dim = c.block;
  p.grid_dim = c.grid;
  for (unsigned bz = 0; bz < c.grid.z; ++bz)
    for (unsigned by = 0; by < c.grid.y; ++by)
      for (unsigned bx = 0; bx < c.grid.x; ++bx) {
        p.block_idx = dim3(bx, by, bz);
        for (unsigned tz = 0; tz < c.block.z; ++tz)
          for (unsigned ty = 0; ty < c.block.y; ++ty)
            for (unsigned tx = 0; tx < c.block.x; ++tx) {
              p.thread_idx = dim3(tx, ty, tz);
              body(p);
            }
      }
}

template <class Body>
void launch(const sim_t& t, const launch_config& c, const Body& body, const char* label) {
  require_space(t.space());
  check_launch(c, sim_device_info(t), label);
  if (t.has_stream()) sim_enqueue(t.stream_handle, [c, body] { run_grid(c, body); }); // after the stream's earlier work
  else run_grid(c, body);
}

} // namespace ufx::detail
