#pragma once
// The device targets' tiled reduction (ufx::sim and ufx::cuda, a block body through the launch seam), for a reduction
// whose inputs split into those constant along the reduced dimensions (the x side of KeOps's (n, 1) x (m) sums: one
// element per output) and those constant along the kept ones (the y side: one element per reduced position, the same
// for every output). A block owns a block of outputs, R per thread (tile_outputs_per_thread); its threads load a tile
// of the y side into shared memory together and each folds its R outputs over it, so each y element is read from memory
// once per block and from shared memory once per R outputs (8 at a time, in 16-byte loads on cuda where 8 elements are
// a multiple of 16 bytes). Two tile buffers: while the threads fold tile t they load tile t + 1, one barrier per tile.
//
// The fold order (docs/reduce.md, "What op may assume"): within a tile, runs of 8 positions are folded in order
// (seed(first), then combine(partial, x)), and the runs in order into the tile's partial; a thread's tile partials are
// combined as a binary counter (a pairwise tree over 2^levels tiles in registers: 256 tiles for accumulators of 4 bytes
// or less, 16 for larger), whose full trees are folded in order. A float sum's error grows with 8 + tile / 8 + levels +
// the number of 2^levels-tile trees, not with m. When the outputs alone are too few to fill the device, each output's
// tiles are split among `splits` blocks (grid.y), whose partials, a dense (splits, outputs) array (a warp's 32 outputs'
// partials side by side: one 128-byte store of floats, where (outputs, splits) took a sector a lane), are reduced by
// device_reduce's lanes.
#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "ufx/detail/device/reduce_policy.hpp"
#include "ufx/detail/device/thread.hpp"
#include "ufx/detail/body/map.hpp"
#include "ufx/detail/body/reduce.hpp"
#include "ufx/detail/core/reduce_plan.hpp"
#include "ufx/detail/core/testing.hpp"
#include "ufx/detail/core/tuple.hpp"
#include "ufx/errors.hpp"

namespace ufx::detail {

UFX_TU_NAMESPACE_BEGIN

/// Whether an input can be tiled: an array of plain elements, or a scalar (an index_acc, argmin / argmax's, is not).
template <class A, class E = acc_element<A>>
inline constexpr bool tile_ok =
    !std::is_same_v<A, index_acc> &&
    (!A::is_array || (std::is_trivially_copyable_v<E> && std::is_default_constructible_v<E>));

/// Whether a kernel can take the tiled path at all: two or three inputs (the fold is compiled once per assignment of
/// sides), each tile_ok. device_reduce_all compiles the tiled body only for these.
template <class Kern>
struct tileable : std::false_type {};
template <class Acc, class F, class Op, class... In>
struct tileable<reduce_body<Acc, F, Op, In...>>
    : std::bool_constant<(sizeof...(In) >= 2 && sizeof...(In) <= 3) && (tile_ok<In> && ...) &&
                         std::is_default_constructible_v<Acc>> {};

/// Outputs per thread of the tiled path (each y element read from shared memory serves them): 4, 2 or 1, the most whose
/// registers (each output's x-side elements and its tile counter) stay within 256 bytes.
template <class Kern>
struct tile_outputs_per_thread;
template <class Acc, class F, class Op, class... In>
struct tile_outputs_per_thread<reduce_body<Acc, F, Op, In...>> {
  static constexpr std::size_t per_output =
      (array_bytes<In> + ... + 0) + ((sizeof(Acc) <= 4 ? 8 : 4) + 1) * sizeof(Acc);
  static constexpr int value = 4 * per_output <= 256 ? 4 : 2 * per_output <= 256 ? 2 : 1;
};

/// Tile partials combined pairwise, for R outputs at once: level l holds the partial of 2^l tiles while bit l of
/// `count` is set; a tree of 2^levels tiles folds into `top`. Unrolled: constant indices, registers, no local memory.
template <class Acc, int Levels, int R = 1>
struct tile_counter {
  Acc level[R][Levels];
  Acc top[R];
  index_t count; // tiles pushed
  index_t tile;  // tiles folded by this block so far (the same in every thread)

