#pragma once
// The CPU targets' runs of a reduction kernel (body/reduce.hpp): a run of elements reduced in NumPy's pairwise order
// with vector leaves (simd_leaf.hpp), and rows of outputs updated element by element. cpu/reduce.hpp's tree and
// cpu/scan.hpp call them as `cpu_reduce_runs<Kern>{k}.run(...)` and `.row<Set>(...)`.
#include <cstring>
#include <type_traits>
#include <utility>

#include "ufx/config.hpp"
#include "ufx/detail/body/reduce.hpp"
#include "ufx/detail/core/loop.hpp"
#include "ufx/detail/cpu/simd_leaf.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

// No software prefetch: with the vector leaves (simd_leaf.hpp) a prefetch 8 KiB ahead made sums from DRAM 10-30% slower
// (one thread and two, baseline and AVX-512) and axis-0 rows 5-9% slower on this project's 2-core EPYC.

/// Independent accumulators per leaf: eight vector registers' worth, eight add chains in flight (32 floats with SSE, 64
/// with AVX, 128 with AVX-512; fewer chains left an AVX-512 leaf waiting on add latency, at 0.46 of an OpenMP `simd`
/// loop's speed). The pairwise order, and so a float sum's last bits, depend on it (as NumPy's do).
template <class Acc>
inline constexpr int reduce_lanes = sizeof(Acc) <= 8 ? 8 * host_vector_bytes / static_cast<int>(sizeof(Acc)) : 8;
/// Elements per pairwise leaf: each accumulator sums 16 in sequence, as NumPy's pairwise sum does.
template <class Acc>
inline constexpr index_t reduce_leaf = 16 * reduce_lanes<Acc>;

template <class Kern>
struct cpu_reduce_runs;

template <class Acc, class F, class Op, class... In>
struct cpu_reduce_runs<reduce_body<Acc, F, Op, In...>> {
  static constexpr int N = sizeof...(In);
  const reduce_body<Acc, F, Op, In...>& k;

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
    (this->*host_clone_call(&cpu_reduce_runs::template row_cloned<Set>))(dst, off, str, unit, n);
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

private:
  // Runs where an operand steps by 0 (the (n, 1) side of an (n, 1) x (m) reduction) and the others by 1: broadcast
  // operands read once per run (scalar_run), the others as unit runs, so the leaf vectorises as a unit-stride one, not
  // multiplying each index by a run-time stride. Same positions and order: the strided run's bits. One instantiation
  // per mask of array operands, so three at most (argmin / argmax's index operands stay strided).
  template <class A>
  static constexpr bool plain_operand = A::is_array || std::is_same_v<A, scalar_acc<acc_element<A>>>;
  static constexpr bool broadcast_runs = N <= 3 && (plain_operand<In> && ...);

