#pragma once
// The CPU targets' reduction (ufx::serial on one thread; ufx::host splits the same work), walking the inputs in place.
//
// Reduced dimensions innermost (a full sum, axis 1 of a row-major matrix): each output is a pairwise tree over its
// positions, whose leaves are runs along the innermost reduced dimension summed by independent accumulators the
// compiler vectorises. A kept dimension innermost (axis 0 of a row-major matrix): whole rows of outputs are combined at
// a time (vectorised across outputs, memory read in order), in a pairwise tree over rows.
//
// Parallel work splits each tree at a fixed depth, combining nodes in tree order: bitwise equal for any thread count.
#include <algorithm>
#include <memory>
#include <vector>

#include "ufx/config.hpp"
#include "ufx/detail/core/loop.hpp"
#include "ufx/detail/body/reduce.hpp"
#include "ufx/detail/cpu/reduce_runs.hpp"
#include "ufx/detail/core/reduce_plan.hpp"
#include "ufx/detail/cpu/executor.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// Node `i` of depth `d` of a tree over [0, m) (`Tree` gives is_leaf and split). False when a leaf above depth d covers
/// this node's range and another index computes it.
template <class Tree>
bool tree_node(const Tree& t, index_t m, int d, index_t i, index_t& b, index_t& e) {
  b = 0;
  e = m;
  for (int level = 0; level < d; ++level) {
    if (t.is_leaf(b, e)) return (i & ((index_t{1} << (d - level)) - 1)) == 0;
    const index_t mid = t.split(b, e);
    if ((i >> (d - 1 - level)) & 1) b = mid;
    else e = mid;
  }
  return true;
}

/// The nodes of depth d of a tree over [b, e) (`part`, by index) combined as the tree combines them.
template <class Tree, class Kern, class Acc>
Acc tree_combine(const Tree& t, const Kern& k, const Acc* part, index_t b, index_t e, int level, int d,
                 index_t prefix) {
  if (level == d || t.is_leaf(b, e)) return part[prefix << (d - level)];
  const index_t mid = t.split(b, e);
  const Acc a = tree_combine(t, k, part, b, mid, level + 1, d, 2 * prefix);
  const Acc c = tree_combine(t, k, part, mid, e, level + 1, d, 2 * prefix + 1);
  return k.combine(a, c);
}

template <class Kern, int N, class OutE, class Fin>
struct cpu_reduction {
  using Acc = typename Kern::acc_type;
  const reduce_plan<N>& plan;
  const Kern& k;
  OutE* out;
  const Fin& fin;

  // ---- reduced dimensions innermost: a pairwise tree over each output's positions ----
  struct row_tree {
    index_t inner; // length of a run along the innermost reduced dimension
    UFX_HD bool is_leaf(index_t b, index_t e) const { return e - b <= inner && e - b <= reduce_leaf<Acc>; }
    UFX_HD index_t split(index_t b, index_t e) const {
      const index_t n = e - b;
      if (n > inner) return b + (n / inner / 2) * inner; // whole rows to each side
      index_t n2 = n / 2;
      return b + n2 - n2 % reduce_lanes<Acc>;
    }
  };

  struct inner_red {
    layout<N> rows; // the reduced dimensions but the innermost
    index_t str[N]; // innermost reduced strides
    bool unit;
    row_tree tree;
  };

  inner_red make_inner_red() const {
    inner_red r{};
    const layout<N>& red = plan.red;
    r.rows = red;
    r.rows.rank = red.rank > 0 ? red.rank - 1 : 0;
    r.tree.inner = red.rank > 0 ? red.shape[red.rank - 1] : 1;
    r.unit = true;
    for (int j = 0; j < N; ++j) {
      r.str[j] = red.rank > 0 ? red.stride[j][red.rank - 1] : 0;
      if (j > 0 && !(red.scalar_mask & (1u << j)) && r.str[j] != 1) r.unit = false;
    }
    return r;
  }

