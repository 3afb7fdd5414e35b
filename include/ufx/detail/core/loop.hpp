#pragma once
// The one loop description every target walks: a shape and, per operand, a stride per dimension (in elements; 0 where
// the operand is broadcast). Targets only decide how to walk it.
#include <algorithm>
#include <array>
#include <cstdlib>

#include "ufx/detail/core/hooks.hpp"
#include "ufx/config.hpp"
#include "ufx/detail/core/broadcast.hpp"
#include "ufx/ndview.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <int N>
struct layout {
  int rank = 0;
  index_t shape[max_rank] = {};
  index_t stride[N][max_rank] = {};
  unsigned scalar_mask = 0; // operands held by value (stride 0 everywhere, no memory)

  UFX_HD index_t size() const {
    index_t n = 1;
    for (int d = 0; d < rank; ++d) n *= shape[d];
    return n;
  }
  /// True when every operand in the layout walks its innermost dimension with stride 1 (scalar operands are not in it).
  UFX_HD bool inner_unit() const {
    if (rank == 0) return true;
    for (int k = 0; k < N; ++k)
      if (!(scalar_mask & (1u << k)) && stride[k][rank - 1] != 1) return false;
    return true;
  }
};

/// A layout of `shape` for N operands, their strides to be set.
template <int N>
layout<N> layout_of(const dims& shape) {
  layout<N> L;
  L.rank = shape.rank;
  std::copy(shape.v, shape.v + shape.rank, L.shape);
  return L;
}

/// True when the view's elements fill [data, data + size) exactly, in some order of dimensions.
template <class T, int R>
bool is_dense(const ndview<T, R>& v) {
  int order[R == 0 ? 1 : R];
  int n = 0;
  for (int k = 0; k < R; ++k)
    if (v.extent(k) != 1) order[n++] = k;
  for (int i = 1; i < n; ++i) // insertion sort by stride: ranks are small
    for (int j = i; j > 0 && v.stride(order[j - 1]) > v.stride(order[j]); --j) std::swap(order[j - 1], order[j]);
  index_t s = 1;
  for (int i = 0; i < n; ++i) {
    if (v.stride(order[i]) != s) return false;
    s *= v.extent(order[i]);
  }
  return true;
}

/// Strides of a dense buffer laid out like `v` when `v` is dense (so one block copy moves it), else row-major.
template <class T, int R>
std::array<index_t, R> strides_like(const ndview<T, R>& v) {
  if (is_dense(v)) {
    std::array<index_t, R> s = v.strides();
    for (int k = 0; k < R; ++k)
      if (v.extent(k) == 1) s[k] = 0;
    return s;
  }
  std::array<index_t, R> s{};
  index_t acc = 1;
  for (int k = R - 1; k >= 0; --k) {
    s[k] = acc;
    acc *= v.extent(k);
  }
  return s;
}

/// Sets operand k's strides from its view, aligned right against the loop shape (0 where its extent is 1 or missing).
template <int N, class View>
void set_strides(layout<N>& L, int k, const View& v) {
  constexpr int R = View::rank;
  for (int d = 0; d < L.rank; ++d) L.stride[k][d] = 0;
  for (int j = 0; j < R; ++j) L.stride[k][L.rank - R + j] = v.extent(j) == 1 ? 0 : v.stride(j);
}

/// Operand k's strides: an array operand's view's, or none for a scalar operand (marked in scalar_mask).
template <int N, class Op>
void set_input_strides(layout<N>& L, int k, const Op& op) {
  if constexpr (requires { op.view; }) set_strides(L, k, op.view);
  else L.scalar_mask |= 1u << k;
}

/// Merges adjacent dimensions wherever every operand steps evenly across them, for as few and as long rows as possible.
template <int N>
void coalesce(layout<N>& L) {
  if (L.rank < 2) return;
  int w = 0;
  for (int d = 1; d < L.rank; ++d) {
    bool ok = true;
    for (int k = 0; k < N && ok; ++k) ok = L.stride[k][w] == L.stride[k][d] * L.shape[d];
    if (ok) L.shape[w] *= L.shape[d];
    else L.shape[++w] = L.shape[d];
    for (int k = 0; k < N; ++k) L.stride[k][w] = L.stride[k][d];
  }
  L.rank = w + 1;
}

/// Drops extent-1 dimensions, orders dimensions so operand 0 (an output) is walked in memory order, and merges
/// dimensions that are contiguous for every operand (as NumPy's iterator does).
template <int N>
void simplify(layout<N>& L) {
  if (L.size() == 0) return;
  int r = 0;
  for (int d = 0; d < L.rank; ++d) {
    if (L.shape[d] == 1) continue;
    L.shape[r] = L.shape[d];
    for (int k = 0; k < N; ++k) L.stride[k][r] = L.stride[k][d];
    ++r;
  }
  L.rank = r;
  // stable insertion sort: larger |stride of operand 0| outside
  for (int i = 1; i < L.rank; ++i) {
    for (int j = i; j > 0; --j) {
      const index_t a = std::abs(L.stride[0][j - 1]), b = std::abs(L.stride[0][j]);
      if (a >= b) break;
      std::swap(L.shape[j - 1], L.shape[j]);
      for (int k = 0; k < N; ++k) std::swap(L.stride[k][j - 1], L.stride[k][j]);
    }
  }
  coalesce(L);
}