  template <class Kern>
  UFX_HD void push(const Kern& k, Acc (&p)[R]) {
    bool carry = true;
    UFX_UNROLL
    for (int l = 0; l < Levels; ++l) {
      if (carry) {
        if ((count >> l) & 1) {
          UFX_UNROLL
          for (int r = 0; r < R; ++r) p[r] = k.combine(level[r][l], p[r]);
        } else {
          UFX_UNROLL
          for (int r = 0; r < R; ++r) level[r][l] = p[r];
          carry = false;
        }
      }
    }
    if (carry) {
      const bool full = (count >> Levels) > 0;
      UFX_UNROLL
      for (int r = 0; r < R; ++r) top[r] = full ? k.combine(top[r], p[r]) : p[r];
    }
    ++count;
  }
  template <class Kern>
  UFX_HD void push(const Kern& k, Acc p) {
    static_assert(R == 1);
    Acc one[1] = {p};
    push(k, one);
  }
  /// Output r's partials in order: the full trees, then the levels from the oldest (highest) down.
  template <class Kern>
  UFX_HD Acc total(const Kern& k, int r = 0) const {
    Acc t = top[r];
    bool have = (count >> Levels) > 0;
    UFX_UNROLL
    for (int l = Levels - 1; l >= 0; --l) {
      if ((count >> l) & 1) {
        t = have ? k.combine(t, level[r][l]) : level[r][l];
        have = true;
      }
    }
    return t;
  }
};

/// Where a tiled reduction's inputs are: bit j of `tiled` set for the y-side inputs (read in tiles), the byte offset of
/// input j's two tile buffers in shared memory, and each block's tiles.
template <int NK>
struct tile_plan {
  unsigned tiled = 0;
  index_t region[NK] = {};
  index_t tiles_per_split = 0; // tiles of each block (the last split may have fewer)
  int per_thread = 1;          // outputs per thread: 1, or tile_outputs_per_thread
};

/// How the fold reads an input, for output r of a thread's R and position j of a run of the tile: a scalar as it is; an
/// x-side element, one per output, held by value; a y-side element from the tile in shared memory (`tile_at`), or from
/// a run of 8 positions loaded at once (`tile_run`).
template <class V>
struct hold_scalar {
  V v;
  UFX_HD const V& at(int, index_t) const { return v; }
  UFX_HD const hold_scalar& run(index_t) const { return *this; }
  UFX_HD const hold_scalar& point(index_t) const { return *this; }
};
template <class E, int R>
struct hold_x {
  E v[R];
  UFX_HD const E& at(int r, index_t) const { return v[r]; }
  UFX_HD const hold_x& run(index_t) const { return *this; }
  UFX_HD const hold_x& point(index_t) const { return *this; }
};
/// A y-side element from the tile in shared memory; `a`, `region` and `offset` (the input's accessor, its tile
/// buffers' byte offset in shared memory, and p's) tell ufx::profile each read on the sim (the first output's: the
/// others' reads of the same element are the same load).
template <class E, class A>
struct tile_at {
  const E* p;
  A a;
  std::size_t region, offset;
  UFX_HD const E& at(int r, index_t j) const {
    if (r == 0) acc_shared_touch(a, region, offset + static_cast<std::size_t>(j) * sizeof(E), sizeof(E), false);
    return p[j];
  }
};
/// Whether cuda reads a run of 8 tile elements of type E in 16-byte shared loads.
template <class E>
inline constexpr bool tile_run_vector = 8 * sizeof(E) % 16 == 0 && 8 * sizeof(E) <= 128;

/// 8 consecutive tile elements. On cuda a run whose bytes are a multiple of 16 is read with 16-byte shared loads (the
/// run starts 16-byte aligned: tile buffers are, and 8 elements of such a size are); the values are the same either
/// way. The sim reads element by element and checks that alignment, so a change that broke it fails the tests here
/// instead of faulting on a GPU (cudaErrorMisalignedAddress).
template <class E>
struct alignas(8 * sizeof(E) % 16 == 0 ? 16 : alignof(E)) tile_run {
  E v[8];
  UFX_HD const E& at(int, index_t j) const { return v[j]; }
};
template <class E, class A = array_acc<const E>>
struct hold_y {
  const E* p;
  A a;                        // the input's accessor (ufx::profile, as tile_at's)
  std::size_t region, offset; // the tile buffers' byte offset in shared memory, and p's
  UFX_HD tile_run<E> run(index_t i) const {
    // the loads cuda makes: 16 bytes at a time for a vector run, else element by element
    constexpr std::size_t chunk = tile_run_vector<E> ? 16 : sizeof(E);
    UFX_UNROLL
    for (std::size_t c = 0; c < 8 * sizeof(E) / chunk; ++c)
      acc_shared_touch(a, region, offset + static_cast<std::size_t>(i) * sizeof(E) + c * chunk, chunk, false);
#ifdef __CUDA_ARCH__
    constexpr bool vector = tile_run_vector<E>;
#else
    constexpr bool vector = false;
    if constexpr (tile_run_vector<E>) {
      if (const auto a = reinterpret_cast<std::uintptr_t>(p + i); a % 16 != 0)
        throw kernel_error("ufx: the tiled reduction's run of 8 tile elements of " + std::to_string(sizeof(E)) +
                           " bytes at position " + std::to_string(i) + " starts " + std::to_string(a % 16) +
                           " bytes past a 16-byte boundary, which ufx::cuda reads in 16-byte loads (a ufx bug: "
                           "please report it)");
    }
#endif
    if constexpr (vector) return *reinterpret_cast<const tile_run<E>*>(p + i);
    else {
      tile_run<E> r;
      UFX_UNROLL
      for (int j = 0; j < 8; ++j) r.v[j] = p[i + j];
      return r;
    }
  }
  UFX_HD tile_at<E, A> point(index_t i) const {
    return {p + i, a, region, offset + static_cast<std::size_t>(i) * sizeof(E)};
  }
};

/// The block body: phase 0 loads the block's first tile; phase 1 loads the next tile (if any) and folds the current
/// one, until the block's tiles are done, then writes the outputs (fin(result), or this split's partial). Each thread
/// owns R outputs, b apart (b threads per block): a block owns R * b consecutive outputs, and each y element a thread
/// reads from the tile serves R outputs. Each output's fold is the same for every R, so R changes no result.
template <class Kern, int N, class OutA, class PartA, class Fin, int R = 1>
struct tiled_reduce_body {
  using Acc = typename Kern::acc_type;
  static constexpr int levels = sizeof(Acc) <= 4 ? 8 : 4;
  using state_type = tile_counter<Acc, levels, R>;
  static constexpr int NK = N - 1; // kernel inputs (operand j + 1 of the plan)