  Acc reduce_range(const inner_red& r, const index_t* base, index_t b, index_t e) const {
    if (r.tree.is_leaf(b, e)) {
      const index_t q = b / r.tree.inner, kk = b - q * r.tree.inner;
      index_t off[N];
      loop_offsets(r.rows, q, base, off);
      for (int j = 0; j < N; ++j) off[j] += kk * r.str[j];
      return cpu_runs(k).run(off + 1, r.str + 1, r.unit, e - b);
    }
    const index_t mid = r.tree.split(b, e);
    const Acc a = reduce_range(r, base, b, mid);
    const Acc c = reduce_range(r, base, mid, e);
    return k.combine(a, c);
  }

  template <class Exec>
  void run_inner_reduced(const Exec& exec, int d) const {
    const inner_red r = make_inner_red();
    const index_t n_out = plan.outputs(), m = plan.count();
    if (d == 0) {
      index_t kstr[N];
      for (int j = 0; j < N; ++j) kstr[j] = plan.kept.rank > 0 ? plan.kept.stride[j][plan.kept.rank - 1] : 0;
      exec(n_out, [&](index_t b, index_t e) {
        walk_rows(plan.kept, b, e, [&](const index_t(&off)[N], index_t n) {
          index_t base[N];
          for (index_t i = 0; i < n; ++i) {
            for (int j = 0; j < N; ++j) base[j] = off[j] + i * kstr[j];
            out[base[0]] = static_cast<OutE>(fin(reduce_range(r, base, 0, m)));
          }
        });
      });
      return;
    }
    const index_t nodes = index_t{1} << d;
    std::unique_ptr<Acc[]> part(new Acc[static_cast<std::size_t>(n_out * nodes)]);
    const index_t zero[N] = {};
    exec(n_out * nodes, [&](index_t b, index_t e) {
      for (index_t i = b; i < e; ++i) {
        const index_t o = i >> d;
        index_t nb, ne, base[N];
        if (!tree_node(r.tree, m, d, i & (nodes - 1), nb, ne)) continue;
        loop_offsets(plan.kept, o, zero, base);
        part[i] = reduce_range(r, base, nb, ne);
      }
    });
    for (index_t o = 0; o < n_out; ++o) {
      index_t base[N];
      loop_offsets(plan.kept, o, zero, base);
      out[base[0]] = static_cast<OutE>(fin(tree_combine(r.tree, k, part.get() + o * nodes, 0, m, 0, d, 0)));
    }
  }

  // ---- a kept dimension innermost: rows of outputs combined at a time ----
  struct vec_tree {
    UFX_HD bool is_leaf(index_t b, index_t e) const { return e - b <= 16; }
    UFX_HD index_t split(index_t b, index_t e) const { return b + (e - b) / 2; }
  };

  struct inner_kept {
    layout<N> outer; // the kept dimensions but the innermost
    index_t width;   // innermost kept extent
    index_t chunk;   // outputs combined at a time
    index_t chunks;  // chunks per row of outputs
    index_t str[N];  // innermost kept strides
    bool unit;
    int depth; // scratch rows a tree needs
  };

  inner_kept make_inner_kept() const {
    inner_kept v{};
    const layout<N>& kept = plan.kept;
    v.outer = kept;
    v.outer.rank = kept.rank - 1;
    v.width = kept.shape[kept.rank - 1];
    v.chunk = std::min<index_t>(v.width, std::max<index_t>(64, index_t{32768} / static_cast<index_t>(sizeof(Acc))));
    v.chunks = (v.width + v.chunk - 1) / v.chunk;
    v.unit = true;
    for (int j = 0; j < N; ++j) {
      v.str[j] = kept.stride[j][kept.rank - 1];
      if (j > 0 && !(kept.scalar_mask & (1u << j)) && v.str[j] != 1) v.unit = false;
    }
    v.depth = 1;
    for (index_t rows = plan.count(); rows > 16; rows = (rows + 1) / 2) ++v.depth;
    return v;
  }

