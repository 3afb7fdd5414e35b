#pragma once
// The device targets' tiled reduction (ufx::sim and ufx::cuda, through the launch seam as a block
// body): for a reduction whose inputs split into those constant along the reduced dimensions (the
// x side of KeOps's (n, 1) x (m) sums: one element per output) and those constant along the kept
// ones (the y side: one element per reduced position, the same for every output). A block of
// threads owns a block of outputs, one each; it loads a tile of the y side's elements into shared
// memory together (one element per thread and operand), and every thread folds its output over the
// tile, so each y element is read from memory once per block instead of once per output. Two tile
// buffers: while the threads fold tile t they load tile t + 1, one barrier per tile.
//
// The fold order (docs/reduce.md, "What op may assume": seed, then elements on the right, then
// partials combined): within a tile, blocks of 8 positions are folded in order (seed(first), then
// combine(partial, x)), and the blocks in order into the tile's partial; the tile partials of a
// thread are combined as a binary counter (a pairwise tree over 2^levels tiles, kept in registers:
// 256 tiles for accumulators of 4 bytes or less, 16 for larger ones), whose full trees are folded
// in order. A float sum's error grows with 8 + tile / 8 + levels + the
// number of 2^levels-tile trees, not with m. When the outputs alone are too few to fill the
// device, the tiles of each output are split among `splits` blocks (grid.y); their partials, a
// dense (outputs, splits) array, are reduced by device_reduce's lanes into the outputs.
#include <algorithm>
#include <atomic>
#include <type_traits>
#include <utility>

#include "ufx/detail/tuple.hpp"
#include "ufx/detail/device/launch.hpp"
#include "ufx/detail/map_kernel.hpp"
#include "ufx/detail/reduce_kernel.hpp"
#include "ufx/detail/reduce_plan.hpp"

namespace ufx::detail {

/// The tiled path's switch and launch counter, for tests and benchmarks (the per-lane path when
/// `enabled` is false).
struct tiled_reduce_control {
  std::atomic<bool> enabled{true};
  std::atomic<long> launches{0};
};
inline tiled_reduce_control& tiled_reduce_state() {
  static tiled_reduce_control c;
  return c;
}

UFX_TU_NAMESPACE_BEGIN

/// A y-side input as a thread reads it while folding a tile: the tile's element i, in shared
/// memory. (The x side is a scalar_acc of the thread's element: which inputs are which is a
/// template argument of the fold, so no element is chosen at run time and nvcc sees shared loads.)
template <class E>
struct tile_acc {
  const E* tile;
  UFX_HD const E& at(index_t i) const { return tile[i]; }
};

template <class A>
struct tile_input {
  static constexpr bool ok = false;
};
template <class T>
struct tile_input<array_acc<T>> {
  using element = std::remove_cv_t<T>;
  static constexpr bool ok = std::is_trivially_copyable_v<element> && std::is_default_constructible_v<element>;
  static constexpr bool is_array = true;
};
template <class V>
struct tile_input<scalar_acc<V>> {
  static constexpr bool ok = true;
  static constexpr bool is_array = false;
};

/// Whether a kernel can take the tiled path at all: two to three inputs (the x and the y side;
/// the fold is compiled once per assignment of sides), arrays of plain elements and scalars (no
/// index operand: argmin / argmax keep the lanes).
template <class Kern>
struct tileable : std::false_type {};
template <class Acc, class F, class Op, class... In>
struct tileable<reduce_kernel<Acc, F, Op, In...>>
    : std::bool_constant<(sizeof...(In) >= 2 && sizeof...(In) <= 3) && (tile_input<In>::ok && ...) &&
                         std::is_default_constructible_v<Acc>> {};

/// Tile partials combined pairwise: level l holds the partial of 2^l tiles while bit l of
/// `count` is set; a tree of 2^levels tiles is folded into `top`. Unrolled so every index is a
/// constant (registers on cuda, no local memory).
template <class Acc, int Levels>
struct tile_counter {
  Acc level[Levels];
  Acc top;
  index_t count; // tiles pushed
  index_t tile;  // tiles folded by this block so far (the same in every thread)

