#pragma once
// What the two device targets share about a launch: where a thread is inside it, and the checks a configuration must
// pass on every device (messages naming the kernel, the grid and the block), so the sim refuses what a GPU would. And
// what ufx's device algorithms build on the one launch seam, `launch_hook<Tag>::run(target, launch_config, body,
// label)`, which each device target's folder provides (backend/sim/launch.hpp, backend/cuda/launch.hpp; found where a
// call is instantiated: detail/backends.hpp): a grid-stride loop over n items.
#include <string>

#include "ufx/config.hpp"
#include "ufx/detail/core/hooks.hpp"
#include "ufx/devices.hpp"
#include "ufx/errors.hpp"
#include "ufx/launch_config.hpp"
#include "ufx/thread.hpp"

namespace ufx::detail {

/// "(x, y, z)".
std::string format_dim3(const dim3& d);

/// Throws launch_error unless `c` can launch on a device described by `d` (`static_shared`: the kernel's own shared
/// arrays, besides the dynamic shared_bytes). In libufx, as are the other checks and messages that need no template.
void check_launch(const launch_config& c, const device_info& d, const char* label, std::size_t static_shared = 0);

/// Throws launch_error when `c` is cooperative with more blocks than `limit`, those of the kernel `d` holds at once.
void check_cooperative(const launch_config& c, long long limit, const device_info& d, const char* label);

/// The CPU targets' and the sim's cooperative limit: each of `d.multiprocessors` holds, as a GPU of compute capability
/// 9.0 does, up to 2048 threads, 32 blocks and 228 KiB of shared memory.
long long host_cooperative_blocks(const device_info& d, unsigned long long threads, std::size_t shared_bytes);

/// A block body: what one block's threads do, in phases separated by block-wide barriers, over the launch's
/// `shared_bytes` of shared memory (16-byte aligned), launched like any body through the seam. `step(thread, state,
/// shared, phase)` runs one thread's part of a phase and returns the next phase, the same for every thread of the block
/// (negative: done); each thread's `state_type` (value-initialised before phase 0) carries what it keeps between
/// phases. On cuda one kernel loops over the phases with __syncthreads() after each; on the sim each phase runs for
/// every thread of the block in order, then the next (the barriers are the phase boundaries: no fibers).
template <class B>
concept block_body = requires {
  typename B::state_type;
};

/// Threads per block of ufx's own grid-stride kernels.
inline constexpr unsigned device_block = 256;

/// A 1-D grid of device_block threads covering n items, `per_thread` each, capped (a grid-stride loop takes the rest).
inline launch_config grid_for(index_t n, index_t per_thread = 1) {
  const index_t threads = (n + per_thread - 1) / per_thread;
  index_t blocks = (threads + device_block - 1) / device_block;
  blocks = blocks < 1 ? 1 : (blocks > (index_t{1} << 20) ? (index_t{1} << 20) : blocks);
  return launch_config{dim3(static_cast<unsigned>(blocks)), dim3(device_block), 0};
}

UFX_TU_NAMESPACE_BEGIN

/// fn(i) for every i in [0, n), one grid-stride loop per thread.
template <class Fn>
struct grid_stride {
  Fn fn;
  index_t n;
  UFX_HD void operator()(const thread_pos& t) const {
    const index_t step = t.stride_x();
    for (index_t i = t.global_x(); i < n; i += step) fn(i);
  }
};

template <class Tag, class Fn>
void device_for_each(const Tag& tag, index_t n, const Fn& fn, const char* label) {
  if (n <= 0) return;
  launch_hook<Tag>::run(tag, grid_for(n), grid_stride<Fn>{fn, n}, label);
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
