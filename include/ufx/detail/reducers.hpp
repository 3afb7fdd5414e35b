#pragma once
// The body of ufx::reducers and the statistics (ufx::mean, var, std, minmax): several reductions of one array in one
// pass. Each reduction is a part; the parts ride in one accumulator tuple through reduce_run, so every target, the
// chunked path, axes, keepdims and out work as for one reduction. Along axes the tuples go to one temporary, split into
// the results by one small elementwise pass on the target that holds them.
#include <math.h>

#include <algorithm>
#include <cstddef>
#include <limits>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ufx/config.hpp"
#include "ufx/detail/cpu/reduce_runs.hpp"
#include "ufx/detail/cpu/simd_leaf.hpp"
#include "ufx/detail/reduce.hpp"
#include "ufx/detail/core/reduce_ops.hpp"
#include "ufx/detail/core/tuple.hpp"
#include "ufx/detail/vectorize.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

// ---- parts ------------------------------------------------------------------------------------
// A part for elements of type V has: `acc`, `map(v, i)` (one element's accumulator; i its index, for argmin / argmax),
// `combine(a, b)`, `finish(a)`, `has_identity` with `identity_value()`, `indexed`, `empty` (the message for an empty
// reduction without identity), `user_function` (the user's operator or no_value: what run.hpp's host_only_lambda
// checks) and `shares_accumulation` (two such parts with one accumulator type accumulate alike: the CPU leaf computes
// one for both).

/// A binary operator's part (ufx::reducer, ufx::sum, ...): element x's accumulator is op(identity, x) for a user's
/// operator with an identity (as in the one-reduction fold), else x. Its result is the one reduction's (a float16 sum:
/// accumulated in float, rounded once).
template <class Op, class Id, class V>
struct op_part {
  using acc = typename reduce_types<identity, Op, V>::acc;
  using result = typename reduce_types<identity, Op, V>::result;
  static constexpr bool has_identity = !std::is_same_v<Id, no_value>;
  static constexpr bool indexed = false;
  static constexpr const char* empty = no_identity_message;
  using user_function = Op;
  static constexpr bool shares_accumulation = false;
  Op op;
  acc id{};
  UFX_HD acc combine(const acc& a, const acc& b) const { return static_cast<acc>(UFX_USER_CALL(op, a, b)); }
  UFX_HD acc map(const V& v, index_t) const {
    if constexpr (has_identity && !seeds_with_elements<Op>) return combine(id, static_cast<acc>(v));
    else return static_cast<acc>(v);
  }
  UFX_HD result finish(const acc& a) const { return static_cast<result>(a); }
  acc identity_value() const { return id; }
};

/// The part of argmin (Max = false) / argmax: the (value, index) pair, its index as the result.
template <bool Max, class V>
struct arg_part {
  using acc = arg_pair<V>;
  using user_function = no_value;
  static constexpr bool shares_accumulation = false;
  static constexpr bool has_identity = false;
  static constexpr bool indexed = true;
  static constexpr const char* empty = arg_empty_message<Max>;
  UFX_HD acc map(const V& v, index_t i) const { return {v, i}; }
  UFX_HD acc combine(const acc& a, const acc& b) const { return arg_better<Max>{}(a, b); }
  UFX_HD index_t finish(const acc& a) const { return a.index; }
  acc identity_value() const { return {}; }
};

/// Count, mean and squared deviations' sum of the elements seen (Chan, Golub and LeVeque's pairwise update), the mean
/// kept as `shift + mean`: `shift` is the partial's first element, `mean` that of the elements less it. Data far from 0
/// (readings near 1000 in float, timestamps near 1e9 in double) then keep their digits: x - shift is exact within a
/// factor 2 of the shift (Sterbenz), so deviations and two partials' mean difference come from small numbers, where a
/// mean stored as one number carries its rounding (half an ulp of 1000 in float: 3e-5) into every deviation. The count
/// is kept in T: exact in float up to 2^24 per partial, within float rounding beyond (it only weighs).
template <class T>
struct moments {
  T n, shift, mean, m2;
};