  /// Bit k set: array operand k steps by 0; ~0u when an array operand steps by neither 0 nor 1.
  template <std::size_t... K>
  unsigned broadcast_mask(const index_t* str, std::index_sequence<K...>) const {
    unsigned m = 0;
    bool other = false;
    (
        [&] {
          if constexpr (std::remove_cvref_t<decltype(get<K>(k.in))>::is_array) {
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
    decltype(fn(std::integral_constant<unsigned, 0>{})) r{};
    [&]<unsigned... M>(std::integer_sequence<unsigned, M...>) {
      ((bc == M ? (void)(r = fn(std::integral_constant<unsigned, M>{})) : void()), ...);
    }
    (std::make_integer_sequence<unsigned, (1u << N)>{});
    return r;
  }

  /// Operand k's run: its element once when bit k of M is set, else a unit run.
  template <bool Once, class A>
  static UFX_HD auto masked_run(const A& a, index_t off) {
    if constexpr (Once && A::is_array) return scalar_run<acc_element<A>>{a.at(off)};
    else return run_of(a, off, 1, std::true_type{});
  }
  template <unsigned M, std::size_t... K>
  Acc run_masked(const index_t* off, index_t n, std::index_sequence<K...>) const {
    return pairwise(n, masked_run<((M >> K) & 1u) != 0>(get<K>(k.in), off[K])...);
  }
  template <bool Set, unsigned M, std::size_t... K>
  void row_masked(Acc* dst, index_t n, const index_t* off, std::index_sequence<K...>) const {
    row_loop<Set>(dst, n, masked_run<((M >> K) & 1u) != 0>(get<K>(k.in), off[K])...);
  }

  template <class U, std::size_t... K>
  Acc run_impl(const index_t* off, const index_t* str, index_t n, U u, std::index_sequence<K...>) const {
    return pairwise(n, run_of(get<K>(k.in), off[K], str[K], u)...);
  }

  // Pairwise summation order (NumPy's): split at a multiple of the lane count until a leaf.
  template <class... R>
  Acc pairwise(index_t n, const R&... r) const {
#if UFX_SIMD_LEAF && UFX_HALF_SIMD_CALLS
    // a float16 sum in float: the same tree and leaves in libufx, F16C converting and adding 8 lanes an instruction
    if constexpr (std::is_same_v<Acc, float> && plain_sum_of<float16, R...>)
      return ::ufx_halves_pairwise_sum((r.p, ...), static_cast<std::size_t>(n), reduce_lanes<Acc>);
#endif
    if (n <= reduce_leaf<Acc>) return leaf(n, r...);
    index_t n2 = n / 2;
    n2 -= n2 % reduce_lanes<Acc>;
    const Acc a = pairwise(n2, r...);
    const Acc b = pairwise(n - n2, r.skip(n2)...);
    return k.combine(a, b);
  }

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
  // A sum of mapped values of unit runs (scalars beside them): simd_map_sum_leaf.
  template <class... R>
  static constexpr bool map_sum_leaf = [] {
    if constexpr (simd_plus) return ((is_unit_run_v<R> || is_scalar_run_v<R>)&&...) && (is_unit_run_v<R> || ...);
    else return false;
  }();
  template <class R0, class... R>
  static int rotation_of(const R0& r0, const R&... r) {
    if constexpr (is_unit_run_v<R0>) return simd_rotation<Acc>(r0.p, sizeof(*r0.p));
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
    return (this->*host_clone_call(&cpu_reduce_runs::template mapped_leaf<R...>))(n, r...);
  }
  /// The other leaves, compiled for the baseline and for AVX2 (config.hpp, UFX_HOST_CLONES).
  template <class... R>
  UFX_HOST_CLONES Acc mapped_leaf(index_t n, const R&... r) const {
    constexpr int L = reduce_lanes<Acc>;
    // an operator with a leaf of its own (ufx::reducers' parts: the statistics' two passes) gets the mapped values
    if constexpr (requires { k.op.leaf(n, [&](index_t i) { return static_cast<Acc>(k.f(r.at(i)...)); }); })
      return k.op.leaf(n, [&](index_t i) { return static_cast<Acc>(k.f(r.at(i)...)); });
    if (n < L) {
      Acc s = k.seed(static_cast<Acc>(k.f(r.at(0)...)));
      for (index_t i = 1; i < n; ++i) s = k.combine(s, static_cast<Acc>(k.f(r.at(i)...)));
      return s;
    }
#if UFX_SIMD_LEAF
    if constexpr (map_sum_leaf<R...>) {
      const auto value = [&](index_t i) { return static_cast<Acc>(k.f(r.at(i)...)); };
      if constexpr ((half_type<std::remove_cvref_t<decltype(r.at(0))>> || ...))
        return simd_map_sum_leaf_body<Acc, true>(n, rotation_of(r...), value);
      else return simd_map_sum_leaf<Acc>(n, rotation_of(r...), value);
    }
#endif
    Acc acc[L];
    for (int j = 0; j < L; ++j) acc[j] = k.seed(static_cast<Acc>(k.f(r.at(j)...)));
    index_t i = L;
    for (; i + L <= n; i += L)
      for (int j = 0; j < L; ++j) acc[j] = k.combine(acc[j], static_cast<Acc>(k.f(r.at(i + j)...)));
#if UFX_SIMD_LEAF
    if constexpr (simd_plus) {
      Acc s = simd_hsum(acc);
      for (; i < n; ++i) s = k.combine(s, static_cast<Acc>(k.f(r.at(i)...)));
      return s;
    }
#endif
    Acc s = fold_lanes<L / 2>(acc);
    for (; i < n; ++i) s = k.combine(s, static_cast<Acc>(k.f(r.at(i)...)));
    return s;
  }

  /// The generic leaf's horizontal combine (docs/reduce.md, "Targets and device data"): acc[j] = op(acc[j], acc[j + w])
  /// for j < w, w = W, W/2, .., 1, then acc[0]. Each level is a loop of compile-time length into a small array copied
  /// back whole, which the compiler vectorises wherever op does (a user's `a + b` becomes what simd_hsum does for
  /// ufx::plus). One loop over w stayed a loop with one-element stores and loads (a user's `a + b` over 4096 floats
  /// took 1.5x to 2x ufx::plus's time); copied back element by element, GCC forwarded every value and left the tree
  /// scalar; as straight-line code, GCC vectorised `a + b` but left max and branchy operators scalar with AVX-512.
  template <int W>
  UFX_ALWAYS_INLINE Acc fold_lanes(Acc* acc) const {
    if constexpr (W == 0) return acc[0];
    else {
      Acc t[W];
      for (int j = 0; j < W; ++j) t[j] = k.combine(acc[j], acc[j + W]);
      if constexpr (std::is_trivially_copyable_v<Acc>) std::memcpy(acc, t, sizeof t);
      else
        for (int j = 0; j < W; ++j) acc[j] = std::move(t[j]);
      return fold_lanes<W / 2>(acc);
    }
  }

  template <bool Set, class U, std::size_t... K>
  void row_runs(Acc* dst, index_t n, U u, const index_t* off, const index_t* str, std::index_sequence<K...>) const {
    row_loop<Set>(dst, n, run_of(get<K>(k.in), off[K], str[K], u)...);
  }
  template <bool Set, class... R>
  void row_loop(Acc* __restrict dst, index_t n, R... r) const {
    if constexpr (Set) {
      for (index_t j = 0; j < n; ++j) dst[j] = k.seed(static_cast<Acc>(k.f(r.at(j)...)));
    } else {
      for (index_t j = 0; j < n; ++j) dst[j] = k.combine(dst[j], static_cast<Acc>(k.f(r.at(j)...)));
    }
  }
};

/// The runs of kernel `k` (valid while `k` is).
template <class Kern>
cpu_reduce_runs<Kern> cpu_runs(const Kern& k) {
  return {k};
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
