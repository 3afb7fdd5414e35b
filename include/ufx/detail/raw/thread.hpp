#pragma once
// What ufx/thread.hpp's types hold and call on the host: a thread's position, the part of a block run shared-array
// accesses read inline, the block runner's entry points (src/sim/), host_thread_ops (a thread's members on ufx::sim,
// ufx::serial and ufx::host; cuda_thread_ops on a GPU), and a `shared<A>` declaration's element type and extents.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ufx/config.hpp"
#include "ufx/launch_config.hpp"

namespace ufx::detail {
struct thread_pos {
  dim3 thread_idx, block_idx, block_dim, grid_dim;
  /// cuda.grid(1): the thread's index along x over the whole grid.
  UFX_HD index_t global_x() const {
    return static_cast<index_t>(block_idx.x) * static_cast<index_t>(block_dim.x) + static_cast<index_t>(thread_idx.x);
  }
  /// cuda.gridsize(1): threads along x over the whole grid (a grid-stride loop's step).
  UFX_HD index_t stride_x() const { return static_cast<index_t>(grid_dim.x) * static_cast<index_t>(block_dim.x); }
  /// The thread's index within its block, x fastest.
  UFX_HD unsigned rank() const { return thread_idx.x + block_dim.x * (thread_idx.y + block_dim.y * thread_idx.z); }
};

/// The part of a host block run (src/sim/) that shared-array accesses read inline: the block's shared memory and, per
/// byte, the thread's turn (segment) that last logged it (an access whose stamp is current costs one compare). While
/// ufx::profile traces the launch, `segment` has its top bit set, which no stamp has, so every access is logged.
struct sim_block_state {
  unsigned char* shared = nullptr;
  std::uint32_t* stamp = nullptr;
  std::uint32_t segment = 0;
  std::size_t bytes = 0; // the block's shared memory, static and dynamic
};
struct sim_block;

#if !defined(__CUDA_ARCH__)
/// The block a host thread is running (src/sim/ sets it around each block), or null: ufx's atomic functions tell its
/// checks of their updates (sim_atomic_begin).
inline thread_local sim_block_state* sim_current_block = nullptr;
#endif
/// A thread's logged access of an element (src/sim/block.hpp).
struct sim_access;
/// Before an atomic update of the `bytes` at p by the running thread of the block `state` runs: when p is the block's
/// shared memory or a tracked array's element (ufx::sim's kernel arguments), the thread's logged access becomes atomic
/// (src/sim/memory_checks.cpp); returns what sim_atomic_end takes. `reads`: the update reads the old value (every one
/// but atomic_exch), so an element nothing has written is an uninitialised read.
sim_access* sim_atomic_begin(sim_block_state* state, const void* p, std::size_t bytes, bool reads);
/// After it: the element's bytes now at p are the thread's atomic result, not a plain write.
void sim_atomic_end(sim_access* entry, const void* p);

/// t.sync() on the host: the calling fiber waits until every thread of its block arrives.
void sim_sync(sim_block* block, int line);

/// The barriers: sync(), those that also count or combine a predicate (Numba's syncthreads_count / _and / _or), and
/// grid_sync() (every thread of a cooperative launch).
enum class barrier_kind : unsigned char { sync, count, all, any, grid };
/// t.sync_count(pred) etc. on the host: sim_sync, then the count of true predicates in the block (all / any: 1 or 0).
int sim_sync_predicate(sim_block* block, int line, barrier_kind kind, bool pred);

/// The warp-level operations the block runner meets lanes at (thread.hpp's *_sync methods).
enum class warp_kind : unsigned char {
  syncwarp,
  shfl_idx,
  shfl_up,
  shfl_down,
  shfl_xor,
  all,
  any,
  eq,
  ballot,
  match_any,
  match_all,
  activemask
};
/// The largest value a shuffle moves, in 4-byte words (64 bytes).
inline constexpr int warp_words_max = 16;
/// A lane's part in a warp operation, on its fiber's stack while it waits for `mask`'s lanes; results are the runner's.
struct warp_call {
  warp_kind kind = warp_kind::syncwarp;
  unsigned mask = 0;
  unsigned arg = 0; // shfl_idx: the source lane; up / down: the delta; xor: the lane mask
  unsigned width = 32;
  int words = 0;     // the value's size in 4-byte words (shuffles, matches)
  int bytes = 0;     // and in bytes
  bool pred = false; // votes
  int line = 0;
  std::uint32_t value[warp_words_max] = {};
  std::uint32_t result[warp_words_max] = {};
  unsigned result_mask = 0;
  bool result_pred = false;
};
/// A warp operation on the host: the fiber waits until every lane its mask names (in the block) reaches one of the same
/// kind and mask, then each gets its result; naming a lane returned or waiting elsewhere is a kernel_error.
void sim_warp(sim_block* block, warp_call& call);
/// ufx::threadfence* on the host: a sequentially consistent fence (scope: 0 block, 1 device, 2 system).
void host_fence(int scope);

/// Logs a thread's first access to a shared element in a barrier interval. `init_checked`: a value left unchanged by
/// the thread's turn was read, not written (the type has no byte pattern a program plausibly writes over the runner's
/// fill: 4 bytes or more, or bool), so a read of an element the block never wrote is reported.
void sim_shared_log(sim_block_state* state, std::size_t offset, std::size_t bytes, bool init_checked = false);
/// Throws the out-of-range error of a shared-array access (the runner adds kernel, block, thread).
[[noreturn]] void sim_shared_out_of_range(int rank, const index_t* index, const index_t* extents);
struct thread_access;

/// What match_all_sync gives: the mask's lanes when all have the same value (else 0), and whether they do.
struct match_all_bits {
  unsigned mask;
  bool pred;
};

/// What ufx::thread's members do on the host block runner (ufx::sim, ufx::serial, ufx::host): the thread's position,
/// barriers and warp operations where its fiber meets the others (src/sim/warp.cpp), and the shared-array checks.
/// ufx/thread.hpp calls these through `thread_ops`, with the arguments cuda_thread_ops takes (and ignores).
struct host_thread_ops {
  static dim3 thread_idx(const thread_pos& p) { return p.thread_idx; }
  static dim3 block_idx(const thread_pos& p) { return p.block_idx; }
  static dim3 block_dim(const thread_pos& p) { return p.block_dim; }
  static dim3 grid_dim(const thread_pos& p) { return p.grid_dim; }

