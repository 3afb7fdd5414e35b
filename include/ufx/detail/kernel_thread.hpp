#pragma once
// What ufx/thread.hpp's types hold and call on the host: a thread's position in a launch, the
// part of a block run (src/sim_blocks.cpp) that shared-array accesses read inline, the block
// runner's entry points in libufx, and the element type and extents of a `shared<A>` declaration.
#include <cstddef>
#include <cstdint>

#include "ufx/config.hpp"
#include "ufx/launch_config.hpp"

namespace ufx::detail {
/// One thread's coordinates in a launch.
struct thread_pos {
  dim3 thread_idx, block_idx, block_dim, grid_dim;
  /// cuda.grid(1): the thread's index along x over the whole grid.
  UFX_HD index_t global_x() const {
    return static_cast<index_t>(block_idx.x) * static_cast<index_t>(block_dim.x) + static_cast<index_t>(thread_idx.x);
  }
  /// cuda.gridsize(1): threads along x over the whole grid (a grid-stride loop's step).
  UFX_HD index_t stride_x() const { return static_cast<index_t>(grid_dim.x) * static_cast<index_t>(block_dim.x); }
};

/// The part of a block run on the host (src/sim_blocks.cpp) that shared-array accesses read
/// inline: the block's shared memory and, per byte offset, the barrier interval segment that
/// last logged it (an access whose stamp is current costs one compare).
struct sim_block_state {
  unsigned char* shared = nullptr;
  std::uint32_t* stamp = nullptr;
  std::uint32_t segment = 0;
  std::size_t bytes = 0; // the block's shared memory, static and dynamic
};
struct sim_block;

#if !defined(__CUDA_ARCH__)
/// The block a host thread is running (src/sim_blocks.cpp sets it around each block), or null:
/// ufx's atomic functions ask it whether their element is the block's shared memory.
inline thread_local sim_block_state* sim_current_block = nullptr;
#endif
/// Before an atomic update of the shared element at byte `offset` by the running thread: logs the
/// element and notes the update (src/sim_blocks.cpp); returns what sim_shared_atomic_end takes.
std::uint32_t sim_shared_atomic_begin(sim_block_state* state, std::size_t offset, std::size_t bytes);
/// After it: the element's bytes now are the thread's atomic result, not a plain write.
void sim_shared_atomic_end(sim_block_state* state, std::uint32_t entry);

/// t.sync() on the host: the calling fiber waits until every thread of its block arrives.
void sim_sync(sim_block* block, int line);
/// Logs a shared-memory access the first time a thread touches an element in a barrier interval.
void sim_shared_log(sim_block_state* state, std::size_t offset, std::size_t bytes);
/// Throws the out-of-range error of a shared-array access (the runner adds kernel, block, thread).
[[noreturn]] void sim_shared_out_of_range(int rank, const index_t* index, const index_t* extents);
struct thread_access;

/// The element type, rank and extents of a `shared<A>` declaration (a dynamic first extent is 0).
template <class A>
struct shared_decl {
  static constexpr bool valid = false;
};
template <class T, std::size_t N>
struct shared_decl<T[N]> {
  static constexpr bool valid = true, dynamic = false;
  using element = T;
  static constexpr int rank = 1;
  static constexpr index_t e0 = index_t(N), e1 = 1, e2 = 1;
};
template <class T, std::size_t N, std::size_t M>
struct shared_decl<T[N][M]> {
  static constexpr bool valid = true, dynamic = false;
  using element = T;
  static constexpr int rank = 2;
  static constexpr index_t e0 = index_t(N), e1 = index_t(M), e2 = 1;
};
template <class T, std::size_t N, std::size_t M, std::size_t K>
struct shared_decl<T[N][M][K]> {
  static constexpr bool valid = true, dynamic = false;
  using element = T;
  static constexpr int rank = 3;
  static constexpr index_t e0 = index_t(N), e1 = index_t(M), e2 = index_t(K);
};
template <class T>
struct shared_decl<T[]> {
  static constexpr bool valid = true, dynamic = true;
  using element = T;
  static constexpr int rank = 1;
  static constexpr index_t e0 = 0, e1 = 1, e2 = 1;
};
} // namespace ufx::detail