/// Combines two partials: n = na + nb, mean = ma + d nb / n, m2 = m2a + m2b + d^2 na nb / n with d = mb - ma, computed
/// as (shift_b - shift_a) + (mean_b - mean_a); the result keeps a's shift. No branch on the data, only selects: an
/// empty side gives the other one as it is, and when d is not finite (an infinite element) the mean is the weighted
/// one, held in the shift, so mean([inf, 1]) is inf and mean([inf, -inf]) NaN, as NumPy's.
template <class T>
UFX_HD inline moments<T> combine_moments(const moments<T>& a, const moments<T>& b) {
  const T n = a.n + b.n;
  const T w = b.n / (n > T(0) ? n : T(1));
  const T d = (b.shift - a.shift) + (b.mean - a.mean);
  const bool fin = real_finite(d);
  const T mixed = (a.shift + a.mean) * (T(1) - w) + (b.shift + b.mean) * w;
  moments<T> r{n, fin ? a.shift : mixed, fin ? a.mean + d * w : T(0), a.m2 + b.m2 + d * d * a.n * w};
  if (!(b.n > T(0))) r = a;
  if (!(a.n > T(0))) r = b;
  return r;
}

/// Independent sums of a statistics leaf on the CPU (moments_part::leaf, lanes_sum): 32 floats or 16 doubles, 128
/// bytes, four AVX2 registers per sum (eight SSE2 ones), each a chain of adds.
template <class T>
inline constexpr int stat_lanes = 128 / static_cast<int>(sizeof(T));

enum class stat_kind { mean, var, std };

template <class T>
UFX_HD inline T stat_sqrt(T v) {
  if constexpr (std::is_same_v<T, float>) return ::sqrtf(v);
  else return static_cast<T>(::sqrt(static_cast<double>(v)));
}

/// The moments of complex values: those of their real parts and of their imaginary parts. Their mean is the two means,
/// and their squared deviations |x - mean|^2 sum to the two parts' m2 together (np.var of complex values).
template <class T>
struct complex_moments {
  moments<T> re, im;
};

/// What statistic K of values of type V returns: real_result_of<V>, but for complex values their mean is complex
/// (np.mean of complex64 is complex64, np.var and np.std float32).
template <class V, stat_kind K>
using stat_result = std::conditional_t<K == stat_kind::mean && is_std_complex<V>, V, real_result_of<V>>;