  template <class Kern>
  UFX_HD void push(const Kern& k, Acc p) {
    bool carry = true;
    UFX_UNROLL
    for (int l = 0; l < Levels; ++l) {
      if (carry) {
        if ((count >> l) & 1) {
          p = k.combine(level[l], p);
        } else {
          level[l] = p;
          carry = false;
        }
      }
    }
    if (carry) top = (count >> Levels) > 0 ? k.combine(top, p) : p;
    ++count;
  }
  /// The partials in order: the full trees, then the levels from the oldest (highest) down.
  template <class Kern>
  UFX_HD Acc total(const Kern& k) const {
    Acc r = top;
    bool have = (count >> Levels) > 0;
    UFX_UNROLL
    for (int l = Levels - 1; l >= 0; --l) {
      if ((count >> l) & 1) {
        r = have ? k.combine(r, level[l]) : level[l];
        have = true;
      }
    }
    return r;
  }
};

/// Where a tiled reduction's inputs are: bit j of `tiled` set for the y-side inputs (read in
/// tiles), the byte offset of input j's two tile buffers in shared memory, and each block's tiles.
template <int NK>
struct tile_plan {
  unsigned tiled = 0;
  index_t region[NK] = {};
  index_t tiles_per_split = 0; // tiles of each block (the last split may have fewer)
};

/// The block body: phase 0 loads the block's first tile; phase 1 loads the next tile (when there
/// is one) and folds the current one, until the block's tiles are done, then writes the outputs
/// (fin(result), or the partial of this split).
template <class Kern, int N, class OutE, class Fin>
struct tiled_reduce_body {
  using Acc = typename Kern::acc_type;
  static constexpr int levels = sizeof(Acc) <= 4 ? 8 : 4;
  using state_type = tile_counter<Acc, levels>;
  static constexpr int NK = N - 1; // kernel inputs (operand j + 1 of the plan)

  layout<N> kept, red;
  Kern k;
  OutE* out;
  Fin fin;
  Acc* partial;       // null: one split, write the outputs
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
    const index_t s = static_cast<index_t>(t.block_idx.x) * b + tx;
    index_t base[N];
    if (s < outputs) {
      loop_offsets(kept, s, base);
      const index_t start = (first + i) * b;
      const index_t len = m - start < b ? m - start : b;
      st.push(k, fold(shared, base, (i & 1) * b, len, std::make_integer_sequence<unsigned, (1u << NK)>{}));
    }
    st.tile = i + 1;
    if (st.tile < mine) return 1;
    if (s < outputs) {
      const Acc r = st.total(k);
      if (partial) partial[s * static_cast<index_t>(t.grid_dim.y) + t.block_idx.y] = r;
      else out[base[0]] = static_cast<OutE>(fin(r));
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
          if constexpr (tile_input<A>::is_array) {
            using E = typename tile_input<A>::element;
            if ((tp.tiled >> J) & 1) reinterpret_cast<E*>(shared + tp.region[J])[slot] = get<J>(k.in).at(off[J + 1]);
          }
        }(),
        ...);
  }

  /// Bit j set: input j is an array (may be read in tiles).
  template <std::size_t... J>
  static constexpr unsigned array_bits(std::index_sequence<J...>) {
    return (
        (tile_input<std::remove_cvref_t<decltype(get<J>(std::declval<const Kern&>().in))>>::is_array ? 1u << J : 0u) |
        ... | 0u);
  }
  static constexpr unsigned arrays = array_bits(std::make_index_sequence<NK>{});

  /// Input j as the fold reads it when the y-side inputs are the bits of M: its tile in buffer
  /// `at`, or its element at the output's offset (x side, held by value); scalars as they are.
  template <unsigned M, std::size_t J>
  UFX_HD auto reader(unsigned char* shared, const index_t* base, index_t at) const {
    using A = std::remove_cvref_t<decltype(get<J>(k.in))>;
    if constexpr (!tile_input<A>::is_array) return get<J>(k.in);
    else {
      using E = typename tile_input<A>::element;
      if constexpr ((M >> J) & 1) return tile_acc<E>{reinterpret_cast<const E*>(shared + tp.region[J]) + at};
      else return scalar_acc<E>{get<J>(k.in).at(base[J + 1])};
    }
  }
  template <unsigned M, std::size_t... J>
  UFX_HD Acc fold_sides(unsigned char* shared, const index_t* base, index_t at, index_t len,
                        std::index_sequence<J...>) const {
    return fold_tile(len, reader<M, J>(shared, base, at)...);
  }
  /// The fold for the plan's sides (tp.tiled), one instantiation per possible assignment.
  template <unsigned... M>
  UFX_HD Acc fold(unsigned char* shared, const index_t* base, index_t at, index_t len,
                  std::integer_sequence<unsigned, M...>) const {
    Acc r{};
    (
        [&] {
          if constexpr (M != 0 && (M & ~arrays) == 0)
            if (tp.tiled == M) r = fold_sides<M>(shared, base, at, len, std::make_index_sequence<NK>{});
        }(),
        ...);
    return r;
  }

  /// One thread's partial of one tile: blocks of 8 positions in order, the blocks in order.
  template <class... R>
  UFX_HD Acc fold_tile(index_t len, const R&... r) const {
    constexpr int block = 8;
    Acc acc{};
    index_t i = 0;
    for (; i + block <= len; i += block) {
      Acc v[block];
      UFX_UNROLL
      for (int j = 0; j < block; ++j) v[j] = static_cast<Acc>(UFX_USER_CALL(k.f, r.at(i + j)...));
      Acc s = k.seed(v[0]);
      UFX_UNROLL
      for (int j = 1; j < block; ++j) s = k.combine(s, v[j]);
      acc = i == 0 ? s : k.combine(acc, s);
    }
    if (i < len) {
      Acc s = k.seed(static_cast<Acc>(UFX_USER_CALL(k.f, r.at(i)...)));
      for (++i; i < len; ++i) s = k.combine(s, static_cast<Acc>(UFX_USER_CALL(k.f, r.at(i)...)));
      acc = len >= block ? k.combine(acc, s) : s;
    }
    return acc;
  }
};

