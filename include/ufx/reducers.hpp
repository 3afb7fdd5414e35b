#pragma once
/// \file reducers.hpp
/// Several reductions of one array in one pass, and NumPy's statistics.
///
///   auto [s, m] = ufx::reducers(ufx::sum, ufx::max)(x);                 // one pass, two results
///   auto [lo, hi] = ufx::minmax(x, ufx::axis{1});                       // arrays along axis 1
///   auto [v, i] = ufx::reducers(ufx::max, ufx::argmax)(x);              // the value and its index
///   double mu = ufx::mean(x);
///   auto sd = ufx::std(m, ufx::axis{0}, ufx::ddof{1});                   // np.std(m, axis=0, ddof=1)
///   auto [mu2, var2] = ufx::reducers(ufx::mean, ufx::var)(x);           // one pass for both
///
/// `ufx::reducers(r1, r2, ...)` takes reductions (ufx::reducer objects and the ready ones:
/// ufx::sum, prod, min, max, mean, var, std, argmin, argmax) and returns a reduction whose result
/// is a std::tuple of theirs. It reads its one operand once, on every target, along axes, and in
/// the chunked path of data larger than a device. Options: a target first, `ufx::axis{...}`
/// (one axis at most with argmin / argmax), `ufx::keepdims`, `ufx::out(d1, d2, ...)` (one
/// destination per reduction, all of one shape). Each result is its reduction's: min, max,
/// argmin, argmax and sums of integers (or of floats whose every partial sum is exact) equal what
/// the reduction gives alone; a float sum is the same pairwise kind of sum in another order
/// (within its rounding: the tuple accumulator has its own number of independent partials, and a
/// long float sum on a CPU target is not widened to double as ufx::sum's is).
///
/// Statistics. `ufx::mean`, `ufx::var` and `ufx::std` (with `ufx::ddof{k}`, NumPy's ddof) run
/// in one pass with Chan, Golub and LeVeque's pairwise update of (count, mean, squared
/// deviations), each partial's mean kept relative to a shift taken from its own elements, so data
/// far from 0 keep their digits. On every target var and std are within 5 ulps of the exact value
/// of the elements given (float: 6e-7 relative; measured at most 2.8e-7 for float near 1000) and
/// double within 1e-14 (measured at most 1.4e-15 near 1e9), the mean within 2 ulps (docs/fusion.md
/// has the table); the last bits differ between targets (other orders). They compute in the
/// element type for float and double, in double for integers and bool (NumPy's
/// rules), in float for float16 and bfloat16, whose statistics are rounded once to the element
/// type (NumPy's mean of float16 sums in float32 too; its var and std take float16 steps), and
/// for std::complex<T> in T, by parts: the mean is a std::complex<T> (a part whose mean is not
/// finite makes the other NaN, as np.mean's complex division), var and std a T (np.var of
/// complex64 is float32: the sum of |x - mean|^2 over n - ddof). Empty gives NaN (NumPy's
/// value, without its warning); `n <= ddof` gives inf (or NaN when every deviation is 0); an inf element gives an inf
/// mean and a NaN variance; a NaN gives NaN. `ufx::minmax(x)` is `reducers(ufx::min, ufx::max)` returned as a
/// std::pair.
///
/// Errors. As reductions: `ufx::shape_error` (axes, out shapes, destinations of different
/// shapes), `ufx::value_error` for an empty array when a reduction has no identity (min, max,
/// argmin, argmax), `ufx::device_error`.

#include <tuple>
#include <type_traits>
#include <utility>

namespace ufx {
/// NumPy's `ddof` for ufx::var and ufx::std: the divisor is `n - ddof` (0 by default; 1 gives
/// the unbiased sample variance).
struct ddof {
  /// The delta degrees of freedom.
  int value = 0;
};
} // namespace ufx

