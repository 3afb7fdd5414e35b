#pragma once
// ufx::cuda's side of ufx::thread (ufx/thread.hpp) in device code: CUDA's built-in variables, barriers, warp intrinsics
// and fences. thread.hpp's members call `detail::thread_ops`: this struct in nvcc's device pass, host_thread_ops
// (raw/thread.hpp) elsewhere; both take the same arguments, and what only the host needs (the thread's position, its
// block in the runner, the source line) is ignored here. Every function is forced inline, so a kernel's code is what
// the intrinsics alone would give. Included by nvcc only (under __CUDACC__).
#include <cooperative_groups.h>

#include "ufx/config.hpp"
#include "ufx/detail/raw/thread.hpp"
#include "ufx/launch_config.hpp"

namespace ufx::detail {

struct cuda_thread_ops {
  __device__ __forceinline__ static dim3 thread_idx(const thread_pos&) {
    return dim3(threadIdx.x, threadIdx.y, threadIdx.z);
  }
  __device__ __forceinline__ static dim3 block_idx(const thread_pos&) {
    return dim3(blockIdx.x, blockIdx.y, blockIdx.z);
  }
  __device__ __forceinline__ static dim3 block_dim(const thread_pos&) {
    return dim3(blockDim.x, blockDim.y, blockDim.z);
  }
  __device__ __forceinline__ static dim3 grid_dim(const thread_pos&) { return dim3(gridDim.x, gridDim.y, gridDim.z); }

  __device__ __forceinline__ static void sync(sim_block*, int) { __syncthreads(); }
  /// A grid barrier outside a cooperative launch traps (the kernel fails with cudaErrorLaunchFailure).
  __device__ __forceinline__ static void grid_sync(sim_block*, int) {
    cooperative_groups::grid_group g = cooperative_groups::this_grid();
    if (!g.is_valid()) __trap();
    g.sync();
  }
  /// __syncthreads_count / _and / _or.
  template <barrier_kind K>
  __device__ __forceinline__ static int sync_predicate(sim_block*, bool pred, int) {
    if constexpr (K == barrier_kind::count) return __syncthreads_count(pred);
    else if constexpr (K == barrier_kind::all) return __syncthreads_and(pred);
    else return __syncthreads_or(pred);
  }

  __device__ __forceinline__ static unsigned lane_id(const thread_pos&) {
    unsigned l;
    asm("mov.u32 %0, %%laneid;" : "=r"(l));
    return l;
  }
  __device__ __forceinline__ static unsigned activemask(const thread_pos&, sim_block*, int) { return __activemask(); }
  __device__ __forceinline__ static void syncwarp(sim_block*, unsigned mask, int) { __syncwarp(mask); }

  /// A shuffle of v, 4 bytes at a time: one intrinsic per word (a 2-byte float16 or bfloat16 in the low half of one).
  /// Copied first: a memcpy straight from a reference into global memory reads it a byte at a time.
  template <class T>
  __device__ __forceinline__ static T shuffle(sim_block*, warp_kind k, unsigned mask, const T& v, unsigned arg,
                                              int width, int) {
    constexpr int words = static_cast<int>((sizeof(T) + 3) / 4);
    unsigned w[words] = {};
    const T value = v;
    memcpy(w, &value, sizeof(T));
    for (int i = 0; i < words; ++i) {
      if (k == warp_kind::shfl_idx) w[i] = __shfl_sync(mask, w[i], static_cast<int>(arg), width);
      else if (k == warp_kind::shfl_up) w[i] = __shfl_up_sync(mask, w[i], arg, width);
      else if (k == warp_kind::shfl_down) w[i] = __shfl_down_sync(mask, w[i], arg, width);
      else w[i] = __shfl_xor_sync(mask, w[i], static_cast<int>(arg), width);
    }
    T r;
    memcpy(&r, w, sizeof(T));
    return r;
  }
  /// __all_sync / __any_sync / __uni_sync.
  template <warp_kind K>
  __device__ __forceinline__ static bool vote(sim_block*, unsigned mask, bool pred, int) {
    if constexpr (K == warp_kind::all) return __all_sync(mask, pred) != 0;
    else if constexpr (K == warp_kind::any) return __any_sync(mask, pred) != 0;
    else return __uni_sync(mask, pred) != 0;
  }
  __device__ __forceinline__ static unsigned ballot(sim_block*, unsigned mask, bool pred, int) {
    return __ballot_sync(mask, pred);
  }
  template <class T>
  __device__ __forceinline__ static unsigned match_any(sim_block*, unsigned mask, const T& v, int) {
    return __match_any_sync(mask, match_bits(v));
  }
  template <class T>
  __device__ __forceinline__ static match_all_bits match_all(sim_block*, unsigned mask, const T& v, int) {
    int pred = 0;
    const unsigned m = __match_all_sync(mask, match_bits(v), &pred);
    return {m, pred != 0};
  }

  /// __threadfence_block (scope 0), __threadfence (1), __threadfence_system (2).
  template <int Scope>
  __device__ __forceinline__ static void fence() {
    if constexpr (Scope == 0) __threadfence_block();
    else if constexpr (Scope == 1) __threadfence();
    else __threadfence_system();
  }

  /// A shared array's accesses are not checked on a GPU.
  template <int Rank>
  __device__ __forceinline__ static void check_shared_index(const index_t (&)[Rank], const index_t (&)[3]) {}
  __device__ __forceinline__ static void log_shared(sim_block_state*, const void*, std::size_t, bool) {}

private:
  /// A 4- or 8-byte value's bits, as __match_*_sync take them.
  template <class T>
  __device__ __forceinline__ static auto match_bits(const T& v) {
    if constexpr (sizeof(T) == 4) {
      unsigned b;
      memcpy(&b, &v, 4);
      return b;
    } else {
      unsigned long long b;
      memcpy(&b, &v, 8);
      return b;
    }
  }
};

} // namespace ufx::detail
