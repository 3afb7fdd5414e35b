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
/// On a GPU these read CUDA's built-in variables, `sync()` is `__syncthreads()` and the warp
/// operations are CUDA's intrinsics. On ufx::sim (and ufx::serial / ufx::host, which run kernels
/// the same way on host memory) each thread of a block is a fiber, `sync()` is a real barrier, the
/// lanes of a warp meet at each warp operation, and accesses are checked: an index out of range, a
/// barrier not reached by every thread, lanes of a mask that do not meet, two threads touching one
/// shared element unordered with at least one writing, and a read of a shared element no thread
/// has written are errors naming the kernel, block and thread (on ufx::sim also for the global
/// memory of array arguments). Updates through ufx's atomic functions (atomic.hpp) race with plain
/// accesses, not with each other.

#include <array>
#include <cstddef>
#include <cstring>
#include <type_traits>

#include "ufx/config.hpp"
#include "ufx/detail/raw/thread.hpp"
#include "ufx/launch_config.hpp"
#if defined(__CUDACC__)
#  include "ufx/detail/backend/cuda/thread.hpp"
#endif

namespace ufx::detail {
/// What a thread's members do: CUDA's built-in variables and intrinsics in device code
/// (backend/cuda/thread.hpp), the host block runner's fibers everywhere else (detail/raw/thread.hpp).
/// The one place the choice is made.
#if defined(__CUDA_ARCH__)
using thread_ops = cuda_thread_ops;
#else
using thread_ops = host_thread_ops;
#endif
} // namespace ufx::detail

/// \cond INTERNAL
// The messages of the warp functions' static_asserts (undefined again at the end).
#define UFX_SHFL_VALUE_MESSAGE                                                                                         \
  "ufx::thread::shfl_*_sync: the value must be trivially copyable and at most 64 bytes (a shuffle moves 4 bytes "      \
  "at a time; ufx moves larger values in pieces)"
#define UFX_VOTE_PREDICATE_MESSAGE                                                                                     \
  "ufx::thread::all_sync / any_sync / eq_sync / ballot_sync: the predicate is a bool or an integer, as CUDA's int "    \
  "predicate (compare a floating-point value explicitly: x != 0.f)"
#define UFX_MATCH_VALUE_MESSAGE                                                                                        \
  "ufx::thread::match_any_sync / match_all_sync: the value must be trivially copyable and 4 or 8 bytes (int, "         \
  "unsigned, long long, float, double), as CUDA's __match_*_sync take; compare larger values a member at a time"
#define UFX_SYNC_PREDICATE_MESSAGE                                                                                     \
  "ufx::thread::sync_count / sync_and / sync_or: the predicate is a bool or an integer, as CUDA's int predicate "      \
  "(compare a floating-point value explicitly: x != 0.f)"
/// \endcond

namespace ufx {

/// One thread of a raw kernel: where it is in the launch, and the block barrier.
class thread {
public:
  /// cuda.threadIdx: this thread's index within its block.
  UFX_HD dim3 thread_idx() const { return detail::thread_ops::thread_idx(pos_); }
  /// cuda.blockIdx: this thread's block within the grid.
  UFX_HD dim3 block_idx() const { return detail::thread_ops::block_idx(pos_); }
  /// cuda.blockDim: threads per block.
  UFX_HD dim3 block_dim() const { return detail::thread_ops::block_dim(pos_); }
  /// cuda.gridDim: blocks in the grid.
  UFX_HD dim3 grid_dim() const { return detail::thread_ops::grid_dim(pos_); }

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
  UFX_HD void sync(int line = __builtin_LINE()) const { detail::thread_ops::sync(block_, line); }

  /// Cooperative groups' `this_grid().sync()` (Numba's `cg.this_grid().sync()`): waits until every
  /// thread of the grid has reached it; memory accesses before it are visible to every thread
  /// after it. Only in a cooperative launch (`k[ufx::cooperative(config)]`): on the sim a grid_sync
  /// in another launch is a kernel_error naming the thread; on a GPU it traps (the kernel fails
  /// with cudaErrorLaunchFailure). Every thread of the grid must reach the same grid_sync calls.
  UFX_HD void grid_sync(int line = __builtin_LINE()) const { detail::thread_ops::grid_sync(block_, line); }

  /// cuda.warpsize: 32 on NVIDIA GPUs, and on the sim, whose blocks form warps as a GPU's do.
  UFX_HD static constexpr int warp_size() { return 32; }

  // ---- warps. A block's threads form warps of 32 lanes in CUDA's order (x fastest: linear thread
  // index / 32 is the warp, % 32 the lane); the last warp of a block whose size is not a multiple
  // of 32 has fewer lanes. The *_sync operations take a mask of the lanes that take part: each
  // calling lane must be in it, and every lane it names that the block has must reach an operation
  // of the same kind with the same mask (on the sim, a named lane that has returned or waits
  // elsewhere is a kernel_error). Lanes the block does not have are ignored, as on a GPU.

