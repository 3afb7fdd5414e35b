#pragma once
// Raw kernels on the host (ufx::sim, and ufx::serial / ufx::host on host memory): the block runner of src/sim/block.cpp
// runs each block's threads as fibers, so `t.sync()` is a real barrier, and blocks in parallel on the host's cores. The
// kernel body reaches it type-erased: a pointer and a function that runs one thread.
#include <cstddef>
#include <string>

#include "ufx/config.hpp"
#include "ufx/launch_config.hpp"
#include "ufx/thread.hpp"

namespace ufx::detail {

/// One `ufx::shared` array of a kernel, for the messages of the sim's checks.
struct shared_region {
  std::size_t offset = 0;    // byte offset in the block's shared memory
  std::size_t elem_size = 0; // bytes per element
  int rank = 1;
  index_t extents[3] = {1, 1, 1}; // a dynamic array's first extent is filled in at launch
  int parameter = 0;              // the body's parameter position (0 is the thread)
};

/// One array argument of a kernel, for the messages of the sim's global-memory checks.
struct global_region {
  const void* data = nullptr;
  std::size_t elem_size = 0;
  int rank = 0;
  index_t extents[max_rank] = {};
  index_t strides[max_rank] = {};          // in elements
  int argument = 0;                        // the caller's argument position (from 1)
  int parameter = 0;                       // the body's parameter position (0 is the thread)
  bool read_only = false;                  // an ndview<const T>
  const char *lo = nullptr, *hi = nullptr; // the bytes its elements occupy (byte_range)
};

/// A launch of a kernel body on the host.
struct block_launch {
  launch_config config;
  std::size_t static_bytes = 0; // the body's shared arrays (the dynamic ones follow, 16-aligned)
  const shared_region* regions = nullptr;
  int region_count = 0;
  const char* label = "ufx::kernel";
  std::string where; // "ufx::sim device 0", "ufx::host"
  const void* body = nullptr;
  void (*run_thread)(const void* body, const thread& t) = nullptr;
  int workers = 1;                        // host threads running blocks
  const global_region* globals = nullptr; // the array arguments
  int global_count = 0;
  bool track_global = false; // the arguments are tracked views (ufx::sim): check global memory
  bool on_sim = false;       // a ufx::sim launch, which ufx::profile traces
};

/// Runs every block of `l` (threads of a block as fibers), blocks on `l.workers` threads. Throws ufx::kernel_error
/// naming the kernel, the block and the thread for the first failing block (in block order): an exception from the
/// body, a barrier some threads of a block miss or reach at different sync() calls, or a shared-memory race.
void run_blocks(const block_launch& l);

/// Bytes a fiber's stack has (UFX_SIM_STACK; a kernel with large local arrays may need more).
std::size_t sim_fiber_stack_bytes();

} // namespace ufx::detail
