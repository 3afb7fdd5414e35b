#pragma once
// The CPU targets' inclusive scan (ufx::serial; ufx::host splits the same work): along the axis innermost in memory,
// each line in order; else (axis 0 of a row-major matrix) a row of lines at a time, vectorised.
#include <algorithm>
#include <memory>

#include "ufx/config.hpp"
#include "ufx/detail/core/loop.hpp"
#include "ufx/detail/body/reduce.hpp"
#include "ufx/detail/cpu/reduce_runs.hpp"
#include "ufx/detail/core/reduce_plan.hpp"
#include "ufx/detail/cpu/reduce.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <class Kern, int N, class OutE>
struct cpu_scan {
  using Acc = typename Kern::acc_type;
  const scan_plan<N>& plan;
  const Kern& k;
  OutE* out;

  // positions [b, e) of the line at `base`; `acc` carries in (has_acc) and out
  void line(const index_t* base, index_t b, index_t e, Acc& acc, bool has_acc) const {
    index_t off[N];
    for (index_t t = b; t < e; ++t) {
      for (int j = 0; j < N; ++j) off[j] = base[j] + t * plan.str[j];
      const Acc v = k.at(off + 1);
      acc = (t == b && !has_acc) ? v : k.combine(acc, v);
      out[off[0]] = static_cast<OutE>(acc);
    }
  }

  template <class Exec>
  void run_lines(const Exec& exec) const {
    const layout<N>& L = plan.lines;
    index_t lstr[N];
    for (int j = 0; j < N; ++j) lstr[j] = L.rank > 0 ? L.stride[j][L.rank - 1] : 0;
    exec(plan.count(), [&](index_t b, index_t e) {
      walk_rows(L, b, e, [&](const index_t(&off)[N], index_t n) {
        index_t base[N];
        for (index_t i = 0; i < n; ++i) {
          for (int j = 0; j < N; ++j) base[j] = off[j] + i * lstr[j];
          Acc acc{};
          line(base, 0, plan.len, acc, false);
        }
      });
    });
  }

  // Few long lines: each line in blocks; block totals first, then each block scans from the total of those before it.
  template <class Exec>
  void run_blocked(const Exec& exec, index_t blocks) const {
    const index_t n_lines = plan.count(), tasks = n_lines * blocks;
    std::unique_ptr<Acc[]> carry(new Acc[static_cast<std::size_t>(tasks)]);
    // task(i, blk, b, e, base) for task i: block blk, positions [b, e), of the line at `base`
    auto each = [&](const auto& task) {
      exec(tasks, [&](index_t b0, index_t e0) {
        const index_t zero[N] = {};
        for (index_t i = b0; i < e0; ++i) {
          const index_t l = i / blocks, blk = i - l * blocks;
          index_t base[N];
          loop_offsets(plan.lines, l, zero, base);
          task(i, blk, plan.len * blk / blocks, plan.len * (blk + 1) / blocks, base);
        }
      });
    };
    each([&](index_t i, index_t blk, index_t b, index_t e, const index_t* base) {
      if (blk == blocks - 1) return;
      index_t off[N];
      for (int j = 0; j < N; ++j) off[j] = base[j] + b * plan.str[j];
      carry[i] = cpu_runs(k).run(off + 1, plan.str + 1, plan.str[1] == 1, e - b);
    });
    for (index_t l = 0; l < n_lines; ++l) // carry[i] becomes the total of the blocks before block i+1
      for (index_t blk = 1; blk + 1 < blocks; ++blk)
        carry[l * blocks + blk] = k.combine(carry[l * blocks + blk - 1], carry[l * blocks + blk]);
    each([&](index_t i, index_t blk, index_t b, index_t e, const index_t* base) {
      Acc acc = blk > 0 ? carry[i - 1] : Acc{};
      line(base, b, e, acc, blk > 0);
    });
  }

  template <class Exec>
  void run_rows(const Exec& exec) const {
    const layout<N>& L = plan.lines;
    layout<N> outer = L;
    outer.rank = L.rank - 1;
    const index_t width = L.shape[L.rank - 1];
    const index_t chunk =
        std::min<index_t>(width, std::max<index_t>(64, index_t{16384} / static_cast<index_t>(sizeof(Acc))));
    const index_t chunks = (width + chunk - 1) / chunk;
    index_t vstr[N];
    bool unit = true;
    for (int j = 0; j < N; ++j) {
      vstr[j] = L.stride[j][L.rank - 1];
      if (j > 0 && vstr[j] != 1) unit = false;
    }
    exec(plan.count() / width * chunks, [&](index_t b, index_t e) {
      std::unique_ptr<Acc[]> acc(new Acc[static_cast<std::size_t>(chunk)]);
      const index_t zero[N] = {};
      for (index_t blk = b; blk < e; ++blk) {
        const index_t p = blk / chunks, c = blk - p * chunks;
        const index_t w = std::min(chunk, width - c * chunk);
        index_t base[N], off[N];
        loop_offsets(outer, p, zero, base);
        for (int j = 0; j < N; ++j) base[j] += c * chunk * vstr[j];
        for (index_t t = 0; t < plan.len; ++t) {
          for (int j = 0; j < N; ++j) off[j] = base[j] + t * plan.str[j];
          if (t == 0) cpu_runs(k).template row<true>(acc.get(), off + 1, vstr + 1, unit, w);
          else cpu_runs(k).template row<false>(acc.get(), off + 1, vstr + 1, unit, w);
          for (index_t j = 0; j < w; ++j) out[off[0] + j * vstr[0]] = static_cast<OutE>(acc[j]);
        }
      }
    });
  }
};

template <class Exec, class Kern, int N, class OutE>
void cpu_scan_run(const Exec& exec, const scan_plan<N>& plan, const Kern& k, OutE* out) {
  if (plan.count() == 0 || plan.len == 0) return;
  const cpu_scan<Kern, N, OutE> s{plan, k, out};
  const index_t threads = exec.threads();
  if (plan.inner_lines) s.run_rows(exec);
  else if (threads > 1 && plan.count() < 2 * threads && plan.len >= (index_t{1} << 16))
    s.run_blocked(exec, 4 * threads);
  else s.run_lines(exec);
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
