#pragma once
// The reduction kernel every target runs: a map from the inputs' elements to an accumulator
// value, and the binary operator that combines two accumulators. Host targets call its runs
// (a vectorisable leaf with independent accumulators, and rows of outputs); device targets call
// `lane_reduce`, one thread's share of one output.
//
// The fold (docs/reduce.md, "What op may assume"): a partial begins as seed(first element) and
// every later element x joins it as op(partial, x); partials are combined as op(partial, partial).
// seed(x) is op(identity, x) for a user's operator with an identity, so op never sees a raw
// element on its left; x itself otherwise (ufx's ready operators, or no identity).
#include <cstring>
#include <type_traits>
#include <utility>

#include "ufx/config.hpp"
#include "ufx/detail/cpu/simd_leaf.hpp"
#include "ufx/detail/loop.hpp"
#include "ufx/detail/map_kernel.hpp"
#include "ufx/detail/reduce_ops.hpp"
#include "ufx/detail/reduce_plan.hpp"
#include "ufx/detail/tuple.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// An operand whose "element" is the loop position itself (argmin / argmax): at(o) is the offset,
/// so with C-order strides it is the flat index, with a unit stride along one axis the index there.
struct index_acc {
  using element_type = const index_t;
  static constexpr bool is_array = false;
  index_t base = 0;
  UFX_HD index_t at(index_t o) const { return base + o; }
};

// The CPU reduction asks for no memory ahead (no software prefetch): with the vector leaves
// (simd_leaf.hpp) a prefetch 8 KiB ahead made sums from DRAM 10-30% slower, on one thread and on
// two, at the baseline and with AVX-512, and axis-0 rows 5-9% slower (this project's 2-core EPYC);
// it had lifted the older scalar 32-accumulator leaf from 12-19 to 37-47 GB/s.

/// The run of index_acc: positions, not elements (map_kernel.hpp has the other run accessors).
struct index_run {
  index_t base, s;
  UFX_HD index_t at(index_t i) const { return base + i * s; }
  UFX_HD index_run skip(index_t n) const { return {base + n * s, s}; }
};
template <class U>
UFX_HD index_run run_of(const index_acc& a, index_t off, index_t s, U) {
  return {a.base + off, U::value ? 1 : s};
}

/// Independent accumulators per leaf: eight vector registers' worth, so the compiler keeps eight
/// independent add chains in flight (32 floats with SSE, 64 with AVX, 128 with AVX-512: fewer
/// chains left an AVX-512 leaf waiting on add latency, at 0.46 of an OpenMP `simd` loop's speed).
/// The pairwise order, and so the last bits of a float sum, depend on it (as NumPy's do).
template <class Acc>
inline constexpr int reduce_lanes = sizeof(Acc) <= 8 ? 8 * host_vector_bytes / static_cast<int>(sizeof(Acc)) : 8;
/// Elements per pairwise leaf: each accumulator sums 16 in sequence, as NumPy's pairwise sum does.
template <class Acc>
inline constexpr index_t reduce_leaf = 16 * reduce_lanes<Acc>;

template <class Acc, class F, class Op, class... In>
struct reduce_kernel {
  using acc_type = Acc;
  static constexpr int N = sizeof...(In);
  F f;
  Op op;
  tuple<In...> in;
  /// The reduction's identity, when it has one (CUB's device reduce starts from it).
  Acc identity{};
  bool has_identity = false;

  UFX_HD Acc combine(const Acc& a, const Acc& b) const { return static_cast<Acc>(UFX_USER_CALL(op, a, b)); }

  /// False when a partial begins with op(identity, x) for its first element x (a user's operator
  /// with an identity: op's left argument is then always an accumulator); true when it begins with
  /// x as it is. CUB's reduce, which combines elements pairwise, is only for the latter.
  UFX_HD bool seeds_raw() const { return seeds_with_elements<Op> || !has_identity; }

  /// The first accumulator of a partial, from the mapped value v of its first element.
  UFX_HD Acc seed(const Acc& v) const {
    if constexpr (seeds_with_elements<Op>) return v;
    else return has_identity ? combine(identity, v) : v;
  }

  /// The mapped value at per-input offsets `off[0..N)`.
  UFX_HD Acc at(const index_t* off) const { return at_impl(off, std::index_sequence_for<In...>{}); }

