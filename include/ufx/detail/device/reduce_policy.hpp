#pragma once
// The device reduction's tuning in one place, read by the planners of its three paths (device/reduce.hpp's lanes,
// tiled_reduce.hpp's tiles, row_reduce.hpp's rows) and by reduce_chunked (as CUB keeps its tuning apart).
#include <cstddef>

#include "ufx/config.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

struct device_reduce_policy {
  // ---- lanes (each thread folds a strided share of one output's positions)
  static constexpr index_t lane_threads = index_t{1} << 17; // in all
  static constexpr index_t lane_min_run = 32;               // positions per lane, at least

  // ---- tiles (block bodies over the y side of an x-by-y reduction)
  /// Threads per block (= positions per tile), and the outputs the path needs at least: fewer outputs keep the lanes,
  /// which split each output's positions among many threads.
  static constexpr index_t tile_block = 256;
  static constexpr index_t tile_min_outputs = 256;
  /// Shared memory the tiled path may take per block (two tiles of every y-side input): within every device's 48 KiB,
  /// leaving room for several blocks per multiprocessor.
  static constexpr index_t tile_max_shared = 24 << 10;
  /// Splits of an output's tiles: about 2^20 threads in all (several waves of the largest devices, so the last wave's
  /// idle multiprocessors cost little), at least 4 tiles each, and their partials within 32 MiB.
  static constexpr index_t tile_threads = index_t{1} << 20;
  static constexpr index_t tile_min_tiles = 4;
  static constexpr index_t tile_partial_bytes = index_t{32} << 20;

  // ---- rows (a group of threads per contiguous row)
  static constexpr index_t row_block = 256; // threads per block

  // ---- what the chunk engine sets aside
  /// Bytes of partial accumulators the device reduction may need per row of a chunk whose rows hold `acc_bytes_per_row`
  /// bytes of accumulators: one accumulator per lane of at least lane_min_run positions, and a lane_min_run-th of that
  /// again for its second level, rounded up to a 28th.
  static constexpr std::size_t partial_bytes_per_row(std::size_t acc_bytes_per_row) {
    return (acc_bytes_per_row + 27) / 28;
  }
  static_assert(28 * (lane_min_run + 1) <= lane_min_run * lane_min_run,
                "partial_bytes_per_row: a 28th must cover a lane_min_run-th and its lane_min_run-th");
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
