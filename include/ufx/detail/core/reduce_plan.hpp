#pragma once
// Step 2 of a reduction: normalise the axes (NumPy's errors), work out the result's shape, and split the loop into kept
// dimensions (one output each) and reduced dimensions (combined into it). A scan's plan (scan_plan: one line per
// position of the other dimensions) is made the same way. Every target walks the same plans; it only decides how.
#include <cstdlib>
#include <string>
#include <utility>

#include "ufx/config.hpp"
#include "ufx/detail/core/broadcast.hpp"
#include "ufx/detail/core/loop.hpp"
#include "ufx/errors.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// Bit d set: loop dimension d is reduced. Throws NumPy's errors for bad or repeated axes.
inline unsigned reduced_mask(const int* axes, int n, int rank) {
  unsigned mask = 0;
  for (int i = 0; i < n; ++i) {
    int a = axes[i];
    if (a < -rank || a >= rank)
      fail<shape_error>("axis " + std::to_string(a) + " is out of bounds for array of dimension " +
                        std::to_string(rank));
    if (a < 0) a += rank;
    if (mask & (1u << a)) fail<shape_error>("duplicate value in 'axis'");
    mask |= 1u << a;
  }
  return mask;
}

/// The result's shape: reduced dimensions dropped, or kept as extent 1.
inline dims reduced_shape(const dims& loop, unsigned mask, bool keep) {
  dims r;
  for (int d = 0; d < loop.rank; ++d) {
    if (!(mask & (1u << d))) r[r.rank++] = loop[d];
    else if (keep) r[r.rank++] = 1;
  }
  return r;
}

/// Number of elements combined into each output (the product of the reduced extents).
inline index_t reduced_count(const dims& loop, unsigned mask) {
  index_t m = 1;
  for (int d = 0; d < loop.rank; ++d)
    if (mask & (1u << d)) m *= loop[d];
  return m;
}

/// Sets the output's strides (operand 0) in the full loop layout from its view: a view of the keepdims shape maps
/// dimension for dimension, one of the reduced shape onto the kept dimensions; reduced dimensions get stride 0.
template <int N, class View>
void set_output_strides(layout<N>& L, const View& v, unsigned mask) {
  constexpr int R = View::rank;
  for (int d = 0; d < L.rank; ++d) L.stride[0][d] = 0;
  if constexpr (R == 0) return; // a scalar result: every dimension is reduced
  if (R == L.rank) {
    for (int d = 0; d < R; ++d) L.stride[0][d] = (mask & (1u << d)) || v.extent(d) == 1 ? 0 : v.stride(d);
    return;
  }
  int j = 0;
  for (int d = 0; d < L.rank; ++d) {
    if (mask & (1u << d)) continue;
    if (j < R) L.stride[0][d] = v.extent(j) == 1 ? 0 : v.stride(j);
    ++j;
  }
}

/// Checks an `out` destination's shape against the reduced or the keepdims shape, in NumPy's words.
inline void check_reduce_output(const dims& out, const dims& result, const dims& keep_shape) {
  if (out == result || out == keep_shape) return;
  if (out.rank != result.rank && out.rank != keep_shape.rank)
    fail<shape_error>("output parameter for reduction operation has the wrong number of dimensions: Found " +
                      std::to_string(out.rank) + " but expected " + std::to_string(result.rank));
  fail<shape_error>("output parameter has shape " + format_shape(out) + " but the reduction's result has shape " +
                    format_shape(result));
}

/// A reduction as every target sees it. Operand 0 is the output (stride 0 along reduced dimensions), operands 1.. are
/// the inputs. `kept` enumerates outputs (outer to inner), `red` the positions combined into each output (outer to
/// inner, the innermost is the fastest in memory).
template <int N>
struct reduce_plan {
  layout<N> kept;
  layout<N> red;
  /// True when the innermost dimension in memory is kept (axis 0, row-major): CPU targets combine rows of outputs.
  bool inner_kept = false;

  index_t outputs() const { return kept.size(); }
  index_t count() const { return red.size(); }
};

namespace plan_impl {
template <int N>
void sort_and_merge(layout<N>& L, int primary) {
  auto key = [&](int d, int k) { return std::abs(L.stride[k][d]); };
  for (int i = 1; i < L.rank; ++i) // stable insertion sort, larger strides outside
    for (int j = i; j > 0; --j) {
      const bool less = key(j - 1, primary) < key(j, primary) ||
                        (key(j - 1, primary) == key(j, primary) && key(j - 1, 0) < key(j, 0));
      if (!less) break;
      std::swap(L.shape[j - 1], L.shape[j]);
      for (int k = 0; k < N; ++k) std::swap(L.stride[k][j - 1], L.stride[k][j]);
    }
  coalesce(L);
}
} // namespace plan_impl

/// Splits the full loop layout into kept and reduced dimensions: extent-1 dimensions dropped, each group ordered by
/// operand `primary`'s strides (the main input) and merged where every operand steps evenly, as NumPy's iterator does.
template <int N>
reduce_plan<N> make_reduce_plan(const layout<N>& full, unsigned mask, int primary) {
  reduce_plan<N> p;
  for (int d = 0; d < full.rank; ++d) {
    if (full.shape[d] == 1) continue;
    layout<N>& g = (mask & (1u << d)) ? p.red : p.kept;
    g.shape[g.rank] = full.shape[d];
    for (int k = 0; k < N; ++k) g.stride[k][g.rank] = full.stride[k][d];
    ++g.rank;
  }
  p.kept.scalar_mask = p.red.scalar_mask = full.scalar_mask;
  plan_impl::sort_and_merge(p.kept, primary);
  plan_impl::sort_and_merge(p.red, primary);
  if (p.kept.rank > 0 && p.red.rank > 0)
    p.inner_kept = std::abs(p.kept.stride[primary][p.kept.rank - 1]) < std::abs(p.red.stride[primary][p.red.rank - 1]);
  return p;
}

/// A scan as every target sees it: operand 0 is the output, operand 1 the input.
template <int N>
struct scan_plan {
  layout<N> lines; // the other dimensions, one line each (outer to inner)
  index_t len = 0; // extent along the axis
  index_t str[N] = {};
  bool inner_lines = false; // a line dimension is innermost in memory

  index_t count() const { return lines.size(); }
};

template <int N>
scan_plan<N> make_scan_plan(const layout<N>& full, int axis) {
  scan_plan<N> p;
  p.len = full.shape[axis];
  for (int k = 0; k < N; ++k) p.str[k] = full.stride[k][axis];
  unsigned others = 0;
  for (int d = 0; d < full.rank; ++d)
    if (d != axis) others |= 1u << d;
  const reduce_plan<N> r = make_reduce_plan(full, others, 1); // lines as the "reduced" group
  p.lines = r.red;
  p.inner_lines = p.lines.rank > 0 && std::abs(p.lines.stride[1][p.lines.rank - 1]) < std::abs(p.str[1]);
  return p;
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