  // dst[0..w) = the reduction of rows [b, e) of the outputs at `base`; scratch holds depth rows.
  void reduce_rows(const inner_kept& v, const index_t* base, index_t w, index_t b, index_t e, Acc* dst,
                   Acc* scratch) const {
    if (vec_tree{}.is_leaf(b, e)) {
      index_t off[N];
      for (index_t r = b; r < e; ++r) {
        loop_offsets(plan.red, r, base, off);
        if (r == b) cpu_runs(k).template row<true>(dst, off + 1, v.str + 1, v.unit, w);
        else cpu_runs(k).template row<false>(dst, off + 1, v.str + 1, v.unit, w);
      }
      return;
    }
    const index_t mid = vec_tree{}.split(b, e);
    reduce_rows(v, base, w, b, mid, dst, scratch);
    reduce_rows(v, base, w, mid, e, scratch, scratch + v.chunk);
    combine_rows(dst, scratch, w);
  }

  void combine_rows(Acc* __restrict dst, const Acc* __restrict src, index_t w) const {
    for (index_t j = 0; j < w; ++j) dst[j] = k.combine(dst[j], src[j]);
  }

  void block_base(const inner_kept& v, index_t blk, index_t* base, index_t& w) const {
    const index_t p = blk / v.chunks, c = blk - p * v.chunks;
    const index_t zero[N] = {};
    loop_offsets(v.outer, p, zero, base);
    for (int j = 0; j < N; ++j) base[j] += c * v.chunk * v.str[j];
    w = std::min(v.chunk, v.width - c * v.chunk);
  }

  void write_row(const inner_kept& v, const index_t* base, const Acc* src, index_t w) const {
    for (index_t j = 0; j < w; ++j) out[base[0] + j * v.str[0]] = static_cast<OutE>(fin(src[j]));
  }

  index_t merge_nodes(const inner_kept& v, Acc* part, index_t w, index_t b, index_t e, int level, int d,
                      index_t prefix) const {
    if (level == d || vec_tree{}.is_leaf(b, e)) return prefix << (d - level);
    const index_t mid = vec_tree{}.split(b, e);
    const index_t l = merge_nodes(v, part, w, b, mid, level + 1, d, 2 * prefix);
    const index_t r = merge_nodes(v, part, w, mid, e, level + 1, d, 2 * prefix + 1);
    combine_rows(part + l * v.chunk, part + r * v.chunk, w);
    return l;
  }

  template <class Exec>
  void run_inner_kept(const Exec& exec, int d) const {
    const inner_kept v = make_inner_kept();
    const index_t m = plan.count();
    const index_t blocks = plan.outputs() / v.width * v.chunks;
    const index_t nodes = index_t{1} << d;
    const std::size_t scratch_n = static_cast<std::size_t>((v.depth + 1) * v.chunk);
    std::unique_ptr<Acc[]> part(d > 0 ? new Acc[static_cast<std::size_t>(blocks * nodes * v.chunk)] : nullptr);
    exec(blocks * nodes, [&](index_t b, index_t e) {
      std::unique_ptr<Acc[]> scratch(new Acc[scratch_n]);
      for (index_t i = b; i < e; ++i) {
        index_t base[N], w, nb, ne;
        block_base(v, i >> d, base, w);
        if (!tree_node(vec_tree{}, m, d, i & (nodes - 1), nb, ne)) continue;
        Acc* dst = d > 0 ? part.get() + i * v.chunk : scratch.get();
        reduce_rows(v, base, w, nb, ne, dst, d > 0 ? scratch.get() : scratch.get() + v.chunk);
        if (d == 0) write_row(v, base, dst, w);
      }
    });
    if (d == 0) return;
    for (index_t blk = 0; blk < blocks; ++blk) {
      index_t base[N], w;
      block_base(v, blk, base, w);
      Acc* p = part.get() + blk * nodes * v.chunk;
      const index_t first = merge_nodes(v, p, w, 0, m, 0, d, 0);
      write_row(v, base, p + first * v.chunk, w);
    }
  }