  /// Reduces a run of n >= 1 elements starting at `off` with innermost strides `str`.
  Acc run(const index_t* off, const index_t* str, bool unit, index_t n) const {
    if (unit) return run_impl(off, str, n, std::true_type{}, std::index_sequence_for<In...>{});
    if constexpr (broadcast_runs) {
      const unsigned bc = broadcast_mask(str, std::index_sequence_for<In...>{});
      if (bc != ~0u)
        return with_mask(
            bc, [&](auto m) { return run_masked<decltype(m)::value>(off, n, std::index_sequence_for<In...>{}); });
    }
    return run_impl(off, str, n, std::false_type{}, std::index_sequence_for<In...>{});
  }

  /// dst[j] = value(j) (Set) or dst[j] = op(dst[j], value(j)), j < n, along the innermost dimension.
  template <bool Set>
  void row(Acc* dst, const index_t* off, const index_t* str, bool unit, index_t n) const {
    (this->*host_clone_call(&reduce_kernel::template row_cloned<Set>))(dst, off, str, unit, n);
  }
  /// row's loops, compiled for the baseline and for AVX2 (config.hpp, UFX_HOST_CLONES).
  template <bool Set>
  UFX_HOST_CLONES void row_cloned(Acc* dst, const index_t* off, const index_t* str, bool unit, index_t n) const {
    if (unit) return row_runs<Set>(dst, n, std::true_type{}, off, str, std::index_sequence_for<In...>{});
    if constexpr (broadcast_runs) {
      const unsigned bc = broadcast_mask(str, std::index_sequence_for<In...>{});
      if (bc != ~0u) {
        with_mask(bc, [&](auto m) {
          row_masked<Set, decltype(m)::value>(dst, n, off, std::index_sequence_for<In...>{});
          return 0;
        });
        return;
      }
    }
    row_runs<Set>(dst, n, std::false_type{}, off, str, std::index_sequence_for<In...>{});
  }

  /// Calls `fn(k, pointer, element_size)` for each array input (k counts inputs from 0).
  template <class Fn>
  void for_each_array(Fn&& fn) const {
    for_each_array_acc(in, fn);
  }

private:
  // Runs in which an operand steps by 0 (broadcast along the run: the (n, 1) side of an (n, 1) x (m)
  // reduction) while the others step by 1: the broadcast operands are read once per run (scalar_run)
  // and the others as unit runs, so the leaf vectorises as a unit-stride one does, where the strided
  // accessor would multiply every index by a run-time stride. Same positions, same order: the result
  // is bitwise that of the strided run. One instantiation per mask of array operands, so up to
  // three array operands (index operands, argmin / argmax's, stay strided).
  template <class A>
  static constexpr bool plain_operand =
      A::is_array || std::is_same_v<A, scalar_acc<std::remove_cv_t<typename A::element_type>>>;
  static constexpr bool broadcast_runs = N <= 3 && (plain_operand<In> && ...);

  /// Bit k set: array operand k steps by 0; ~0u when an array operand steps by neither 0 nor 1.
  template <std::size_t... K>
  unsigned broadcast_mask(const index_t* str, std::index_sequence<K...>) const {
    unsigned m = 0;
    bool other = false;
    (
        [&] {
          if constexpr (std::remove_cvref_t<decltype(get<K>(in))>::is_array) {
            if (str[K] == 0) m |= 1u << K;
            else if (str[K] != 1) other = true;
          }
        }(),
        ...);
    return other ? ~0u : m;
  }

  /// fn(std::integral_constant<unsigned, mask>) for the run-time mask `bc` < 2^N.
  template <class Fn>
  static auto with_mask(unsigned bc, const Fn& fn) {
    return with_mask_impl(bc, fn, std::make_integer_sequence<unsigned, (1u << N)>{});
  }
  template <class Fn, unsigned... M>
  static auto with_mask_impl(unsigned bc, const Fn& fn, std::integer_sequence<unsigned, M...>) {
    decltype(fn(std::integral_constant<unsigned, 0>{})) r{};
    ((bc == M ? (void)(r = fn(std::integral_constant<unsigned, M>{})) : void()), ...);
    return r;
  }