  /// The thread's index within the block, x fastest (threadIdx.x + blockDim.x * (threadIdx.y + ...)).
  UFX_HD unsigned thread_rank() const {
    const dim3 i = thread_idx(), d = block_dim();
    return i.x + d.x * (i.y + d.y * i.z);
  }
  /// cuda.laneid: the thread's lane in its warp, 0 to 31.
  UFX_HD unsigned lane_id() const { return detail::thread_ops::lane_id(pos_); }
  /// The thread's warp within the block (thread_rank() / 32).
  UFX_HD unsigned warp_id() const { return thread_rank() / 32; }
  /// cuda.lanemask_lt(): the lanes below this one (1 << lane_id()) - 1; _le, _eq, _ge, _gt alike.
  UFX_HD unsigned lanemask_lt() const { return (1u << lane_id()) - 1u; }
  /// cuda.lanemask_le(): the lanes up to and including this one.
  UFX_HD unsigned lanemask_le() const { return lanemask_lt() | lanemask_eq(); }
  /// cuda.lanemask_eq(): this lane alone, 1 << lane_id().
  UFX_HD unsigned lanemask_eq() const { return 1u << lane_id(); }
  /// cuda.lanemask_gt(): the lanes above this one.
  UFX_HD unsigned lanemask_gt() const { return ~lanemask_le(); }
  /// cuda.lanemask_ge(): this lane and the lanes above it.
  UFX_HD unsigned lanemask_ge() const { return ~lanemask_lt(); }

  /// cuda.activemask(): the lanes of this warp executing this call together. On the sim, the lanes
  /// that reach an activemask() on the same source line while the warp's other lanes wait elsewhere
  /// or have returned: inside `if (lane % 2)` the lanes on that branch.
  UFX_HD unsigned activemask(int line = __builtin_LINE()) const {
    return detail::thread_ops::activemask(pos_, block_, line);
  }

  /// cuda.syncwarp(mask): waits until every lane named in mask reaches a syncwarp with the same
  /// mask; memory accesses before it are visible to those lanes after it.
  UFX_HD void syncwarp(unsigned mask = 0xffffffffu, int line = __builtin_LINE()) const {
    detail::thread_ops::syncwarp(block_, mask, line);
  }

