#pragma once
// The device targets' row reduction (ufx::sim and ufx::cuda, through the launch seam as a block body): for a reduction
// along one axis whose array inputs each step by 1 along it (each output reads a contiguous row: axis 1 of a row-major
// matrix, the last axis in general) or by 0 (an input broadcast along the row). A group of G threads owns one output (G
// a power of two up to a block of 256; a block holds 256 / G rows), so neighbouring threads read neighbouring memory
// and an output's elements are read once, with no partials in device memory and no second launch.
//
// The order (docs/reduce.md), the same on both targets: a row is cut into chunks of V consecutive positions (V = 16
// bytes over the widest array element, at least 1; the last chunk may be shorter); lane l of the group folds the chunks
// l, l + G, l + 2G, ..., each chunk in order (the first element seeds it, the next join on the right); it takes its
// full chunks four at a time (l, l + G, l + 2G, l + 3G, then the next four), combines each four's partials pairwise,
// (a0 + a1) + (a2 + a3), and pushes the result into a binary counter (pairwise trees of 2^levels pushes, as the tiled
// body's tiles: tile_counter); the full chunks left over (fewer than four) are pushed one by one, then the short last
// chunk, if this lane has it. The G lanes' partials are then combined as a tree in shared memory, lane l with lane l +
// h for h = G/2, ..., 2, 1. So a float sum's error grows with V + 2 + levels + log2(G) plus the number of full trees,
// not with the row's length, and a sum is bitwise the same on ufx::sim and ufx::cuda (a map may differ where nvcc
// contracts a multiply and an add into an FMA). On ufx::cuda and the sim a full chunk of an input that steps by 1 is
// one 16-byte load when the row starts on a multiple of the chunk's size (else element by element: the same values in
// the same order).
#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "ufx/detail/device/reduce_policy.hpp"
#include "ufx/detail/device/thread.hpp"
#include "ufx/detail/device/tiled_reduce.hpp"
#include "ufx/detail/body/map.hpp"
#include "ufx/detail/body/reduce.hpp"
#include "ufx/detail/core/reduce_plan.hpp"
#include "ufx/detail/core/testing.hpp"
#include "ufx/detail/core/tuple.hpp"

namespace ufx::detail {

UFX_TU_NAMESPACE_BEGIN

/// V consecutive elements of E, aligned to their size (one vector load on cuda).
template <class E, int V>
struct alignas(sizeof(E) * V) row_chunk {
  E v[V];
};

template <class Kern>
struct row_chunk_width;
template <class Acc, class F, class Op, class... In>
struct row_chunk_width<reduce_body<Acc, F, Op, In...>> {
  static constexpr std::size_t widest = std::max({std::size_t{1}, array_bytes<In>...});
  static constexpr int value = widest >= 16 ? 1 : static_cast<int>(16 / widest);
};

/// Whether a kernel can take the row path at all: its accumulator fits the shared-memory tree.
template <class Kern>
constexpr bool row_reducible() {
  using Acc = typename Kern::acc_type;
  return std::is_trivially_copyable_v<Acc> && std::is_default_constructible_v<Acc> && sizeof(Acc) <= 64;
}

inline constexpr index_t row_block = device_reduce_policy::row_block;

/// A row reduction's plan: each input's step along the row (arrays: 0 or 1), and G = 2^group_log2 threads per row.
template <int NK>
struct row_plan {
  index_t step_of[NK] = {};
  int group_log2 = 0;
};

template <class Kern, int N, class OutA, class Fin>
struct row_reduce_body {
  using Acc = typename Kern::acc_type;
  static constexpr int levels = sizeof(Acc) <= 4 ? 8 : 4;
  using state_type = tile_counter<Acc, levels>;
  static constexpr int NK = Kern::N;
  static constexpr int V = row_chunk_width<Kern>::value;

  layout<N> kept;
  Kern k;
  OutA out; // the target's accessor (acc_for: ufx::sim's tell ufx::profile the stores and the tree in shared memory)
  Fin fin;
  index_t outputs, m;
  row_plan<NK> rp;