/// Threads per block (= positions per tile) of the tiled path, and the outputs it needs at least:
/// fewer outputs keep the lanes, which split each output's positions among many threads.
inline constexpr index_t tile_block = 256;
inline constexpr index_t tile_min_outputs = 256;
/// Shared memory the tiled path may take per block (two tiles of every y-side input): within every
/// device's 48 KiB, leaving room for several blocks per multiprocessor.
inline constexpr index_t tile_max_shared = 24 << 10;

/// Plans the tiled launch of `plan`: where its inputs are (`tp`) and the launch (`c`), when it applies. Returns false
/// (the caller takes the lanes) when the switch is off, the outputs are too few, an input is constant along neither the
/// reduced nor the kept dimensions, no input is read in tiles, or the tiles do not fit in shared memory.
template <class Kern, int N>
bool plan_tiled_reduce(const reduce_plan<N>& plan, const Kern& k, tile_plan<N - 1>& tp, launch_config& c) {
  static_assert(tileable<Kern>::value);
  constexpr int NK = Kern::N;
  const index_t outputs = plan.outputs(), m = plan.count();
  if (!tiled_reduce_state().enabled.load(std::memory_order_relaxed) || outputs < tile_min_outputs || m < 1)
    return false;
  auto zero_strides = [](const layout<N>& L, int j) {
    for (int d = 0; d < L.rank; ++d)
      if (L.stride[j][d] != 0) return false;
    return true;
  };
  // each array input: x side (constant along the reduced dimensions: one element per output), or
  // y side (constant along the kept ones: read in tiles), else no tiling
  index_t elem[NK] = {}; // element size of each y-side input
  bool split = true;
  unsigned tiled = 0;
  with_indices<NK>([&]<std::size_t... J>(std::index_sequence<J...>) {
    (
        [&] {
          using A = std::remove_cvref_t<decltype(get<J>(k.in))>;
          if constexpr (tile_input<A>::is_array) {
            constexpr int j = static_cast<int>(J) + 1;
            if (zero_strides(plan.red, j)) return;
            if (!zero_strides(plan.kept, j)) split = false;
            tiled |= 1u << J;
            elem[J] = static_cast<index_t>(sizeof(typename tile_input<A>::element));
          }
        }(),
        ...);
  });
  if (!split || tiled == 0) return false;
  auto shared_bytes = [&](index_t b) { // two tile buffers per y-side input, each 16-byte aligned
    index_t bytes = 0;
    for (int j = 0; j < NK; ++j) bytes += (2 * b * elem[j] + 15) / 16 * 16;
    return bytes;
  };
  index_t b = tile_block;
  while (b > 32 && shared_bytes(b) > tile_max_shared) b /= 2;
  if (shared_bytes(b) > tile_max_shared) return false;
  const index_t out_blocks = (outputs + b - 1) / b, tiles = (m + b - 1) / b;
  if (out_blocks > 2147483647) return false;
  tp.tiled = tiled;
  index_t at = 0;
  for (int j = 0; j < NK; ++j) {
    tp.region[j] = at;
    at += (2 * b * elem[j] + 15) / 16 * 16;
  }
  // splits: about 2^17 threads in all, at least 4 tiles each
  constexpr index_t threads = index_t{1} << 17, min_tiles = 4;
  index_t splits =
      std::max<index_t>(1, std::min({threads / (out_blocks * b), (tiles + min_tiles - 1) / min_tiles, index_t{65535}}));
  tp.tiles_per_split = (tiles + splits - 1) / splits;
  splits = (tiles + tp.tiles_per_split - 1) / tp.tiles_per_split; // none empty
  c = launch_config{dim3(static_cast<unsigned>(out_blocks), static_cast<unsigned>(splits)),
                    dim3(static_cast<unsigned>(b)), static_cast<std::size_t>(at)};
  return true;
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