  /// Operand k's run: its element once when bit k of M is set, else a unit run.
  template <bool Once, class A>
  static UFX_HD auto masked_run(const A& a, index_t off) {
    if constexpr (Once && A::is_array) return scalar_run<std::remove_cv_t<typename A::element_type>>{a.at(off)};
    else return run_of(a, off, 1, std::true_type{});
  }
  template <unsigned M, std::size_t... K>
  Acc run_masked(const index_t* off, index_t n, std::index_sequence<K...>) const {
    return pairwise(n, masked_run<((M >> K) & 1u) != 0>(get<K>(in), off[K])...);
  }
  template <bool Set, unsigned M, std::size_t... K>
  void row_masked(Acc* dst, index_t n, const index_t* off, std::index_sequence<K...>) const {
    row_loop<Set>(dst, n, masked_run<((M >> K) & 1u) != 0>(get<K>(in), off[K])...);
  }

  template <std::size_t... K>
  UFX_HD Acc at_impl(const index_t* off, std::index_sequence<K...>) const {
    return static_cast<Acc>(UFX_USER_CALL(f, get<K>(in).at(off[K])...));
  }
  template <class U, std::size_t... K>
  Acc run_impl(const index_t* off, const index_t* str, index_t n, U u, std::index_sequence<K...>) const {
    return pairwise(n, run_of(get<K>(in), off[K], str[K], u)...);
  }

  // Pairwise summation order (NumPy's): split at a multiple of the lane count until a leaf.
  template <class... R>
  Acc pairwise(index_t n, const R&... r) const {
    if (n <= reduce_leaf<Acc>) return leaf(n, r...);
    index_t n2 = n / 2;
    n2 -= n2 % reduce_lanes<Acc>;
    const Acc a = pairwise(n2, r...);
    const Acc b = pairwise(n - n2, r.skip(n2)...);
    return combine(a, b);
  }

  // A plain sum: the identity map and ufx::plus over one unit run of E's.
  template <class E, class... R>
  static constexpr bool plain_sum_of = [] {
    if constexpr (sizeof...(R) == 1 && std::is_same_v<F, detail::identity> && std::is_same_v<Op, plus>)
      return (std::is_same_v<R, unit_run<const E>> && ...) || (std::is_same_v<R, unit_run<E>> && ...);
    else return false;
  }();
  // ufx::sum and the like, in the accumulator's type: simd_sum_leaf.
  template <class... R>
  static constexpr bool plain_sum_leaf = simd_leaf_type<Acc>&& plain_sum_of<Acc, R...>;
  // A plain sum of floats in double (reduce.hpp's wide sums): simd_widen_sum_leaf.
  template <class... R>
  static constexpr bool widen_sum_leaf = std::is_same_v<Acc, double>&& plain_sum_of<float, R...>;
  // ufx::plus on an accumulator the vector code takes: the horizontal combine runs in registers.
  static constexpr bool simd_plus = std::is_same_v<Op, plus> && simd_leaf_type<Acc>;
  template <class R>
  static constexpr bool is_unit_run = is_unit_run_v<R>;
  template <class R>
  static constexpr bool is_scalar_run = is_scalar_run_v<R>;
  // A sum of mapped values of unit runs (scalars beside them): simd_map_sum_leaf.
  template <class... R>
  static constexpr bool map_sum_leaf = [] {
    if constexpr (simd_plus) return ((is_unit_run<R> || is_scalar_run<R>)&&...) && (is_unit_run<R> || ...);
    else return false;
  }();
  template <class R0, class... R>
  static int rotation_of(const R0& r0, const R&... r) {
    if constexpr (is_unit_run<R0>) return simd_rotation<Acc>(r0.p, sizeof(*r0.p));
    else return rotation_of(r...);
  }