  UFX_HD int step(const thread_pos& t, state_type& st, unsigned char* shared, int phase) const {
    const int g = rp.group_log2;
    const index_t G = index_t{1} << g;
    const index_t tx = t.thread_idx.x, lane = tx & (G - 1);
    const index_t s = static_cast<index_t>(t.block_idx.x) * (static_cast<index_t>(t.block_dim.x) >> g) + (tx >> g);
    Acc* part = reinterpret_cast<Acc*>(shared);
    const index_t chunks = (m + V - 1) / V;
    const index_t active = chunks < G ? chunks : G;
    if (phase == 0) {
      if (s < outputs && lane < active) {
        index_t base[N];
        loop_offsets(kept, s, base);
        fold_row(st, base, lane, G);
        const Acc r = st.total(k);
        if (G == 1) out.at(base[0]) = static_cast<acc_element<OutA>>(fin(r));
        else shared_put(part, tx, r);
      }
      return G == 1 ? -1 : 1;
    }
    const index_t h = G >> phase;
    // (the groups of rows past the last hold nothing: their slots were never written)
    if (s < outputs && lane < h && lane + h < active)
      shared_put(part, tx, k.combine(shared_get(part, tx), shared_get(part, tx + h)));
    if (h > 1) return phase + 1;
    if (s < outputs && lane == 0) {
      index_t base[N];
      loop_offsets(kept, s, base);
      out.at(base[0]) = static_cast<acc_element<OutA>>(fin(shared_get(part, tx)));
    }
    return -1;
  }

private:
  /// The partials' tree in shared memory, slot i (ufx::profile: the output's region, at byte 0).
  UFX_HD const Acc& shared_get(const Acc* part, index_t i) const {
    acc_shared_touch(out, 0, static_cast<std::size_t>(i) * sizeof(Acc), sizeof(Acc), false);
    return part[i];
  }
  UFX_HD void shared_put(Acc* part, index_t i, const Acc& v) const {
    acc_shared_touch(out, 0, static_cast<std::size_t>(i) * sizeof(Acc), sizeof(Acc), true);
    part[i] = v;
  }

  template <std::size_t J>
  using input_t = std::remove_cvref_t<decltype(get<J>(std::declval<const Kern&>().in))>;

  /// Input J read element by element from offset `off`, stepping by its step along the row.
  template <std::size_t J>
  struct direct {
    const row_reduce_body* b;
    index_t off;
    UFX_HD decltype(auto) at(int i) const { return get<J>(b->k.in).at(off + i * b->rp.step_of[J]); }
  };
  /// A chunk loaded at once (one vector load on cuda).
  template <class E>
  struct loaded {
    row_chunk<E, V> c;
    UFX_HD const E& at(int i) const { return c.v[i]; }
  };

  /// Whether input J can be read in vector loads on cuda: an array whose chunk is a power of two of at most 16 bytes
  /// (it then must step by 1 and start each row aligned: vector_row).
  template <std::size_t J>
  static constexpr bool vector_input() {
    using R = input_t<J>;
    if constexpr (!R::is_array || V == 1) return false;
    else {
      constexpr std::size_t bytes = array_bytes<R> * V;
      return (bytes == 4 || bytes == 8 || bytes == 16) && std::is_trivially_copyable_v<acc_element<R>>;
    }
  }

  template <bool Vec, std::size_t J>
  UFX_HD auto reader(const index_t* base, index_t p) const {
    if constexpr (Vec && vector_input<J>()) {
      using E = acc_element<input_t<J>>;
      return loaded<E>{acc_chunk<row_chunk<E, V>>(get<J>(k.in), base[J + 1] + p)};
    } else {
      return direct<J>{this, base[J + 1] + p * rp.step_of[J]};
    }
  }

  /// The chunk at position p: `len` positions (V for a full chunk) folded in order.
  template <bool Vec, std::size_t... J>
  UFX_HD Acc fold_chunk(const index_t* base, index_t p, int len, std::index_sequence<J...>) const {
    return [&](const auto&... r) {
      Acc a = k.seed(static_cast<Acc>(UFX_USER_CALL(k.f, r.at(0)...)));
      if (len == V) {
        UFX_UNROLL
        for (int i = 1; i < V; ++i) a = k.combine(a, static_cast<Acc>(UFX_USER_CALL(k.f, r.at(i)...)));
      } else {
        for (int i = 1; i < len; ++i) a = k.combine(a, static_cast<Acc>(UFX_USER_CALL(k.f, r.at(i)...)));
      }
      return a;
    }(reader<Vec, J>(base, p)...);
  }