#include "ufx/detail/reducers.hpp"
#include "ufx/reduce.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// The part for elements of type V of each reduction ufx::reducers takes.
template <class V, class Op, class Id>
auto part_of(const reduction<Op, Id>& r) {
  op_part<Op, Id, V> p{r.op()};
  if constexpr (!std::is_same_v<Id, no_value>) p.id = static_cast<typename op_part<Op, Id, V>::acc>(r.identity());
  return p;
}
template <class V, bool Max>
arg_part<Max, V> part_of(const arg_fn<Max>&) {
  return {};
}

template <class R>
struct is_reduction_part : std::false_type {};
template <class Op, class Id>
struct is_reduction_part<reduction<Op, Id>> : std::true_type {};
template <bool Max>
struct is_reduction_part<arg_fn<Max>> : std::true_type {};

/// Calls fn(parts...) with each reduction's part for the operand's element type, then runs them (on one operand).
template <class MakeParts, class... A>
decltype(auto) parts_call(const char* who, const MakeParts& make_parts, const A&... a) {
  static_assert(!any_distributed<A...>, "ufx::reducers / mean / var / std / minmax: distributed operands (ufx::mpi) "
                                        "are not supported; reduce each statistic on its own, or gather first");
  if constexpr (!any_distributed<A...>)
    return with_call_args(
        [&]<int NA, bool Keep>(auto tp, auto outp, const int* axes, const auto&... pos) -> decltype(auto) {
          static_assert(sizeof...(pos) == 1,
                        "ufx::reducers / mean / var / std / minmax: call it on one array, r(x), with "
                        "an optional target first and ufx::axis{...}, ufx::keepdims, ufx::out(...) "
                        "last (var and std: ufx::ddof{k} too)");
          // the parts reduce the values `pre` gives on the operands' elements (an expression's: its leaves')
          if constexpr (sizeof...(pos) == 1)
            return with_reduced(
                [&](const auto& pre, const auto&... xs) {
                  using V = std::decay_t<decltype(pre(std::declval<typename decltype(adapt_in(xs))::value_type>()...))>;
                  return run_parts<NA, Keep>(who, tp, outp, axes, make_parts(std::type_identity<V>{}), pre, xs...);
                },
                pos...);
        },
        a...);
}

/// `x` in a one-element tuple unless it is a ufx::ddof (taken off the arguments of var / std).
template <class X>
auto unless_ddof(const X& x) {
  if constexpr (std::is_same_v<X, ufx::ddof>) return std::tuple<>{};
  else return std::tuple<const X&>(x);
}

/// What ufx::mean, ufx::var and ufx::std are: callable like functions (`ufx::var(x, ufx::ddof{1})`),
/// configured (`ufx::var(ufx::ddof{1})` is var with that ddof, for ufx::reducers), and parts of
/// ufx::reducers.
template <stat_kind K>
struct stat_fn {
  int ddof_ = 0;

  /// The same statistic with NumPy's `ddof`.
  constexpr stat_fn operator()(ufx::ddof d) const requires(K != stat_kind::mean) { return {d.value}; }

  /// `[target,] x [, ufx::axis{...}] [, ufx::keepdims] [, ufx::ddof{k}] [, ufx::out(dst)]`.
  template <class... A>
  auto operator()(const A&... a) const {
    constexpr int n_ddof = (0 + ... + (std::is_same_v<A, ufx::ddof> ? 1 : 0));
    static_assert(K != stat_kind::mean || n_ddof == 0, "ufx::mean: ddof belongs to ufx::var and ufx::std");
    static_assert(n_ddof <= 1, "ufx::var / std: ufx::ddof given twice");
    int d = ddof_;
    (
        [&] {
          if constexpr (std::is_same_v<A, ufx::ddof>) d = a.value;
        }(),
        ...);
    const stat_fn with{d};
    return std::apply([&](const auto&... r) { return with.call(r...); }, std::tuple_cat(unless_ddof(a)...));
  }