/// The part of ufx::mean / var / std, whose statistic returns R (stat_result). The mean of no element is NaN (NumPy's,
/// with its warning); var is m2 / max(n - ddof, 0) (m2 / 0: inf, or NaN when m2 is 0, as NumPy's), NaN when the mean is
/// not finite (an inf or NaN element: NumPy's x - mean is NaN there); std its square root. The statistic is a member,
/// not a template parameter: mean, var and std of one element type share one accumulation (one kernel to compile).
/// Float16 and bfloat16 compute in float and round the statistic once (real_result_of). Complex values accumulate their
/// parts' moments side by side (complex_moments).
template <class V, class R>
struct moments_part {
  using T = real_of<V>;
  using result = R;
  using acc = std::conditional_t<is_std_complex<V>, complex_moments<T>, moments<T>>;
  using user_function = no_value;
  static constexpr bool shares_accumulation = true;
  static constexpr bool has_identity = true;
  static constexpr bool indexed = false;
  static constexpr const char* empty = "";
  stat_kind kind = stat_kind::mean;
  int ddof = 0;
  UFX_HD acc map(const V& v, index_t) const {
    if constexpr (is_std_complex<V>) return {{T(1), v.real(), T(0), T(0)}, {T(1), v.imag(), T(0), T(0)}};
    else if constexpr (std::is_convertible_v<const V&, T>) return {T(1), static_cast<T>(v), T(0), T(0)};
    else return {}; // not a number: stat_fn::part's static_assert has said so (one error, not three)
  }
  UFX_HD acc combine(const acc& a, const acc& b) const {
    if constexpr (is_std_complex<V>) return {combine_moments(a.re, b.re), combine_moments(a.im, b.im)};
    else return combine_moments(a, b);
  }
  /// The CPU leaf of n >= 1 elements: real_leaf, of each part of complex elements.
  template <class At>
  UFX_ALWAYS_INLINE acc leaf(index_t n, const At& at) const {
    if constexpr (is_std_complex<V>)
      return {real_leaf(n, [&](index_t i) { return at(i).re; }), real_leaf(n, [&](index_t i) { return at(i).im; })};
    else return real_leaf(n, at);
  }
  UFX_HD result finish(const acc& a) const {
    if constexpr (is_std_complex<V>) {
      const T re = a.re.shift + a.re.mean, im = a.im.shift + a.im.mean;
      if constexpr (is_std_complex<R>) // the mean: a part not finite makes the other NaN, as NumPy's complex division
        return a.re.n > T(0) ? R(real_finite(im) ? re : nan(), real_finite(re) ? im : nan()) : R(nan(), nan());
      else return spread(a.re.n, real_finite(re) && real_finite(im), a.re.m2 + a.im.m2);
    } else {
      const T mean = a.shift + a.mean;
      if (kind == stat_kind::mean) return static_cast<result>(a.n > T(0) ? mean : nan());
      return spread(a.n, real_finite(mean), a.m2);
    }
  }
  acc identity_value() const {
    const moments<T> none{T(0), T(0), T(0), T(0)};
    if constexpr (is_std_complex<V>) return {none, none};
    else return none;
  }

private:
  UFX_HD static T nan() { return std::numeric_limits<T>::quiet_NaN(); }
  /// var or std of n values whose squared deviations from their mean sum to m2; NaN when that mean is not finite.
  UFX_HD result spread(T n, bool finite_mean, T m2) const {
    const T dof = n - static_cast<T>(ddof);
    const T v = finite_mean ? m2 / (dof > T(0) ? dof : T(0)) : nan();
    return static_cast<result>(kind == stat_kind::var ? v : stat_sqrt(v));
  }
  /// The CPU leaf of n >= 1 elements (values at(i).shift): one pass over the leaf shifted by k, the mean of its first
  /// stat_lanes elements (fewer in a short leaf), with the sums of x - k and of its squares, each in stat_lanes
  /// independent sums combined pairwise (lanes_sums: vector registers with GCC). m2 = sum (x - k)^2 - n (mean - k)^2
  /// then cancels at most a fifth of the first sum; where k lies further from the leaf's mean (its first elements
  /// unlike the rest), a second pass takes the squared deviations from the mean. One division per leaf instead of
  /// Welford's one per element; the leaves then combine by Chan's update.
  template <class At>
  UFX_ALWAYS_INLINE static moments<T> real_leaf(index_t n, const At& at) {
    constexpr int L = stat_lanes<T>;
    const index_t nfull = n - n % L, h = n < L ? n : L;
    T k = 0;
    for (index_t i = 0; i < h; ++i) k += at(i).shift;
    k /= static_cast<T>(h);
    const auto shifted = [&](index_t i) { return at(i).shift - k; };
    auto [s, q] = lanes_sums<T, L, true>(nfull, shifted);
    for (index_t i = nfull; i < n; ++i) {
      const T d = shifted(i);
      s += d;
      q += d * d;
    }
    const T nn = static_cast<T>(n), mean = s / nn;
    if (!real_finite(mean) || !real_finite(q)) return fold(n, at);
    T m2 = q - s * mean;
    if (T(4) * s * mean > m2) m2 = deviations(n, at, k, mean);
    return {nn, k, mean, m2};
  }
  /// The sum of the squared deviations of n elements from k + mean (x - c: exact near c, the rounded k + mean), less
  /// the effect of c's rounding e: sum (x - c - e)^2 = sum (x - c)^2 - n e^2 where sum (x - c) = n e.
  template <class At>
  UFX_ALWAYS_INLINE static T deviations(index_t n, const At& at, T k, T mean) {
    constexpr int L = stat_lanes<T>;
    const index_t nfull = n - n % L;
    const T c = k + mean, e = mean - (c - k);
    const auto squared = [&](index_t i) {
      const T d = at(i).shift - c;
      return d * d;
    };
    T m2 = lanes_sum<T, L>(nfull, squared);
    for (index_t i = nfull; i < n; ++i) m2 += squared(i);
    return m2 - static_cast<T>(n) * e * e;
  }
  /// A leaf whose shifted sum is not finite (an inf or NaN element, or a sum that overflowed from finite values), by
  /// the combining rule: NumPy's mean, inf stays inf, inf beside -inf is NaN.
  template <class At>
  static moments<T> fold(index_t n, const At& at) {
    moments<T> a = at(0);
    for (index_t i = 1; i < n; ++i) a = combine_moments(a, at(i));
    return a;
  }
};