  layout<N> kept, red;
  Kern k;
  OutA out; // the target's accessors (acc_for: ufx::sim's tell ufx::profile the stores)
  Fin fin;
  PartA partial;      // null: one split, write the outputs
  index_t outputs, m; // outputs, positions per output
  tile_plan<NK> tp;

  UFX_HD int step(const thread_pos& t, state_type& st, unsigned char* shared, int phase) const {
    const index_t b = t.block_dim.x, tx = t.thread_idx.x;
    const index_t first = static_cast<index_t>(t.block_idx.y) * tp.tiles_per_split;
    const index_t tiles = (m + b - 1) / b;
    const index_t mine = tiles - first < tp.tiles_per_split ? tiles - first : tp.tiles_per_split;
    if (phase == 0) {
      load(shared, first, 0, b, tx);
      return 1;
    }
    const index_t i = st.tile;
    if (i + 1 < mine) load(shared, first + i + 1, (i + 1) & 1, b, tx);
    const index_t s0 = static_cast<index_t>(t.block_idx.x) * b * R + tx; // output r: s0 + r * b
    if (s0 < outputs) {
      // x-side offsets of the thread's outputs; one past the last reads the first's (its fold is done and not written)
      index_t base[R][N];
      UFX_UNROLL
      for (int r = 0; r < R; ++r) loop_offsets(kept, s0 + r * b < outputs ? s0 + r * b : s0, base[r]);
      const index_t start = (first + i) * b;
      const index_t len = m - start < b ? m - start : b;
      fold(st, shared, base, (i & 1) * b, len, std::make_integer_sequence<unsigned, (1u << NK)>{});
    }
    st.tile = i + 1;
    if (st.tile < mine) return 1;
    UFX_UNROLL
    for (int r = 0; r < R; ++r) {
      const index_t s = s0 + r * b;
      if (s < outputs) {
        const Acc v = st.total(k, r);
        if (partial.p) partial.at(static_cast<index_t>(t.block_idx.y) * outputs + s) = v;
        else {
          index_t o[N];
          loop_offsets(kept, s, o);
          out.at(o[0]) = static_cast<acc_element<OutA>>(fin(v));
        }
      }
    }
    return -1;
  }

private:
  /// Thread tx stores position tile * b + tx of every tiled input in buffer `buf`.
  UFX_HD void load(unsigned char* shared, index_t tile, index_t buf, index_t b, index_t tx) const {
    const index_t p = tile * b + tx;
    if (p >= m) return;
    index_t off[N];
    loop_offsets(red, p, off);
    load_inputs(shared, off, buf * b + tx, std::make_index_sequence<NK>{});
  }
  template <std::size_t... J>
  UFX_HD void load_inputs(unsigned char* shared, const index_t* off, index_t slot, std::index_sequence<J...>) const {
    (
        [&] {
          using A = std::remove_cvref_t<decltype(get<J>(k.in))>;
          if constexpr (A::is_array) {
            using E = acc_element<A>;
            if ((tp.tiled >> J) & 1) {
              const auto& a = get<J>(k.in);
              acc_shared_touch(a, static_cast<std::size_t>(tp.region[J]),
                               static_cast<std::size_t>(tp.region[J] + slot * static_cast<index_t>(sizeof(E))),
                               sizeof(E), true);
              reinterpret_cast<E*>(shared + tp.region[J])[slot] = a.at(off[J + 1]);
            }
          }
        }(),
        ...);
  }

