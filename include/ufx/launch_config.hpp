#pragma once
/// \file launch_config.hpp
/// `ufx::dim3` and `ufx::launch_config{grid, block, shared_bytes}`: the shape of a device launch,
/// as CUDA's `<<<grid, block, shared_bytes>>>`, and whether it is cooperative.
///
/// \code
///   ufx::launch_config c{blocks, 128};              // 1-D: blocks x 128 threads
///   ufx::launch_config t{{bx, by}, {16, 16}};       // 2-D grid of 16 x 16 blocks
///   ufx::launch_config s{blocks, 256, 4096};        // with 4 KiB of dynamic shared memory
///   k[ufx::cooperative({blocks, 128})](args...);    // every block resident at once: t.grid_sync()
/// \endcode

#include <cstddef>
#include <type_traits>

#include "ufx/config.hpp"

namespace ufx {

/// One to three extents (missing ones are 1), as CUDA's dim3.
struct dim3 {
  /// The extent along x (1 when not given).
  unsigned x = 1, y = 1, z = 1;
  /// \var y
  /// The extent along y (1 when not given).
  /// \var z
  /// The extent along z (1 when not given).
  constexpr dim3() = default;
  /// Any integer types (`{blocks, 128}` with an `int` or `index_t` count); a negative or too
  /// large extent is refused when the launch is checked.
  template <class X, class Y = unsigned, class Z = unsigned>
  requires(std::is_integral_v<X>&& std::is_integral_v<Y>&& std::is_integral_v<Z>) UFX_HD
      constexpr dim3(X x_, Y y_ = 1, Z z_ = 1)
      : x(clamp(x_)), y(clamp(y_)), z(clamp(z_)) {}
  /// The number of blocks or threads: x * y * z.
  UFX_HD constexpr unsigned long long count() const { return static_cast<unsigned long long>(x) * y * z; }
  /// True when all three extents are equal.
  friend constexpr bool operator==(const dim3&, const dim3&) = default;

private:
  // out-of-range extents become 0xffffffff, which every launch check refuses
  template <class I>
  UFX_HD static constexpr unsigned clamp(I v) {
    if constexpr (std::is_signed_v<I>)
      if (v < 0) return 0xffffffffu;
    if constexpr (sizeof(I) > sizeof(unsigned))
      if (static_cast<unsigned long long>(v) > 0xffffffffull) return 0xffffffffu;
    return static_cast<unsigned>(v);
  }
};

/// A launch's grid (blocks), block (threads per block), dynamic shared memory in bytes, and whether
/// it is cooperative: every block resident on the device at once, so that its threads may wait
/// for each other with `t.grid_sync()` (CUDA's cudaLaunchCooperativeKernel). A cooperative grid
/// larger than the device holds at once is a launch_error; ufx::max_cooperative_grid tells the limit.
struct launch_config {
  /// The grid: the number of blocks along x, y and z.
  dim3 grid;
  /// The block: the number of threads per block along x, y and z.
  dim3 block;
  /// Bytes of dynamic shared memory per block.
  std::size_t shared_bytes = 0;
  /// Whether every block must be resident at once (see ufx::cooperative).
  bool cooperative = false;
};

/// `c`, cooperative: `k[ufx::cooperative({blocks, threads})](args...)`.
constexpr launch_config cooperative(launch_config c) {
  c.cooperative = true;
  return c;
}

} // namespace ufx
