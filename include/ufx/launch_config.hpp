#pragma once
/// \file launch_config.hpp
/// `ufx::dim3` and `ufx::launch_config{grid, block, shared_bytes}`: the shape of a device launch,
/// as CUDA's `<<<grid, block, shared_bytes>>>`.
///
///   ufx::launch_config c{blocks, 128};              // 1-D: blocks x 128 threads
///   ufx::launch_config t{{bx, by}, {16, 16}};       // 2-D grid of 16 x 16 blocks
///   ufx::launch_config s{blocks, 256, 4096};        // with 4 KiB of dynamic shared memory

#include <cstddef>

#include "ufx/config.hpp"

namespace ufx {

/// One to three extents (missing ones are 1), as CUDA's dim3.
struct dim3 {
  unsigned x = 1, y = 1, z = 1;
  constexpr dim3() = default;
  constexpr dim3(unsigned x_, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
  UFX_HD constexpr unsigned long long count() const { return static_cast<unsigned long long>(x) * y * z; }
  friend constexpr bool operator==(const dim3&, const dim3&) = default;
};

/// A launch's grid (blocks), block (threads per block) and dynamic shared memory in bytes.
struct launch_config {
  dim3 grid;
  dim3 block;
  std::size_t shared_bytes = 0;
};

} // namespace ufx