  /// Lane `lane`'s chunks of the row at `base`, in the order the head comment gives: four full chunks' loads in flight
  /// together, and a push per 4V elements keeps the counter's cost off a load-bound loop.
  template <bool Vec>
  UFX_HD void fold_chunks(state_type& st, const index_t* base, index_t lane, index_t G) const {
    const auto seq = std::make_index_sequence<NK>{};
    const index_t full = m / V;
    index_t c = lane;
    for (; c + 3 * G < full; c += 4 * G) {
      const Acc a0 = fold_chunk<Vec>(base, c * V, V, seq), a1 = fold_chunk<Vec>(base, (c + G) * V, V, seq),
                a2 = fold_chunk<Vec>(base, (c + 2 * G) * V, V, seq),
                a3 = fold_chunk<Vec>(base, (c + 3 * G) * V, V, seq);
      st.push(k, k.combine(k.combine(a0, a1), k.combine(a2, a3)));
    }
    for (; c < full; c += G) st.push(k, fold_chunk<Vec>(base, c * V, V, seq));
    const int rest = static_cast<int>(m - full * V);
    if (rest > 0 && full % G == lane) st.push(k, fold_chunk<false>(base, full * V, rest, seq));
  }

  /// The lane's share of a row: in vector loads where every input allows them, on ufx::cuda and on the sim alike (the
  /// same elements in the same order, so the same result; ufx::profile then sees the sim read as cuda does: a row
  /// read element by element takes 16 sectors a request for 4 useful ones).
  UFX_HD void fold_row(state_type& st, const index_t* base, index_t lane, index_t G) const {
    if constexpr (any_vector_input(std::make_index_sequence<NK>{})) {
      if (vector_row(base, std::make_index_sequence<NK>{})) return fold_chunks<true>(st, base, lane, G);
    }
    fold_chunks<false>(st, base, lane, G);
  }

  template <std::size_t... J>
  static constexpr bool any_vector_input(std::index_sequence<J...>) {
    return (vector_input<J>() || ...);
  }
  /// Every input that can be read in vector loads steps by 1 and starts this row on a multiple of its chunk's size.
  template <std::size_t... J>
  UFX_HD bool vector_row(const index_t* base, std::index_sequence<J...>) const {
    bool ok = true;
    (
        [&] {
          if constexpr (vector_input<J>()) {
            using E = acc_element<input_t<J>>;
            ok = ok && rp.step_of[J] == 1 &&
                 reinterpret_cast<std::uintptr_t>(get<J>(k.in).p + base[J + 1]) % sizeof(row_chunk<E, V>) == 0;
          }
        }(),
        ...);
    return ok;
  }
};

/// Plans the row launch of `plan` (`rp`, `c`), when it applies. Returns false (the caller takes the lanes) when the
/// switch is off, the reduction is not along one axis, an array input steps along it by other than 0 or 1 (or none by
/// 1), or the rows are long (G = 256) but fewer than 512: the lanes split each of few long rows among more threads.
template <class Kern, int N>
bool plan_row_reduce(const reduce_plan<N>& plan, const Kern& k, row_plan<Kern::N>& rp, launch_config& c) {
  if constexpr (!row_reducible<Kern>()) {
    (void)plan, (void)k, (void)rp, (void)c;
    return false;
  } else {
    using Acc = typename Kern::acc_type;
    constexpr int NK = Kern::N;
    constexpr index_t V = row_chunk_width<Kern>::value;
    const index_t outputs = plan.outputs(), m = plan.count();
    if (!testing().row_reduce.on() || plan.red.rank != 1 || outputs < 1 || m < 1) return false;
    bool ok = true, unit = false;
    with_indices<NK>([&]<std::size_t... J>(std::index_sequence<J...>) {
      (
          [&] {
            const index_t s = plan.red.stride[J + 1][0];
            rp.step_of[J] = s;
            if constexpr (std::remove_cvref_t<decltype(get<J>(k.in))>::is_array) {
              if (s == 1) unit = true;
              else if (s != 0) ok = false;
            }
          }(),
          ...);
    });
    if (!ok || !unit) return false;
    const index_t chunks = (m + V - 1) / V;
    int g = 0;
    while ((index_t{1} << g) < chunks && (index_t{1} << g) < row_block) ++g;
    const index_t G = index_t{1} << g;
    if (G == row_block && outputs < 512) return false;
    const index_t blocks = (outputs + row_block / G - 1) / (row_block / G);
    if (blocks > 2147483647) return false;
    rp.group_log2 = g;
    c = launch_config{dim3(static_cast<unsigned>(blocks)), dim3(static_cast<unsigned>(row_block)),
                      G > 1 ? static_cast<std::size_t>(row_block) * sizeof(Acc) : 0};
    return true;
  }
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