  /// cuda.shfl_sync(mask, v, src_lane): v of lane src_lane (of this thread's group of `width`
  /// lanes: src_lane % width within it). Any trivially copyable value of up to 64 bytes (moved 4
  /// bytes at a time). On the sim, reading a lane outside the mask, or one the block does not
  /// have, is a kernel_error: on a GPU that value is undefined.
  template <class T>
  UFX_HD T shfl_sync(unsigned mask, const T& v, int src_lane, int width = 32, int line = __builtin_LINE()) const {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 64, UFX_SHFL_VALUE_MESSAGE);
    return detail::thread_ops::shuffle(block_, detail::warp_kind::shfl_idx, mask, v, static_cast<unsigned>(src_lane),
                                       width, line);
  }
  /// cuda.shfl_up_sync(mask, v, delta): v of lane lane_id() - delta; a lane with fewer than delta
  /// lanes below it in its group of `width` keeps its own v.
  template <class T>
  UFX_HD T shfl_up_sync(unsigned mask, const T& v, unsigned delta, int width = 32, int line = __builtin_LINE()) const {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 64, UFX_SHFL_VALUE_MESSAGE);
    return detail::thread_ops::shuffle(block_, detail::warp_kind::shfl_up, mask, v, delta, width, line);
  }
  /// cuda.shfl_down_sync(mask, v, delta): v of lane lane_id() + delta; a lane with fewer than delta
  /// lanes above it in its group of `width` keeps its own v.
  template <class T>
  UFX_HD T shfl_down_sync(unsigned mask, const T& v, unsigned delta, int width = 32,
                          int line = __builtin_LINE()) const {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 64, UFX_SHFL_VALUE_MESSAGE);
    return detail::thread_ops::shuffle(block_, detail::warp_kind::shfl_down, mask, v, delta, width, line);
  }
  /// cuda.shfl_xor_sync(mask, v, lane_mask): v of lane lane_id() ^ lane_mask (a butterfly); a lane
  /// whose partner lies in a later group of `width` keeps its own v.
  template <class T>
  UFX_HD T shfl_xor_sync(unsigned mask, const T& v, unsigned lane_mask, int width = 32,
                         int line = __builtin_LINE()) const {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 64, UFX_SHFL_VALUE_MESSAGE);
    return detail::thread_ops::shuffle(block_, detail::warp_kind::shfl_xor, mask, v, lane_mask, width, line);
  }

  /// cuda.all_sync(mask, pred): whether pred is true in every lane of the mask.
  template <class P>
  UFX_HD bool all_sync(unsigned mask, P pred, int line = __builtin_LINE()) const {
    return vote_pred<detail::warp_kind::all>(mask, pred, line);
  }
  /// cuda.any_sync(mask, pred): whether pred is true in some lane of the mask.
  template <class P>
  UFX_HD bool any_sync(unsigned mask, P pred, int line = __builtin_LINE()) const {
    return vote_pred<detail::warp_kind::any>(mask, pred, line);
  }
  /// cuda.eq_sync(mask, pred): whether pred is the same (all true or all false) in the mask's lanes.
  template <class P>
  UFX_HD bool eq_sync(unsigned mask, P pred, int line = __builtin_LINE()) const {
    return vote_pred<detail::warp_kind::eq>(mask, pred, line);
  }
  /// cuda.ballot_sync(mask, pred): bit k set when lane k of the mask has pred true.
  template <class P>
  UFX_HD unsigned ballot_sync(unsigned mask, P pred, int line = __builtin_LINE()) const {
    static_assert(std::is_integral_v<P>, UFX_VOTE_PREDICATE_MESSAGE);
    return detail::thread_ops::ballot(block_, mask, pred != 0, line);
  }
  /// cuda.match_any_sync(mask, v): the lanes of the mask whose v has the same bits as this lane's.
  /// v is a 4- or 8-byte trivially copyable value (int, unsigned, long long, float, double, ...).
  template <class T>
  UFX_HD unsigned match_any_sync(unsigned mask, const T& v, int line = __builtin_LINE()) const {
    static_assert(std::is_trivially_copyable_v<T> && (sizeof(T) == 4 || sizeof(T) == 8), UFX_MATCH_VALUE_MESSAGE);
    return detail::thread_ops::match_any(block_, mask, v, line);
  }
  /// The result of match_all_sync: the mask's lanes when all have the same value (else 0), and
  /// whether they do.
  struct match_all_result {
    /// The mask's lanes when all have the same value, else 0.
    unsigned mask;
    /// True when all the mask's lanes have the same value.
    bool pred;
  };
  /// cuda.match_all_sync(mask, v): `auto [m, same] = t.match_all_sync(mask, v)`.
  template <class T>
  UFX_HD match_all_result match_all_sync(unsigned mask, const T& v, int line = __builtin_LINE()) const {
    static_assert(std::is_trivially_copyable_v<T> && (sizeof(T) == 4 || sizeof(T) == 8), UFX_MATCH_VALUE_MESSAGE);
    const detail::match_all_bits r = detail::thread_ops::match_all(block_, mask, v, line);
    return {r.mask, r.pred};
  }

  /// cuda.syncthreads_count(pred): a sync() that returns how many threads of the block have pred true.
  template <class P>
  UFX_HD int sync_count(P pred, int line = __builtin_LINE()) const {
    return sync_pred<detail::barrier_kind::count>(pred, line);
  }
  /// cuda.syncthreads_and(pred): a sync() that returns whether pred is true in every thread of the block.
  template <class P>
  UFX_HD bool sync_and(P pred, int line = __builtin_LINE()) const {
    return sync_pred<detail::barrier_kind::all>(pred, line) != 0;
  }
  /// cuda.syncthreads_or(pred): a sync() that returns whether pred is true in some thread of the block.
  template <class P>
  UFX_HD bool sync_or(P pred, int line = __builtin_LINE()) const {
    return sync_pred<detail::barrier_kind::any>(pred, line) != 0;
  }

private:
  friend struct detail::thread_access;

  template <detail::warp_kind K, class P>
  UFX_HD bool vote_pred(unsigned mask, P pred, int line) const {
    static_assert(std::is_integral_v<P>, UFX_VOTE_PREDICATE_MESSAGE);
    return detail::thread_ops::vote<K>(block_, mask, pred != 0, line);
  }
  template <detail::barrier_kind K, class P>
  UFX_HD int sync_pred(P pred, int line) const {
    static_assert(std::is_integral_v<P>, UFX_SYNC_PREDICATE_MESSAGE);
    return detail::thread_ops::sync_predicate<K>(block_, pred != 0, line);
  }

  detail::thread_pos pos_{};                 // host runs only (a GPU reads its built-in variables)
  detail::sim_block* block_ = nullptr;       // host runs only
  detail::sim_block_state* state_ = nullptr; // host runs only: shared-access checks
  unsigned char* static_shared_ = nullptr;   // the block's static shared arrays
  unsigned char* dynamic_shared_ = nullptr;  // the launch's dynamic shared memory
  std::size_t dynamic_bytes_ = 0;            // the launch's shared_bytes
};

