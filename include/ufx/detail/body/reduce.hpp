#pragma once
// The reduction kernel every target runs: a map from the inputs' elements to an accumulator value, and the binary
// operator that combines two accumulators. The CPU targets run it through cpu/reduce_runs.hpp (a vectorisable leaf with
// independent accumulators, and rows of outputs); device targets call `lane_reduce`, one thread's share of one output.
//
// The fold (docs/reduce.md, "What op may assume"): a partial begins as seed(first element) and every later element x
// joins it as op(partial, x); partials are combined as op(partial, partial). seed(x) is op(identity, x) for a user's
// operator with an identity, so op never sees a raw element on its left; else x.
#include <cstring>
#include <type_traits>
#include <utility>

#include "ufx/config.hpp"
#include "ufx/detail/core/loop.hpp"
#include "ufx/detail/body/map.hpp"
#include "ufx/detail/core/reduce_ops.hpp"
#include "ufx/detail/core/reduce_plan.hpp"
#include "ufx/detail/core/tuple.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// An operand whose "element" is the loop position itself (argmin / argmax): at(o) is the offset, so with C-order
/// strides it is the flat index, with a unit stride along one axis the index there.
struct index_acc {
  using element_type = const index_t;
  static constexpr bool is_array = false;
  index_t base = 0;
  UFX_HD index_t at(index_t o) const { return base + o; }
};

/// The run of index_acc: positions, not elements (detail/body/map.hpp has the other run accessors).
struct index_run {
  index_t base, s;
  UFX_HD index_t at(index_t i) const { return base + i * s; }
  UFX_HD index_run skip(index_t n) const { return {base + n * s, s}; }
};
template <class U>
UFX_HD index_run run_of(const index_acc& a, index_t off, index_t s, U) {
  return {a.base + off, U::value ? 1 : s};
}

template <class Acc, class F, class Op, class... In>
struct reduce_body {
  using acc_type = Acc;
  static constexpr int N = sizeof...(In);
  F f;
  Op op;
  tuple<In...> in;
  /// The reduction's identity, when it has one (CUB's device reduce starts from it).
  Acc identity{};
  bool has_identity = false;

  UFX_HD Acc combine(const Acc& a, const Acc& b) const { return static_cast<Acc>(UFX_USER_CALL(op, a, b)); }

  /// The first accumulator of a partial, from the mapped value v of its first element.
  UFX_HD Acc seed(const Acc& v) const {
    if constexpr (seeds_with_elements<Op>) return v;
    else return has_identity ? combine(identity, v) : v;
  }

  /// The mapped value at per-input offsets `off[0..N)`.
  UFX_HD Acc at(const index_t* off) const { return at_impl(off, std::index_sequence_for<In...>{}); }

  /// Calls `fn(k, pointer, element_size)` for each array input (k counts inputs from 0).
  template <class Fn>
  void for_each_array(Fn&& fn) const {
    for_each_array_acc(in, fn);
  }

private:
  template <std::size_t... K>
  UFX_HD Acc at_impl(const index_t* off, std::index_sequence<K...>) const {
    return static_cast<Acc>(UFX_USER_CALL(f, get<K>(in).at(off[K])...));
  }
};

/// The identity map of an accumulator: a chunk's partials left unfinished where the call's finish is not plain
/// (unfinished).
template <class Acc>
struct pass_through {
  UFX_HD Acc operator()(const Acc& a) const { return a; }
};

/// The mapped value at position p of reduced layout `red`, from the output's base offsets.
template <class Kern, int N>
UFX_HD UFX_ALWAYS_INLINE typename Kern::acc_type value_at(const Kern& k, const layout<N>& red, const index_t* base,
                                                          index_t p) {
  index_t off[N];
  loop_offsets(red, p, off);
  UFX_UNROLL
  for (int j = 0; j < N; ++j) off[j] += base[j];
  return k.at(off + 1);
}

/// Reduces positions first, first + step, ... < m of reduced layout `red` for one output (device threads): blocks of 8
/// positions loaded together (8 loads in flight) and folded in order, groups of 8 blocks folded, the groups folded into
/// the total. The error grows with a 64th of the lane's length; no array is indexed at run time (no local memory).
template <class Kern, int N>
UFX_HD typename Kern::acc_type lane_reduce(const Kern& k, const layout<N>& red, const index_t* base, index_t first,
                                           index_t step, index_t m) {
  using Acc = typename Kern::acc_type;
  constexpr int block = 8, group = 8;
  Acc total{};
  bool have_total = false;
  index_t p = first;
  while (p < m) {
    Acc g{};
    for (int b = 0; b < group && p < m; ++b) {
      Acc s{};
      if (p + (block - 1) * step < m) {
        Acc v[block];
        UFX_UNROLL
        for (int j = 0; j < block; ++j) v[j] = value_at(k, red, base, p + j * step);
        s = k.seed(v[0]);
        UFX_UNROLL
        for (int j = 1; j < block; ++j) s = k.combine(s, v[j]);
        p += block * step;
      } else {
        s = k.seed(value_at(k, red, base, p));
        for (p += step; p < m; p += step) s = k.combine(s, value_at(k, red, base, p));
      }
      g = b == 0 ? s : k.combine(g, s);
    }
    total = have_total ? k.combine(total, g) : g;
    have_total = true;
  }
  return total;
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