  /// Tree depth at which parallel work splits: enough tasks for every thread, nodes still long.
  static int split_depth(index_t tasks, index_t m, index_t min_node, int threads) {
    int d = 0;
    while (tasks << d < 4 * static_cast<index_t>(threads) && (m >> (d + 1)) >= min_node) ++d;
    return d;
  }

  template <class Exec>
  void run(const Exec& exec) const {
    const int t = exec.threads();
    // small reductions on the calling thread (the same tree: the bits do not change)
    if (t > 1 && plan.outputs() * plan.count() < host_serial_cutoff) return run(cpu_executor{});
    if (plan.inner_kept) {
      const inner_kept v = make_inner_kept();
      run_inner_kept(exec, t > 1 ? split_depth(plan.outputs() / v.width * v.chunks, plan.count(), 64, t) : 0);
    } else {
      run_inner_reduced(exec, t > 1 ? split_depth(plan.outputs(), plan.count(), 4 * reduce_leaf<Acc>, t) : 0);
    }
  }

  /// Every output gets `value` (an empty reduction).
  template <class Res>
  void fill(const Res& value) const {
    walk_rows(plan.kept, 0, plan.outputs(), [&](const index_t(&off)[N], index_t n) {
      const index_t s = plan.kept.rank > 0 ? plan.kept.stride[0][plan.kept.rank - 1] : 0;
      for (index_t i = 0; i < n; ++i) out[off[0] + i * s] = static_cast<OutE>(value);
    });
  }
};

/// A full reduction of dense inputs (one unit-stride run of m >= 1 positions): the tree cpu_reduction builds for such a
/// plan (the same leaves, splits and nodes: bitwise the same result), without the plan, a small call's fixed cost.
template <class Exec, class Kern>
typename Kern::acc_type cpu_reduce_dense(const Exec& exec, const Kern& k, index_t m) {
  using Acc = typename Kern::acc_type;
  using R = cpu_reduction<Kern, 1, Acc, int>;
  const typename R::row_tree t{m};
  index_t str[Kern::N];
  for (int j = 0; j < Kern::N; ++j) str[j] = 1;
  auto range = [&](auto& self, index_t b, index_t e) -> Acc {
    if (t.is_leaf(b, e)) {
      index_t off[Kern::N];
      for (int j = 0; j < Kern::N; ++j) off[j] = b;
      return cpu_runs(k).run(off, str, true, e - b);
    }
    const index_t mid = t.split(b, e);
    const Acc a = self(self, b, mid);
    const Acc c = self(self, mid, e);
    return k.combine(a, c);
  };
  const int threads = exec.threads();
  const int d = threads > 1 && m >= host_serial_cutoff ? R::split_depth(1, m, 4 * reduce_leaf<Acc>, threads) : 0;
  if (d == 0) return range(range, 0, m);
  const index_t nodes = index_t{1} << d;
  std::unique_ptr<Acc[]> part(new Acc[static_cast<std::size_t>(nodes)]);
  exec(nodes, [&](index_t b, index_t e) {
    for (index_t i = b; i < e; ++i) {
      index_t nb, ne;
      if (tree_node(t, m, d, i, nb, ne)) part[i] = range(range, nb, ne);
    }
  });
  return tree_combine(t, k, part.get(), 0, m, 0, d, 0);
}

/// Runs a reduction plan on the CPU with executor `exec`. `out` is the output's data (host memory); `empty` is what
/// each output gets when nothing is reduced into it.
template <class Exec, class Kern, int N, class OutE, class Fin, class Res>
void cpu_reduce(const Exec& exec, const reduce_plan<N>& plan, const Kern& k, OutE* out, const Fin& fin,
                const Res& empty) {
  if (plan.outputs() == 0) return;
  const cpu_reduction<Kern, N, OutE, Fin> r{plan, k, out, fin};
  if (plan.count() == 0) return r.fill(empty);
  r.run(exec);
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