/// cuda.threadfence(): orders this thread's memory accesses before the fence before those after it,
/// as seen by every thread of the device (__threadfence(); on the host a sequentially consistent fence).
UFX_HD inline void threadfence() { detail::thread_ops::fence<1>(); }
/// cuda.threadfence_block(): the same, as seen by the threads of this block (__threadfence_block()).
UFX_HD inline void threadfence_block() { detail::thread_ops::fence<0>(); }
/// cuda.threadfence_system(): the same, as seen by the host and other devices too (__threadfence_system()).
UFX_HD inline void threadfence_system() { detail::thread_ops::fence<2>(); }

namespace detail {
/// How ufx's launchers make and read a `thread` (its members are not the kernel body's business).
struct thread_access {
  /// A thread with its block's shared memory; the host block runner (src/sim/) also gives its position, the block and
  /// the block's check state, which a GPU's thread does without.
  UFX_HD static thread make(unsigned char* static_shared, unsigned char* dynamic_shared, std::size_t dynamic_bytes,
                            const thread_pos& p = {}, sim_block* block = nullptr, sim_block_state* state = nullptr) {
    thread t;
    t.pos_ = p;
    t.block_ = block;
    t.state_ = state;
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
/// start undefined, as on a GPU. The sim reports reads of elements no thread of the block has
/// written, for elements of 4 bytes or more and bool (kernels.md, "What the sim checks").
template <class A>
class shared {
  using decl = detail::shared_decl<A>;
  static_assert(decl::valid, "ufx::shared<A>: A is an array type: T[N], T[N][M], T[N][M][K] or T[] (sized by the "
                             "launch's shared_bytes)");

public:
  /// The element type: T of `T[N]...`.
  using element_type = typename decl::element;
  static_assert(std::is_trivially_copyable_v<element_type> && std::is_trivially_default_constructible_v<element_type>,
                "ufx::shared<T[...]>: the element type must be trivially copyable and trivially default "
                "constructible (arithmetic, bool, plain structs), as CUDA's __shared__ arrays are");
  /// The number of dimensions: 1 to 3.
  static constexpr int rank = decl::rank;
  /// True for a `T[]` array, sized by the launch's shared_bytes.
  static constexpr bool dynamic = decl::dynamic;
  // Doxygen misreads this initialiser (the comma of is_same_v<...> ends the declaration), so it is
  // left out of the API reference; the class comment says what it means.
  /// \cond INTERNAL
  /// Whether the sim reports reads of this array's elements that no thread of the block has
  /// written: for elements of 4 bytes or more, and bool (kernels.md, "What the sim checks").
  static constexpr bool init_checked = sizeof(element_type) >= 4 || std::is_same_v<element_type, bool>;
  /// \endcond

  shared() = default;
  /// The array at `data`, with `first_extent` elements along its first dimension; `state` is the
  /// CPU block runner's state for its checks (null on a GPU). The launch makes these: a kernel body
  /// receives them.
  UFX_HD shared(element_type* data, index_t first_extent, detail::sim_block_state* state)
      : data_(data), first_(first_extent), state_(state) {}

  /// The element at (i, j, ...): one index per dimension, row-major.
  template <class... I>
  requires(sizeof...(I) == rank && (std::is_integral_v<I> && ...)) UFX_HD UFX_ALWAYS_INLINE element_type&
  operator()(I... i) const {
    const index_t idx[rank] = {static_cast<index_t>(i)...};
    const index_t ext[3] = {extent(0), extent(1), extent(2)};
    detail::thread_ops::check_shared_index(idx, ext); // the host block runner's checks; none on a GPU
    index_t off = 0;
    for (int k = 0; k < rank; ++k) off = off * extent(k) + idx[k];
    detail::thread_ops::log_shared(state_, data_ + off, sizeof(element_type), init_checked);
    return data_[off];
  }
  /// The element at i of a one-dimensional array.
  template <class I>
  requires(rank == 1 && std::is_integral_v<I>) UFX_HD element_type& operator[](I i) const { return (*this)(i); }

  /// The extent of dimension k (for a `T[]` array, the first is shared_bytes / sizeof(T)).
  UFX_HD index_t extent(int k) const { return k == 0 ? first_ : k == 1 ? decl::e1 : decl::e2; }
  /// The declared extent of dimension k (0 for the first of a `T[]` array, sized at launch).
  UFX_HD static constexpr index_t declared_extent(int k) { return k == 0 ? decl::e0 : k == 1 ? decl::e1 : decl::e2; }
  /// The number of elements: the product of the extents.
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

#undef UFX_SHFL_VALUE_MESSAGE
#undef UFX_VOTE_PREDICATE_MESSAGE
#undef UFX_MATCH_VALUE_MESSAGE
#undef UFX_SYNC_PREDICATE_MESSAGE