// ---- the parts together --------------------------------------------------------------------------

template <class... P>
using parts_acc = tuple<typename P::acc...>;
template <class... P>
using parts_result =
    tuple<std::decay_t<decltype(std::declval<const P&>().finish(std::declval<const typename P::acc&>()))>...>;

/// R (a parts_acc or parts_result) whose component K is f(std::integral_constant<std::size_t, K>{}): one step of every
/// part (its map, combine, finish or identity), part by part.
template <class R, std::size_t... K, class F>
UFX_HD R each_part(std::index_sequence<K...>, const F& f) {
  R r;
  ((get<K>(r) = f(std::integral_constant<std::size_t, K>{})), ...);
  return r;
}

/// Maps the operands' elements to every part's accumulator: `pre` (identity, or an expression's function) gives the
/// value the parts reduce; when a part is indexed (argmin / argmax) the last argument is the position.
template <bool Indexed, class Pre, class... P>
struct parts_map {
  using user_functions = std::tuple<Pre, typename P::user_function...>; // run.hpp's host_only_lambda
  Pre pre;
  tuple<P...> parts;
  template <class... A>
  UFX_HD parts_acc<P...> operator()(const A&... a) const {
    if constexpr (Indexed) {
      const tuple<A...> t{{{a}...}};
      return call(t, std::make_index_sequence<sizeof...(A) - 1>{}, get<sizeof...(A) - 1>(t));
    } else {
      return map(UFX_USER_CALL(pre, a...), 0);
    }
  }

private:
  template <class Tup, std::size_t... J>
  UFX_HD parts_acc<P...> call(const Tup& t, std::index_sequence<J...>, index_t i) const {
    return map(UFX_USER_CALL(pre, get<J>(t)...), i);
  }
  template <class V>
  UFX_HD parts_acc<P...> map(const V& v, index_t i) const {
    return each_part<parts_acc<P...>>(std::index_sequence_for<P...>{}, [&](auto k) { return get<k>(parts).map(v, i); });
  }
};

template <class... P>
struct parts_finish {
  tuple<P...> parts;
  UFX_HD parts_result<P...> operator()(const parts_acc<P...>& a) const {
    return each_part<parts_result<P...>>(std::index_sequence_for<P...>{},
                                         [&](auto k) { return get<k>(parts).finish(get<k>(a)); });
  }
};

/// Its finish() is called by step/reduce_setup.hpp's finishing_op.
template <class... P>
struct parts_op {
  using finish_type = parts_finish<P...>;
  using user_functions = std::tuple<typename P::user_function...>;
  tuple<P...> parts;
  UFX_HD parts_acc<P...> operator()(const parts_acc<P...>& a, const parts_acc<P...>& b) const {
    return each_part<parts_acc<P...>>(std::index_sequence_for<P...>{},
                                      [&](auto k) { return get<k>(parts).combine(get<k>(a), get<k>(b)); });
  }
  finish_type finish() const { return {parts}; }

