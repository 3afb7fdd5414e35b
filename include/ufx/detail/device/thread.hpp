#pragma once
// What the two device targets share about a launch: where one thread is inside it, and the checks
// a launch configuration must pass on every device (with messages naming the kernel, the grid and
// the block), so the sim refuses what a GPU would.
#include <string>

#include "ufx/config.hpp"
#include "ufx/devices.hpp"
#include "ufx/errors.hpp"
#include "ufx/launch_config.hpp"
#include "ufx/thread.hpp"

namespace ufx::detail {

inline std::string format_dim3(const dim3& d) {
  std::string s = "(";
  s.append(std::to_string(d.x)).append(", ").append(std::to_string(d.y)).append(", ").append(std::to_string(d.z));
  return s.append(")"); // piece by piece: GCC 12's -Wrestrict misfires on "(" + std::string
}

/// Throws launch_error unless `c` can launch on a device described by `d` (`static_shared`: the
/// kernel's own shared arrays, besides the launch's dynamic shared_bytes).
inline void check_launch(const launch_config& c, const device_info& d, const char* label,
                         std::size_t static_shared = 0) {
  auto fail = [&](const std::string& what) {
    throw launch_error(d.target + " device " + std::to_string(d.ordinal) + ": cannot launch " + label + " with grid " +
                       format_dim3(c.grid) + ", block " + format_dim3(c.block) + ": " + what);
  };
  if (c.grid.count() == 0 || c.block.count() == 0) fail("a grid or block extent is 0");
  if (c.block.count() > static_cast<unsigned long long>(d.max_threads_per_block))
    fail(std::to_string(c.block.count()) + " threads per block, more than the device's " +
         std::to_string(d.max_threads_per_block));
  if (c.block.z > 64) fail("block.z is more than 64");
  if (c.grid.y > 65535 || c.grid.z > 65535) fail("grid.y or grid.z is more than 65535");
  if (c.grid.x > 2147483647u) fail("grid.x is more than 2^31 - 1");
  if (c.shared_bytes + static_shared > d.shared_memory_per_block)
    fail(std::to_string(c.shared_bytes + static_shared) + " bytes of shared memory per block" +
         (static_shared ? " (" + std::to_string(static_shared) + " in shared arrays, " +
                              std::to_string(c.shared_bytes) + " dynamic)"
                        : std::string()) +
         ", more than the device's " + std::to_string(d.shared_memory_per_block));
}

/// A block body: what the threads of one block do, in phases separated by block-wide barriers,
/// over the launch's `shared_bytes` of shared memory (16-byte aligned). Launched like any body
/// through the seam; `step(thread, state, shared, phase)` runs one thread's part of a phase and
/// returns the next phase, the same for every thread of the block (a negative one: the block is
/// done); each thread's `state_type` (value-initialised before phase 0) carries what the thread
/// keeps from phase to phase. On cuda one kernel loops over the phases with __syncthreads()
/// after each; on the sim each phase runs for every thread of the block in order, then the next
/// (the barriers are the phase boundaries: no fibers).
template <class B>
concept block_body = requires {
  typename B::state_type;
};

/// Threads per block of ufx's own grid-stride kernels.
inline constexpr unsigned device_block = 256;

/// A 1-D grid of device_block threads covering n items, `per_thread` items each, capped so a
/// grid-stride loop takes the rest.
inline launch_config grid_for(index_t n, index_t per_thread = 1) {
  const index_t threads = (n + per_thread - 1) / per_thread;
  index_t blocks = (threads + device_block - 1) / device_block;
  blocks = blocks < 1 ? 1 : (blocks > (index_t{1} << 20) ? (index_t{1} << 20) : blocks);
  return launch_config{dim3(static_cast<unsigned>(blocks)), dim3(device_block), 0};
}

} // namespace ufx::detail
