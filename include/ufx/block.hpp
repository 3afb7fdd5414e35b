#pragma once
/// \file block.hpp
/// Block-wide collectives for raw kernels (kernel.hpp), after CUB's BlockReduce and BlockScan:
/// every thread of a block passes a value and gets the block's reduction or its prefix, computed
/// with warp shuffles and one shared element per warp.
///
///   auto k = ufx::kernel([] UFX_HD (const ufx::thread& t, ufx::shared<float[32]> scratch,
///                                   ufx::ndview<const float, 1> x, ufx::ndview<float, 1> out) {
///     const auto i = t.grid<1>();
///     const float v = i < x.extent(0) ? x(i) : 0.f;
///     const float s = ufx::block_reduce(t, scratch, v, [](float a, float b) { return a + b; });
///     if (t.thread_rank() == 0) out(t.block_idx().x) = s;   // every thread has s
///   });
///
/// Contract. Every thread of the block calls the collective (it has block-wide barriers, so it is
/// a t.sync() for the rules of divergence), with the same op. The scratch is a `ufx::shared<T[N]>`
/// with N >= 32 (one element per warp of the largest block); a collective may reuse it right after
/// another. `op(a, b)` combines two values, a from the lower threads; it must be associative (the
/// scans apply it in thread order, so it need not commute). The order of combination is fixed by
/// the block's size alone, the same on every target: a float sum gives the same bits on the sim
/// and on a GPU where the op itself does (nvcc may contract a user's a * b + c into an FMA).
/// T is trivially copyable and at most 64 bytes (it moves through shuffles).
#include <type_traits>

#include "ufx/config.hpp"
#include "ufx/thread.hpp"

namespace ufx {

namespace detail {
template <class T, class A>
inline constexpr bool block_scratch_ok = false;
template <class T, std::size_t N>
inline constexpr bool block_scratch_ok<T, T[N]> = N >= 32;

/// The lanes of this thread's warp that the block has.
UFX_HD inline unsigned block_warp_lanes(const thread& t) {
  const dim3 d = t.block_dim();
  const unsigned threads = d.x * d.y * d.z, base = t.warp_id() * 32;
  return threads - base >= 32 ? 0xffffffffu : (1u << (threads - base)) - 1u;
}

/// The static checks of the collectives' arguments.
template <class T, std::size_t N>
UFX_HD constexpr void check_block_arguments() {
  static_assert(block_scratch_ok<T, T[N]>, "ufx::block_reduce / block_scan / block_exclusive_scan: the scratch is a "
                                           "ufx::shared<T[N]> with N >= 32, one element per warp of the largest block");
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 64,
                "ufx::block_reduce / block_scan / block_exclusive_scan: the value must be trivially copyable and at "
                "most 64 bytes (it moves through warp shuffles)");
}

/// Reduces v over the first n lanes of the warp (lanes in `mask`); lane 0 gets the result.
template <class T, class Op>
UFX_HD T warp_reduce_first(const thread& t, unsigned mask, unsigned n, T v, const Op& op) {
  const unsigned lane = t.lane_id();
  for (unsigned d = 16; d >= 1; d /= 2) {
    // a lane whose partner is past n reads itself: no lane reads one outside the mask
    const T o = t.shfl_sync(mask, v, static_cast<int>(lane + d < n ? lane + d : lane));
    if (lane + d < n) v = op(v, o);
  }
  return v;
}

/// The inclusive scan of v over the first n lanes of the warp (lanes in `mask`).
template <class T, class Op>
UFX_HD T warp_scan(const thread& t, unsigned mask, T v, const Op& op) {
  const unsigned lane = t.lane_id();
  for (unsigned d = 1; d < 32; d *= 2) {
    const T o = t.shfl_sync(mask, v, static_cast<int>(lane >= d ? lane - d : lane));
    if (lane >= d) v = op(o, v);
  }
  return v;
}

/// The scan both ways: inclusive, and exclusive (`has_ex` false in thread 0, whose exclusive
/// prefix is empty).
template <class T>
struct scan_parts {
  T inclusive, exclusive;
  bool has_ex;
};

template <class T, std::size_t N, class Op>
UFX_HD scan_parts<T> block_scan_parts(const thread& t, shared<T[N]> scratch, T v, const Op& op) {
  const dim3 d = t.block_dim();
  const unsigned threads = d.x * d.y * d.z, warps = (threads + 31) / 32;
  const unsigned lane = t.lane_id(), warp = t.warp_id(), mask = block_warp_lanes(t);
  const T in_warp = warp_scan(t, mask, v, op);
  // this lane's exclusive prefix within the warp: the inclusive one of the lane below
  const T below = t.shfl_sync(mask, in_warp, static_cast<int>(lane > 0 ? lane - 1 : 0));
  const unsigned last = (threads - warp * 32 >= 32 ? 32 : threads - warp * 32) - 1;
  if (lane == last) scratch[warp] = in_warp;
  t.sync();
  if (warp == 0) { // warp 0 scans the warps' totals, each lane its own element
    T total = lane < warps ? scratch[lane] : in_warp;
    total = warp_scan(t, mask, total, op);
    if (lane < warps) scratch[lane] = total;
  }
  t.sync();
  scan_parts<T> r{in_warp, below, lane > 0};
  if (warp > 0) {
    const T before = scratch[warp - 1];
    r.inclusive = op(before, in_warp);
    r.exclusive = lane > 0 ? op(before, below) : before;
    r.has_ex = true;
  }
  t.sync(); // the scratch may be reused at once
  return r;
}
} // namespace detail

/// The reduction of every thread's v over the block, returned to every thread.
template <class T, std::size_t N, class Op>
UFX_HD T block_reduce(const thread& t, shared<T[N]> scratch, T v, const Op& op) {
  detail::check_block_arguments<T, N>();
  const dim3 d = t.block_dim();
  const unsigned threads = d.x * d.y * d.z, warps = (threads + 31) / 32;
  const unsigned lane = t.lane_id(), warp = t.warp_id(), mask = detail::block_warp_lanes(t);
  const unsigned n = threads - warp * 32 >= 32 ? 32 : threads - warp * 32;
  v = detail::warp_reduce_first(t, mask, n, v, op);
  if (lane == 0) scratch[warp] = v;
  t.sync();
  if (warp == 0) { // warp 0 reduces the warps' results; lane 0 reads and writes element 0 alone
    T w = lane < warps ? scratch[lane] : v;
    w = detail::warp_reduce_first(t, mask, warps, w, op);
    if (lane == 0) scratch[0] = w;
  }
  t.sync();
  const T r = scratch[0];
  t.sync(); // the scratch may be reused at once
  return r;
}

/// The inclusive scan over the block in thread order (thread_rank): thread k gets
/// op(v_0, op(v_1, ... v_k)).
template <class T, std::size_t N, class Op>
UFX_HD T block_scan(const thread& t, shared<T[N]> scratch, T v, const Op& op) {
  detail::check_block_arguments<T, N>();
  return detail::block_scan_parts(t, scratch, v, op).inclusive;
}

/// The exclusive scan over the block in thread order: thread 0 gets init, thread k > 0
/// op(init, op(v_0, ... v_{k-1})).
template <class T, std::size_t N, class Op>
UFX_HD T block_exclusive_scan(const thread& t, shared<T[N]> scratch, T v, const Op& op, T init) {
  detail::check_block_arguments<T, N>();
  const detail::scan_parts<T> p = detail::block_scan_parts(t, scratch, v, op);
  return p.has_ex ? op(init, p.exclusive) : init;
}

} // namespace ufx