  /// Bit j set: input j is an array (may be read in tiles).
  template <std::size_t... J>
  static constexpr unsigned array_bits(std::index_sequence<J...>) {
    return ((std::remove_cvref_t<decltype(get<J>(std::declval<const Kern&>().in))>::is_array ? 1u << J : 0u) | ... |
            0u);
  }
  static constexpr unsigned arrays = array_bits(std::make_index_sequence<NK>{});

  /// Input j as the fold holds it when the y-side inputs are the bits of M: its tile in buffer `at` (y side), its
  /// element for each of the thread's outputs (x side), or the scalar.
  template <unsigned M, std::size_t J>
  UFX_HD auto holder(unsigned char* shared, const index_t (&base)[R][N], index_t at) const {
    using A = std::remove_cvref_t<decltype(get<J>(k.in))>;
    if constexpr (!A::is_array)
      return hold_scalar<std::remove_cvref_t<decltype(get<J>(k.in).at(0))>>{get<J>(k.in).at(0)};
    else {
      using E = acc_element<A>;
      if constexpr ((M >> J) & 1)
        return hold_y<E, A>{reinterpret_cast<const E*>(shared + tp.region[J]) + at, get<J>(k.in),
                            static_cast<std::size_t>(tp.region[J]),
                            static_cast<std::size_t>(tp.region[J] + at * static_cast<index_t>(sizeof(E)))};
      else {
        hold_x<E, R> h;
        UFX_UNROLL
        for (int r = 0; r < R; ++r) h.v[r] = get<J>(k.in).at(base[r][J + 1]);
        return h;
      }
    }
  }
  template <unsigned M, std::size_t... J>
  UFX_HD void fold_sides(state_type& st, unsigned char* shared, const index_t (&base)[R][N], index_t at, index_t len,
                         std::index_sequence<J...>) const {
    fold_tile(st, len, holder<M, J>(shared, base, at)...);
  }
  /// The fold for the plan's sides (tp.tiled), one instantiation per possible assignment.
  template <unsigned... M>
  UFX_HD void fold(state_type& st, unsigned char* shared, const index_t (&base)[R][N], index_t at, index_t len,
                   std::integer_sequence<unsigned, M...>) const {
    (
        [&] {
          if constexpr (M != 0 && (M & ~arrays) == 0)
            if (tp.tiled == M) fold_sides<M>(st, shared, base, at, len, std::make_index_sequence<NK>{});
        }(),
        ...);
  }