  template <class... R>
  Acc leaf(index_t n, const R&... r) const {
#if UFX_SIMD_LEAF
    // a plain sum's leaf is vector code of the build's own width already (no clone to pick)
    if constexpr (plain_sum_leaf<R...>) {
      if (n >= reduce_lanes<Acc>) return simd_sum_leaf<Acc>(n, (r.p, ...));
    }
    if constexpr (widen_sum_leaf<R...>) {
      if (n >= reduce_lanes<Acc>) return simd_widen_sum_leaf(n, (r.p, ...));
    }
#endif
    return (this->*host_clone_call(&reduce_kernel::template mapped_leaf<R...>))(n, r...);
  }
  /// The other leaves, compiled for the baseline and for AVX2 (config.hpp, UFX_HOST_CLONES).
  template <class... R>
  UFX_HOST_CLONES Acc mapped_leaf(index_t n, const R&... r) const {
    constexpr int L = reduce_lanes<Acc>;
    // an operator with a leaf of its own (ufx::reducers' parts: the statistics' two passes over
    // the leaf's elements) gets the mapped values
    if constexpr (requires { op.leaf(n, [&](index_t i) { return static_cast<Acc>(f(r.at(i)...)); }); })
      return op.leaf(n, [&](index_t i) { return static_cast<Acc>(f(r.at(i)...)); });
    if (n < L) {
      Acc s = seed(static_cast<Acc>(f(r.at(0)...)));
      for (index_t i = 1; i < n; ++i) s = combine(s, static_cast<Acc>(f(r.at(i)...)));
      return s;
    }
#if UFX_SIMD_LEAF
    if constexpr (map_sum_leaf<R...>)
      return simd_map_sum_leaf<Acc>(n, rotation_of(r...), [&](index_t i) { return static_cast<Acc>(f(r.at(i)...)); });
#endif
    Acc acc[L];
    for (int j = 0; j < L; ++j) acc[j] = seed(static_cast<Acc>(f(r.at(j)...)));
    index_t i = L;
    for (; i + L <= n; i += L)
      for (int j = 0; j < L; ++j) acc[j] = combine(acc[j], static_cast<Acc>(f(r.at(i + j)...)));
#if UFX_SIMD_LEAF
    if constexpr (simd_plus) {
      Acc s = simd_hsum(acc);
      for (; i < n; ++i) s = combine(s, static_cast<Acc>(f(r.at(i)...)));
      return s;
    }
#endif
    Acc s = fold_lanes<L / 2>(acc);
    for (; i < n; ++i) s = combine(s, static_cast<Acc>(f(r.at(i)...)));
    return s;
  }

  /// The generic leaf's horizontal combine (docs/reduce.md, "Targets and device data"):
  /// acc[j] = op(acc[j], acc[j + w]) for j < w, w = W, W/2, .., 1, then acc[0]. Each level is a loop
  /// of compile-time length into a small array that is copied back whole, which the compiler
  /// vectorises wherever op vectorises (a user's `a + b` becomes what simd_hsum does for
  /// ufx::plus). One loop over w stayed a loop, with one-element stores and loads for its last
  /// levels (a user's `a + b` over 4096 floats took 1.5x to 2x ufx::plus's time); copied back
  /// element by element, GCC forwarded every value and left the whole tree scalar; as straight-line
  /// code, GCC vectorised `a + b` but left a maximum and branchy operators scalar with AVX-512.
  template <int W>
  UFX_ALWAYS_INLINE Acc fold_lanes(Acc* acc) const {
    if constexpr (W == 0) return acc[0];
    else {
      Acc t[W];
      for (int j = 0; j < W; ++j) t[j] = combine(acc[j], acc[j + W]);
      if constexpr (std::is_trivially_copyable_v<Acc>) std::memcpy(acc, t, sizeof t);
      else
        for (int j = 0; j < W; ++j) acc[j] = std::move(t[j]);
      return fold_lanes<W / 2>(acc);
    }
  }

  template <bool Set, class U, std::size_t... K>
  void row_runs(Acc* dst, index_t n, U u, const index_t* off, const index_t* str, std::index_sequence<K...>) const {
    row_loop<Set>(dst, n, run_of(get<K>(in), off[K], str[K], u)...);
  }
  template <bool Set, class... R>
  void row_loop(Acc* __restrict dst, index_t n, R... r) const {
    if constexpr (Set) {
      for (index_t j = 0; j < n; ++j) dst[j] = seed(static_cast<Acc>(f(r.at(j)...)));
    } else {
      for (index_t j = 0; j < n; ++j) dst[j] = combine(dst[j], static_cast<Acc>(f(r.at(j)...)));
    }
  }
};

/// The identity map that turns partial results back into a kernel input (device targets'
/// second level, host targets' combining of partials).
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

/// Reduces positions first, first + step, ... < m of reduced layout `red` for one output (device
/// threads). Blocks of 8 positions are loaded together (8 loads in flight) and folded in order,
/// groups of 8 blocks are folded, and the groups are folded into the total: the error grows with
/// a 64th of the lane's length, and no array is indexed at run time (no local memory).
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