  template <class V>
  moments_part<V, stat_result<V, K>> part() const {
    static_assert(std::is_arithmetic_v<V> || half_type<V> || is_std_complex<V>,
                  "ufx::mean / var / std: the elements must be numbers (real or std::complex)");
    return {K, ddof_};
  }

private:
  static constexpr const char* who = K == stat_kind::mean ? "ufx::mean" : K == stat_kind::var ? "ufx::var" : "ufx::std";
  template <class... A>
  auto call(const A&... a) const {
    auto run = [&] {
      return parts_call(
          who, [&]<class V>(std::type_identity<V>) { return detail::make_tuple(part<V>()); }, a...);
    };
    if constexpr (std::is_void_v<decltype(run())>) run();
    else return std::get<0>(run()); // the one statistic, by value
  }
};

template <stat_kind K>
struct is_reduction_part<stat_fn<K>> : std::true_type {};

template <class V, stat_kind K>
moments_part<V, stat_result<V, K>> part_of(const stat_fn<K>& s) {
  return s.template part<V>();
}

/// What ufx::minmax is.
struct minmax_fn {
  /// `[target,] x [, ufx::axis{...}] [, ufx::keepdims] [, ufx::out(lo, hi)]`: std::pair (lo, hi).
  template <class... A>
  auto operator()(const A&... a) const {
    auto run = [&] {
      return parts_call(
          "ufx::minmax",
          [&]<class V>(std::type_identity<V>) {
            return detail::make_tuple(op_part<ops::minimum, no_value, V>{}, op_part<ops::maximum, no_value, V>{});
          },
          a...);
    };
    if constexpr (std::is_void_v<decltype(run())>) {
      run();
    } else {
      auto r = run();
      return std::make_pair(std::get<0>(std::move(r)), std::get<1>(std::move(r)));
    }
  }
};

/// What ufx::reducers returns: a reduction whose result is the tuple of its reductions' results.
template <class... Rs>
class multi_reduction {
public:
  explicit multi_reduction(const Rs&... rs) : rs_(rs...) {}

  /// `r(x)`, `r(target, x, ...)`, with `ufx::axis{...}`, `ufx::keepdims`, `ufx::out(d1, ...)`.
  template <class... A>
  decltype(auto) operator()(const A&... a) const {
    return parts_call(
        "ufx::reducers",
        [&]<class V>(std::type_identity<V>) {
          return std::apply([](const auto&... r) { return detail::make_tuple(part_of<V>(r)...); }, rs_);
        },
        a...);
  }

private:
  std::tuple<Rs...> rs_;
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail

namespace ufx {
UFX_TU_NAMESPACE_BEGIN

/// Several reductions of one array in one pass: `ufx::reducers(ufx::sum, ufx::max)(x)` is the
/// std::tuple (sum, max). Takes ufx::reducer objects and ufx::sum, prod, min, max, mean, var
/// (configured: `ufx::var(ufx::ddof{1})`), std, argmin, argmax.
template <class... Rs>
detail::multi_reduction<std::decay_t<Rs>...> reducers(const Rs&... rs) {
  static_assert(sizeof...(Rs) > 0, "ufx::reducers: name at least one reduction");
  static_assert((detail::is_reduction_part<std::decay_t<Rs>>::value && ...),
                "ufx::reducers: each argument must be a reduction: a ufx::reducer(op, identity) object, or ufx::sum, "
                "prod, min, max, mean, var, std, argmin, argmax");
  return detail::multi_reduction<std::decay_t<Rs>...>(rs...);
}

/// NumPy's `np.mean`, in one pass: `[target,] x [, ufx::axis{...}] [, ufx::keepdims] [, ufx::out(dst)]`.
inline constexpr detail::stat_fn<detail::stat_kind::mean> mean{};

/// NumPy's `np.var` (`ufx::ddof{k}` for ddof=k), in one pass with a stable update.
inline constexpr detail::stat_fn<detail::stat_kind::var> var{};

/// NumPy's `np.std`: the square root of ufx::var.
inline constexpr detail::stat_fn<detail::stat_kind::std> std{};

/// The smallest and largest elements in one pass, as a std::pair (NaN wins, as ufx::min / max).
inline constexpr detail::minmax_fn minmax{};

UFX_TU_NAMESPACE_END
} // namespace ufx