  /// Each output's partial of one tile, pushed: the runs of 8 positions in order, then the positions left.
  template <class... H>
  UFX_HD void fold_tile(state_type& st, index_t len, const H&... h) const {
    constexpr int run = 8;
    Acc acc[R] = {}; // set by the first run, or by the positions left when there is none
    index_t i = 0;
    for (; i + run <= len; i += run) {
      Acc s[R];
      fold_span(s, std::integral_constant<int, run>{}, h.run(i)...);
      UFX_UNROLL
      for (int r = 0; r < R; ++r) acc[r] = i == 0 ? s[r] : k.combine(acc[r], s[r]);
    }
    if (i < len) {
      Acc s[R];
      fold_span(s, len - i, h.point(i)...);
      UFX_UNROLL
      for (int r = 0; r < R; ++r) acc[r] = len >= run ? k.combine(acc[r], s[r]) : s[r];
    }
    st.push(k, acc);
  }
  /// Each output's partial of positions [0, n) of a run or of the rest: seed(first), then combine(partial, x) in order;
  /// `n` is a compile-time constant for a run of 8 (unrolled).
  template <class Count, class... Rd>
  UFX_HD void fold_span(Acc (&s)[R], Count n, const Rd&... rd) const {
    UFX_UNROLL
    for (int r = 0; r < R; ++r) s[r] = k.seed(static_cast<Acc>(UFX_USER_CALL(k.f, rd.at(r, 0)...)));
    UFX_UNROLL
    for (index_t j = 1; j < n; ++j) {
      UFX_UNROLL
      for (int r = 0; r < R; ++r) s[r] = k.combine(s[r], static_cast<Acc>(UFX_USER_CALL(k.f, rd.at(r, j)...)));
    }
  }
};

/// Plans the tiled launch of `plan`: where its inputs are (`tp`) and the launch (`c`), when it applies. Returns false
/// (the caller takes the lanes) when the switch is off, the outputs are too few, an input is constant along neither the
/// reduced nor the kept dimensions, no input is read in tiles, or the tiles do not fit in shared memory.
template <class Kern, int N>
bool plan_tiled_reduce(const reduce_plan<N>& plan, const Kern& k, tile_plan<N - 1>& tp, launch_config& c) {
  static_assert(tileable<Kern>::value);
  constexpr int NK = Kern::N;
  const index_t outputs = plan.outputs(), m = plan.count();
  if (!testing().tiled_reduce.on() || outputs < device_reduce_policy::tile_min_outputs || m < 1) return false;
  auto zero_strides = [](const layout<N>& L, int j) {
    for (int d = 0; d < L.rank; ++d)
      if (L.stride[j][d] != 0) return false;
    return true;
  };
  // each array input: x side, y side (read in tiles), or neither (no tiling)
  index_t elem[NK] = {}; // element size of each y-side input
  bool split = true;
  unsigned tiled = 0;
  with_indices<NK>([&]<std::size_t... J>(std::index_sequence<J...>) {
    (
        [&] {
          using A = std::remove_cvref_t<decltype(get<J>(k.in))>;
          if constexpr (A::is_array) {
            constexpr int j = static_cast<int>(J) + 1;
            if (zero_strides(plan.red, j)) return;
            if (!zero_strides(plan.kept, j)) split = false;
            tiled |= 1u << J;
            elem[J] = static_cast<index_t>(sizeof(acc_element<A>));
          }
        }(),
        ...);
  });
  if (!split || tiled == 0) return false;
  auto place = [&](index_t b) { // two tile buffers per y-side input, each 16-byte aligned: tp.region; the bytes in all
    index_t at = 0;
    for (int j = 0; j < NK; ++j) tp.region[j] = std::exchange(at, at + (2 * b * elem[j] + 15) / 16 * 16);
    return at;
  };
  using policy = device_reduce_policy;
  index_t b = policy::tile_block, shared = 0;
  while ((shared = place(b)) > policy::tile_max_shared && b > 32) b /= 2;
  if (shared > policy::tile_max_shared) return false;
  // outputs per thread: as many as the registers allow where there are outputs for 4 full blocks (a block's outputs
  // past the last are computed and dropped: at most a quarter of the work)
  constexpr int per = tile_outputs_per_thread<Kern>::value;
  tp.per_thread =
      per > 1 && testing().tiled_outputs_per_thread.load(std::memory_order_relaxed) != 1 && outputs >= 4 * per * b ? per
                                                                                                                   : 1;
  const index_t out_blocks = (outputs + b * tp.per_thread - 1) / (b * tp.per_thread), tiles = (m + b - 1) / b;
  if (out_blocks > 2147483647) return false;
  tp.tiled = tiled;
  // splits (device_reduce_policy): threads in all, tiles each at least, their partials' bytes at most
  constexpr index_t threads = policy::tile_threads, min_tiles = policy::tile_min_tiles,
                    partial_bytes = policy::tile_partial_bytes;
  index_t splits =
      std::max<index_t>(1, std::min({threads / (out_blocks * b), (tiles + min_tiles - 1) / min_tiles, index_t{65535},
                                     partial_bytes / static_cast<index_t>(sizeof(typename Kern::acc_type)) / outputs}));
  tp.tiles_per_split = (tiles + splits - 1) / splits;
  splits = (tiles + tp.tiles_per_split - 1) / tp.tiles_per_split; // none empty
  c = launch_config{dim3(static_cast<unsigned>(out_blocks), static_cast<unsigned>(splits)),
                    dim3(static_cast<unsigned>(b)), static_cast<std::size_t>(shared)};
  return true;
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