/// Offsets (in elements) of linear loop index `i` of `L`, per operand: one body, two walks. `Unrolled` walks max_rank
/// dimensions with constant array indices only: a kernel never indexes its parameter's arrays at run time (nvcc would
/// copy the whole struct to local memory; the CUDA preset's ptx tests check it), and the host compiler unrolls it too,
/// which the sim's per-element lanes need (a loop over the rank made its small reductions 1.5-2x slower). Else it walks
/// L's rank from `base` (the CPU executors' rows; walk_rows also keeps per-dimension indices).
template <bool Unrolled, int N>
UFX_HD UFX_ALWAYS_INLINE void loop_offsets_walk(const layout<N>& L, index_t i, const index_t* base, index_t* off) {
  const int walked = Unrolled ? max_rank : L.rank;
  UFX_UNROLL
  for (int k = 0; k < N; ++k) {
    if constexpr (Unrolled) off[k] = 0;
    else off[k] = base[k];
  }
  if (L.rank == 1) {
    UFX_UNROLL
    for (int k = 0; k < N; ++k) off[k] += i * L.stride[k][0];
    return;
  }
  UFX_UNROLL
  for (int d = walked - 1; d >= 0; --d) {
    if (d < L.rank) {
      const index_t e = L.shape[d];
      const index_t q = i / e;
      const index_t idx = i - q * e;
      i = q;
      UFX_UNROLL
      for (int k = 0; k < N; ++k) off[k] += idx * L.stride[k][d];
    }
  }
}
/// The offsets of position `i`, from 0, walked unrolled (device bodies, the sim's lanes).
template <int N>
UFX_HD UFX_ALWAYS_INLINE void loop_offsets(const layout<N>& L, index_t i, index_t (&off)[N]) {
  loop_offsets_walk<true>(L, i, nullptr, off);
}
/// The offsets of position `i` added to `base`, walked over the layout's rank (CPU rows, scans).
template <int N>
UFX_HD UFX_ALWAYS_INLINE void loop_offsets(const layout<N>& L, index_t i, const index_t* base, index_t* off) {
  loop_offsets_walk<false>(L, i, base, off);
}

/// Runs kernel `k` over layout `L` on `tag`, once simplified: the target's `for_each` (its folder's for_each.hpp, found
/// where the call is instantiated; detail/backends.hpp).
template <class Tag, int N, class Kernel>
void run_on(const Tag& tag, layout<N>& L, const Kernel& k) {
  simplify(L);
  if (L.size() == 0) return;
  for_each_hook<Tag>::run(tag, L, k);
}

/// Walks loop indices [begin, end) row by row: `row(off, n)` gets each operand's offset at the start of a run of `n`
/// elements along the innermost dimension. Division only at the start.
template <int N, class Row>
void walk_rows(const layout<N>& L, index_t begin, index_t end, Row&& row) {
  if (begin >= end) return;
  if (L.rank == 0) {
    index_t off[N] = {};
    row(off, index_t{1});
    return;
  }
  const int r = L.rank;
  index_t idx[max_rank];
  index_t off[N] = {};
  {
    index_t i = begin;
    for (int d = r - 1; d >= 0; --d) {
      const index_t q = i / L.shape[d];
      idx[d] = i - q * L.shape[d];
      i = q;
      for (int k = 0; k < N; ++k) off[k] += idx[d] * L.stride[k][d];
    }
  }
  const index_t inner = L.shape[r - 1];
  while (begin < end) {
    const index_t n = std::min(inner - idx[r - 1], end - begin);
    row(off, n);
    begin += n;
    // advance to the next row: move the inner index to 0 and carry outward
    for (int k = 0; k < N; ++k) off[k] += n * L.stride[k][r - 1];
    idx[r - 1] += n;
    if (idx[r - 1] < inner) continue;
    for (int k = 0; k < N; ++k) off[k] -= inner * L.stride[k][r - 1];
    idx[r - 1] = 0;
    for (int d = r - 2; d >= 0; --d) {
      ++idx[d];
      for (int k = 0; k < N; ++k) off[k] += L.stride[k][d];
      if (idx[d] < L.shape[d]) break;
      for (int k = 0; k < N; ++k) off[k] -= L.shape[d] * L.stride[k][d];
      idx[d] = 0;
    }
  }
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
