#pragma once
/// \file thread.hpp
/// What a raw kernel's body sees (kernel.hpp): `ufx::thread`, one thread's place in the launch
/// (Numba's `cuda.grid`, `cuda.threadIdx`, `cuda.syncthreads`), and `ufx::shared<T[N]...>`, an
/// array shared by the threads of a block (Numba's `cuda.shared.array`).
///
///   auto k = ufx::kernel([] UFX_HD (const ufx::thread& t, ufx::shared<float[16][16]> tile,
///                                   ufx::ndview<const float, 2> a) {
///     auto [x, y] = t.grid<2>();                         // cuda.grid(2)
///     tile(t.thread_idx().y, t.thread_idx().x) = ...;    // cuda.threadIdx
///     t.sync();                                          // cuda.syncthreads()
///   });
///
/// On a GPU these read CUDA's built-in variables and `sync()` is `__syncthreads()`. On ufx::sim
/// (and ufx::serial / ufx::host, which run kernels the same way on host memory) each thread of a
/// block is a fiber, `sync()` is a real barrier, and shared-array accesses are checked: an index
/// out of range, a barrier not reached by every thread, and two threads touching one element
/// between two barriers with at least one writing are errors naming the kernel, block and thread.
/// Updates through ufx's atomic functions (atomic.hpp) race with plain accesses, not with each other.

#include <array>
#include <cstddef>
#include <type_traits>

#include "ufx/config.hpp"
#include "ufx/detail/kernel_thread.hpp"
#include "ufx/launch_config.hpp"

namespace ufx {

/// One thread of a raw kernel: where it is in the launch, and the block barrier.
class thread {
public:
  /// cuda.threadIdx: this thread's index within its block.
  UFX_HD dim3 thread_idx() const {
#if defined(__CUDA_ARCH__)
    return dim3(threadIdx.x, threadIdx.y, threadIdx.z);
#else
    return pos_.thread_idx;
#endif
  }
  /// cuda.blockIdx: this thread's block within the grid.
  UFX_HD dim3 block_idx() const {
#if defined(__CUDA_ARCH__)
    return dim3(blockIdx.x, blockIdx.y, blockIdx.z);
#else
    return pos_.block_idx;
#endif
  }
  /// cuda.blockDim: threads per block.
  UFX_HD dim3 block_dim() const {
#if defined(__CUDA_ARCH__)
    return dim3(blockDim.x, blockDim.y, blockDim.z);
#else
    return pos_.block_dim;
#endif
  }
  /// cuda.gridDim: blocks in the grid.
  UFX_HD dim3 grid_dim() const {
#if defined(__CUDA_ARCH__)
    return dim3(gridDim.x, gridDim.y, gridDim.z);
#else
    return pos_.grid_dim;
#endif
  }

  /// cuda.grid(N): the thread's absolute index in the grid; an index for N = 1, else a
  /// std::array {x, y} or {x, y, z} (`auto [x, y] = t.grid<2>();`).
  template <int N = 1>
  UFX_HD auto grid() const {
    static_assert(N >= 1 && N <= 3, "ufx::thread::grid<N>: N is 1, 2 or 3");
    const dim3 b = block_idx(), d = block_dim(), i = thread_idx();
    const auto at = [](unsigned bb, unsigned dd, unsigned ii) {
      return static_cast<index_t>(bb) * static_cast<index_t>(dd) + static_cast<index_t>(ii);
    };
    if constexpr (N == 1) return at(b.x, d.x, i.x);
    else if constexpr (N == 2) return std::array<index_t, 2>{at(b.x, d.x, i.x), at(b.y, d.y, i.y)};
    else return std::array<index_t, 3>{at(b.x, d.x, i.x), at(b.y, d.y, i.y), at(b.z, d.z, i.z)};
  }

  /// cuda.gridsize(N): threads in the whole grid along each axis (a grid-stride loop's step).
  template <int N = 1>
  UFX_HD auto gridsize() const {
    static_assert(N >= 1 && N <= 3, "ufx::thread::gridsize<N>: N is 1, 2 or 3");
    const dim3 g = grid_dim(), d = block_dim();
    const auto at = [](unsigned gg, unsigned dd) { return static_cast<index_t>(gg) * static_cast<index_t>(dd); };
    if constexpr (N == 1) return at(g.x, d.x);
    else if constexpr (N == 2) return std::array<index_t, 2>{at(g.x, d.x), at(g.y, d.y)};
    else return std::array<index_t, 3>{at(g.x, d.x), at(g.y, d.y), at(g.z, d.z)};
  }

  /// cuda.syncthreads(): waits until every thread of the block has reached this barrier. Every
  /// thread of a block must reach the same sync() calls: on ufx::sim a thread that returns, or
  /// waits at another sync(), while others wait is an error naming the lines.
  UFX_HD void sync(int line = __builtin_LINE()) const {
#if defined(__CUDA_ARCH__)
    (void)line;
    __syncthreads();
#else
    detail::sim_sync(block_, line);
#endif
  }