  /// The CPU leaf of n >= 1 mapped values at(i): each part's own leaf, else its fold in independent partials combined
  /// pairwise. Always inlined into the engine's leaf, so that its clones (config.hpp, UFX_HOST_CLONES) compile these
  /// loops for AVX2 too. Two parts of one accumulation (mean and var: moments_part) compute it once.
  template <class At>
  UFX_ALWAYS_INLINE parts_acc<P...> leaf(index_t n, const At& at) const {
    return leaf(n, at, std::index_sequence_for<P...>{});
  }

private:
  /// The first part before K that accumulates as K does, when K's accumulation ignores the part's settings
  /// (moments_part: kind, ddof and the result type only finish; the same accumulator type); K itself otherwise.
  template <std::size_t K>
  static constexpr std::size_t same_as() {
    using PK = std::tuple_element_t<K, std::tuple<P...>>;
    std::size_t j = K;
    if constexpr (PK::shares_accumulation)
      with_indices<K>([&]<std::size_t... J>(std::index_sequence<J...>) {
        ((j = (j == K && shares_with<std::tuple_element_t<J, std::tuple<P...>>, PK>()) ? J : j), ...);
      });
    return j;
  }
  template <class PJ, class PK>
  static constexpr bool shares_with() {
    return PJ::shares_accumulation && std::is_same_v<typename PJ::acc, typename PK::acc>;
  }
  template <class At, std::size_t... K>
  UFX_ALWAYS_INLINE parts_acc<P...> leaf(index_t n, const At& at, std::index_sequence<K...>) const {
    parts_acc<P...> r;
    (
        [&] {
          if constexpr (same_as<K>() != K) get<K>(r) = get<same_as<K>()>(r);
          else get<K>(r) = part_leaf(get<K>(parts), n, [&](index_t i) { return get<K>(at(i)); });
        }(),
        ...);
    return r;
  }
  template <class Part, class At>
  UFX_ALWAYS_INLINE static typename Part::acc part_leaf(const Part& p, index_t n, const At& at) {
    using A = typename Part::acc;
    if constexpr (requires { p.leaf(n, at); }) {
      return p.leaf(n, at);
    } else {
      constexpr int L = 8;
      if (n < L) {
        A s = at(0);
        for (index_t i = 1; i < n; ++i) s = p.combine(s, at(i));
        return s;
      }
      A acc[L];
      for (int j = 0; j < L; ++j) acc[j] = at(j);
      index_t i = L;
      for (; i + L <= n; i += L)
        for (int j = 0; j < L; ++j) acc[j] = p.combine(acc[j], at(i + j));
      for (int w = L / 2; w > 0; w /= 2)
        for (int j = 0; j < w; ++j) acc[j] = p.combine(acc[j], acc[j + w]);
      for (; i < n; ++i) acc[0] = p.combine(acc[0], at(i));
      return acc[0];
    }
  }
};

/// The CPU leaf of a multi-reduction: 2048 elements (the statistics' two passes over it run in L1; per leaf one Chan
/// update and one pairwise step). At the engine's 128 the per-leaf work held mean with var to 4 GB/s on this project's
/// 2-core machine, against 20-45 for one sum in cache; a leaf's float error grows with 2048 / 16 = 128 additions.
template <class... A>
inline constexpr index_t reduce_leaf<tuple<A...>> = 2048;

/// The message of an empty reduction: the first part's without identity.
template <class... P>
constexpr const char* parts_empty_message() {
  const char* m = "";
  ((m = (*m == '\0' && !P::has_identity) ? P::empty : m), ...);
  return m;
}

/// Component K of a parts_result (the elementwise pass that splits the results along axes).
template <std::size_t K>
struct part_result {
  template <class T>
  UFX_HD auto operator()(const T& t) const {
    return get<K>(t);
  }
};

/// The temporary a multi-reduction along axes writes its tuples to.
template <class Res, int R, bool Device>
auto parts_temporary(const dims& shape, memory_space space) {
  std::array<index_t, R> s{};
  for (int k = 0; k < R; ++k) s[k] = shape[k];
  if constexpr (Device) return device_array<Res, R>(s, space);
  else return ((void)space, ndarray<Res, R>(s));
}

/// Writes component K of `tmp` into destination K, on the call's target (else where tmp lives).
template <class TargetT, class Tmp, class... D, std::size_t... K>
void split_parts(const TargetT* tp, const Tmp& tmp, std::index_sequence<K...>, D&... dst) {
  (
      [&] {
        if constexpr (any_target<TargetT>) vectorize_call(part_result<K>{}, *tp, tmp, ufx::out(dst));
        else vectorize_call(part_result<K>{}, tmp, ufx::out(dst));
      }(),
      ...);
}

UFX_TU_NAMESPACE_END

/// Each part's map gives an accumulator already: a partial may begin with it.
template <class... P>
inline constexpr bool seeds_with_elements<parts_op<P...>> = true;

UFX_TU_NAMESPACE_BEGIN

/// The reduce_spec of parts P... over the values `pre` gives, for NA axes.
template <int NA, class Pre, class... P>
auto parts_spec(const char* who, const Pre& pre, const tuple<P...>& parts) {
  constexpr bool indexed = (P::indexed || ...);
  constexpr bool has_identity = (P::has_identity && ...);
  std::conditional_t<has_identity, parts_acc<P...>, no_value> id{};
  if constexpr (has_identity)
    id = each_part<parts_acc<P...>>(std::index_sequence_for<P...>{},
                                    [&](auto k) { return get<k>(parts).identity_value(); });
  return make_spec < indexed ? arg_indexing<NA>
                             : index_mode::none > (parts_map<indexed, Pre, P...>{pre, parts}, parts_op<P...>{parts}, id,
                                                   no_value{}, who, parts_empty_message<P...>());
}