  static void sync(sim_block* b, int line) { sim_sync(b, line); }
  static void grid_sync(sim_block* b, int line) { sim_sync_predicate(b, line, barrier_kind::grid, false); }
  template <barrier_kind K>
  static int sync_predicate(sim_block* b, bool pred, int line) {
    return sim_sync_predicate(b, line, K, pred);
  }

  static unsigned lane_id(const thread_pos& p) { return p.rank() % 32; }
  /// The lanes reaching an activemask() on the same source line while the warp's others wait elsewhere or returned.
  static unsigned activemask(const thread_pos& p, sim_block* b, int line) {
    return meet(b, warp_kind::activemask, 1u << lane_id(p), line).result_mask;
  }
  static void syncwarp(sim_block* b, unsigned mask, int line) { meet(b, warp_kind::syncwarp, mask, line); }

  /// A shuffle of v: the runner moves its bytes, 4 at a time.
  template <class T>
  static T shuffle(sim_block* b, warp_kind k, unsigned mask, const T& v, unsigned arg, int width, int line) {
    const warp_call c = meet(b, k, mask, line, arg, width, &v, static_cast<int>(sizeof(T)));
    T r;
    std::memcpy(&r, c.result, sizeof(T));
    return r;
  }
  template <warp_kind K>
  static bool vote(sim_block* b, unsigned mask, bool pred, int line) {
    return meet(b, K, mask, line, 0, 32, nullptr, 0, pred).result_pred;
  }
  static unsigned ballot(sim_block* b, unsigned mask, bool pred, int line) {
    return meet(b, warp_kind::ballot, mask, line, 0, 32, nullptr, 0, pred).result_mask;
  }
  template <class T>
  static unsigned match_any(sim_block* b, unsigned mask, const T& v, int line) {
    return meet(b, warp_kind::match_any, mask, line, 0, 32, &v, static_cast<int>(sizeof(T))).result_mask;
  }
  template <class T>
  static match_all_bits match_all(sim_block* b, unsigned mask, const T& v, int line) {
    const warp_call c = meet(b, warp_kind::match_all, mask, line, 0, 32, &v, static_cast<int>(sizeof(T)));
    return {c.result_mask, c.result_pred};
  }

  template <int Scope>
  static void fence() {
    host_fence(Scope);
  }

  template <int Rank>
  static void check_shared_index(const index_t (&idx)[Rank], const index_t (&ext)[3]) {
    bool bad = false;
    for (int k = 0; k < Rank; ++k) bad |= idx[k] < 0 || idx[k] >= ext[k];
    if (bad) sim_shared_out_of_range(Rank, idx, ext);
  }
  /// sim_shared_log for the element at `p` unless logged already (`state`: null where the runner does not check).
  /// Always inlined into the access, so that sim_shared_log's return address is the access's site (ufx::profile).
  UFX_ALWAYS_INLINE static void log_shared(sim_block_state* state, const void* p, std::size_t bytes,
                                           bool init_checked) {
    if (!state) return;
    const auto byte = static_cast<std::size_t>(static_cast<const unsigned char*>(p) - state->shared);
    if (state->stamp[byte] != state->segment) sim_shared_log(state, byte, bytes, init_checked);
  }

  /// Meets the warp's other lanes at operation k (the runner fills in the result).
  static warp_call meet(sim_block* b, warp_kind k, unsigned mask, int line, unsigned arg = 0, int width = 32,
                        const void* value = nullptr, int bytes = 0, bool pred = false) {
    warp_call c;
    c.kind = k;
    c.mask = mask;
    c.line = line;
    c.arg = arg;
    c.width = static_cast<unsigned>(width);
    c.pred = pred;
    c.bytes = bytes;
    c.words = (bytes + 3) / 4;
    if (value) std::memcpy(c.value, value, static_cast<std::size_t>(bytes));
    sim_warp(b, c);
    return c;
  }
};

/// The element type, rank and extents of a `shared<A>` declaration: T[N], T[N][M] or T[N][M][K] (T may be an array
/// itself) or T[] (dynamic: its first extent is 0); extents past the rank are 1. Any other A is not `valid`.
template <class A>
struct shared_decl {
  static constexpr bool dynamic = std::is_unbounded_array_v<A>;
  static constexpr int rank = dynamic ? 1 : std::rank_v<A> < 3 ? static_cast<int>(std::rank_v<A>) : 3;
  static constexpr bool valid = rank > 0;
  template <int R, class T>
  using strip = std::conditional_t<(rank > R), std::remove_extent_t<T>, T>;
  using element = std::remove_extent_t<strip<1, strip<2, A>>>; // A less its first `rank` extents
  static constexpr index_t e0 = index_t(std::extent_v<A, 0>), e1 = rank > 1 ? index_t(std::extent_v<A, 1>) : 1;
  static constexpr index_t e2 = rank > 2 ? index_t(std::extent_v<A, 2>) : 1;
};
} // namespace ufx::detail