  /// cuda.warpsize: 32 on NVIDIA GPUs (the sim does not group threads into warps).
  UFX_HD static constexpr int warp_size() { return 32; }

private:
  friend struct detail::thread_access;
  detail::thread_pos pos_{};                 // host runs only (a GPU reads its built-in variables)
  detail::sim_block* block_ = nullptr;       // host runs only
  detail::sim_block_state* state_ = nullptr; // host runs only: shared-access checks
  unsigned char* static_shared_ = nullptr;   // the block's static shared arrays
  unsigned char* dynamic_shared_ = nullptr;  // the launch's dynamic shared memory
  std::size_t dynamic_bytes_ = 0;            // the launch's shared_bytes
};

namespace detail {
/// How ufx's launchers make and read a `thread` (its members are not the kernel body's business).
struct thread_access {
  static thread make(const thread_pos& p, sim_block* block, sim_block_state* state, unsigned char* static_shared,
                     unsigned char* dynamic_shared, std::size_t dynamic_bytes) {
    thread t;
    t.pos_ = p;
    t.block_ = block;
    t.state_ = state;
    t.static_shared_ = static_shared;
    t.dynamic_shared_ = dynamic_shared;
    t.dynamic_bytes_ = dynamic_bytes;
    return t;
  }
  UFX_HD static thread make_device(unsigned char* static_shared, unsigned char* dynamic_shared,
                                   std::size_t dynamic_bytes) {
    thread t;
    t.static_shared_ = static_shared;
    t.dynamic_shared_ = dynamic_shared;
    t.dynamic_bytes_ = dynamic_bytes;
    return t;
  }
  UFX_HD static unsigned char* static_shared(const thread& t) { return t.static_shared_; }
  UFX_HD static unsigned char* dynamic_shared(const thread& t) { return t.dynamic_shared_; }
  UFX_HD static std::size_t dynamic_bytes(const thread& t) { return t.dynamic_bytes_; }
  UFX_HD static sim_block_state* state(const thread& t) { return t.state_; }
};
} // namespace detail

/// An array shared by the threads of one block (CUDA's `__shared__`, Numba's
/// `cuda.shared.array`): `shared<float[16][16]>` is a 16 x 16 row-major array, `shared<T[]>` takes
/// the launch's `shared_bytes` (its extent is shared_bytes / sizeof(T)). Declare them as the
/// kernel body's parameters right after the thread; the caller passes none of them. Its contents
/// start undefined, as on a GPU.
template <class A>
class shared {
  using decl = detail::shared_decl<A>;
  static_assert(decl::valid, "ufx::shared<A>: A is an array type: T[N], T[N][M], T[N][M][K] or T[] (sized by the "
                             "launch's shared_bytes)");

public:
  using element_type = typename decl::element;
  static_assert(std::is_trivially_copyable_v<element_type> && std::is_trivially_default_constructible_v<element_type>,
                "ufx::shared<T[...]>: the element type must be trivially copyable and trivially default "
                "constructible (arithmetic, bool, plain structs), as CUDA's __shared__ arrays are");
  static constexpr int rank = decl::rank;
  static constexpr bool dynamic = decl::dynamic;

  shared() = default;
  UFX_HD shared(element_type* data, index_t first_extent, detail::sim_block_state* state)
      : data_(data), first_(first_extent), state_(state) {}

  /// The element at (i, j, ...): one index per dimension, row-major.
  template <class... I>
  requires(sizeof...(I) == rank && (std::is_integral_v<I> && ...)) UFX_HD element_type& operator()(I... i) const {
    const index_t idx[rank] = {static_cast<index_t>(i)...};
    index_t off = 0;
#if !defined(__CUDA_ARCH__)
    bool bad = false;
    for (int k = 0; k < rank; ++k) bad |= idx[k] < 0 || idx[k] >= extent(k);
    if (bad) {
      const index_t ext[3] = {extent(0), extent(1), extent(2)};
      detail::sim_shared_out_of_range(rank, idx, ext);
    }
#endif
    for (int k = 0; k < rank; ++k) off = off * extent(k) + idx[k];
#if !defined(__CUDA_ARCH__)
    if (state_) {
      const auto byte = static_cast<std::size_t>(reinterpret_cast<unsigned char*>(data_ + off) - state_->shared);
      if (state_->stamp[byte] != state_->segment) detail::sim_shared_log(state_, byte, sizeof(element_type));
    }
#endif
    return data_[off];
  }
  /// The element at i of a one-dimensional array.
  template <class I>
  requires(rank == 1 && std::is_integral_v<I>) UFX_HD element_type& operator[](I i) const { return (*this)(i); }

  UFX_HD index_t extent(int k) const { return k == 0 ? first_ : k == 1 ? decl::e1 : decl::e2; }
  /// The declared extent of dimension k (0 for the first of a `T[]` array, sized at launch).
  UFX_HD static constexpr index_t declared_extent(int k) { return k == 0 ? decl::e0 : k == 1 ? decl::e1 : decl::e2; }
  UFX_HD index_t size() const {
    index_t n = 1;
    for (int k = 0; k < rank; ++k) n *= extent(k);
    return n;
  }
  /// The first element (accesses through the pointer are not checked on the sim).
  UFX_HD element_type* data() const { return data_; }

private:
  element_type* data_ = nullptr;
  index_t first_ = 0;
  detail::sim_block_state* state_ = nullptr;
};

} // namespace ufx