/// Runs parts P... over the values `pre` gives on the broadcast operands `xs` (one array and the identity; an
/// expression's leaves and its function); returns std::tuple of the parts' results, or writes them to `out`'s
/// destinations (one per part, all of the reduced or the keepdims shape).
template <int NA, bool Keep, class TargetT, class OutT, class Pre, class... P, class... X>
auto run_parts(const char* who, const TargetT* tp, OutT* outp, const int* axes, const tuple<P...>& parts,
               const Pre& pre, const X&... xs) {
  static_assert(NA <= 1 || !(P::indexed || ...), "ufx::reducers: with ufx::argmin / argmax among the reductions, "
                                                 "name one axis at most (NumPy's axis is an int there)");
  const auto spec = parts_spec<NA>(who, pre, parts);
  using Res = parts_result<P...>;
  constexpr std::size_t NP = sizeof...(P);
  if constexpr (std::is_void_v<OutT> && NA == 0 && !Keep) {
    const Res r = reduce_run<0, false>(spec, tp, static_cast<const void*>(nullptr), axes, xs...);
    return with_indices<NP>([&]<std::size_t... K>(std::index_sequence<K...>) {
      return std::tuple<std::remove_cvref_t<decltype(get<K>(r))>...>(get<K>(r)...);
    });
  } else {
    const call_scope scope(who, axes, NA);
    auto ins = std::make_tuple(adapt_in(xs)...);
    using shapes = reduce_shapes<NA, Keep, X...>;
    constexpr int RR = shapes::RR;
    const shapes sh(ins, axes);
    const dims &rshape = sh.rshape, &kshape = sh.kshape;
    const auto seq = std::index_sequence_for<P...>{};
    if constexpr (!std::is_void_v<OutT>) {
      static_assert(std::tuple_size_v<decltype(outp->dst)> == NP,
                    "ufx::out: name one destination for each reduction of ufx::reducers (ufx::minmax: two)");
      auto& dst = const_cast<std::remove_const_t<OutT>*>(outp)->dst;
      const auto o0 = adapt_out(std::get<0>(dst));
      const dims shape0(o0.view.shape());
      check_reduce_output(shape0, rshape, kshape);
      with_indices<NP>([&]<std::size_t... K>(std::index_sequence<K...>) {
        (
            [&] {
              const dims s(adapt_out(std::get<K>(dst)).view.shape());
              if (!(s == shape0))
                fail<shape_error>("ufx::out: the destinations of one multi-reduction share one shape; destination " +
                                  std::to_string(K) + " has shape " + format_shape(s) + ", destination 0 " +
                                  format_shape(shape0));
            }(),
            ...);
      });
      constexpr bool on_device =
          kind_of<std::tuple_element_t<0, std::remove_cvref_t<decltype(dst)>>>() == container_kind::device;
      auto tmp = parts_temporary<Res, decltype(o0)::rank, on_device>(shape0, o0.space);
      auto o = ufx::out(tmp);
      reduce_run<NA, Keep>(spec, tp, &o, axes, xs...);
      std::apply([&](auto&... d) { split_parts(tp, tmp, seq, d...); }, dst);
    } else {
      device_set_of<reaches_device<OutT, X...>> device;
      note_spaces(ins, device);
      const memory_space where = result_space(tp, device);
      auto tmp = parts_temporary<Res, RR, result_rule<Res, RR, X...>::any_device>(rshape, where);
      auto o = ufx::out(tmp);
      reduce_run<NA, Keep>(spec, tp, &o, axes, xs...);
      return with_indices<NP>([&]<std::size_t... K>(std::index_sequence<K...>) {
        auto results = std::make_tuple(
            result_rule<std::remove_cvref_t<decltype(get<K>(std::declval<Res&>()))>, RR, X...>::make(rshape, where)...);
        std::apply([&](auto&... d) { split_parts(tp, tmp, seq, d...); }, results);
        return results;
      });
    }
  }
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
