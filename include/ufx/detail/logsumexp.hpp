#pragma once
// The body of ufx::logsumexp: a reduction whose accumulator is (max, sum of exp(v - max)). Two accumulators combine by
// rescaling the smaller side's sum to the larger max, so no exp ever sees a positive argument (no overflow) and the
// result keeps the precision of the largest terms; the finishing step is max + log(sum). It runs through reduce_run
// like every reduction (pairwise on the CPU, lanes on devices, chunks for data larger than a device).
#include <math.h>

#include <limits>
#include <type_traits>
#include <utility>

#include "ufx/detail/core/tuple.hpp"
#include "ufx/config.hpp"
#include "ufx/detail/reduce.hpp"

namespace ufx::detail {

/// A partial logsumexp: `max` of the values seen and `sum` of exp(value - max) over them. The empty one is (-inf, 0).
template <class T>
struct lse_acc {
  T max;
  T sum;
};

template <class T>
UFX_HD inline T lse_exp(T v) {
  if constexpr (std::is_same_v<T, float>) return ::expf(v);
  else return static_cast<T>(::exp(static_cast<double>(v)));
}
template <class T>
UFX_HD inline T lse_log(T v) {
  if constexpr (std::is_same_v<T, float>) return ::logf(v);
  else return static_cast<T>(::log(static_cast<double>(v)));
}

/// max + log(sum); a +-inf or NaN max is the result (-inf for an empty or all -inf reduction); as R (float16 and
/// bfloat16 computed in float, rounded once).
template <class T, class R = T>
struct lse_finish {
  UFX_HD R operator()(const lse_acc<T>& a) const {
    return static_cast<R>(real_finite(a.max) ? a.max + lse_log(a.sum) : a.max);
  }
};

/// Combines two partials: a NaN max wins; otherwise the larger max is kept and the other side's sum is scaled by
/// exp(its max - the larger) <= 1. When the larger max is +-inf (both -inf, or a +inf), the sums add unscaled (inf -
/// inf would be NaN); the finishing step ignores them.
template <class T, class R = T>
struct lse_op {
  using finish_type = lse_finish<T, R>;
  UFX_HD lse_acc<T> operator()(const lse_acc<T>& a, const lse_acc<T>& b) const {
    if (a.max != a.max) return a;
    if (b.max != b.max) return b;
    const bool a_hi = !(a.max < b.max);
    const lse_acc<T>& hi = a_hi ? a : b;
    const lse_acc<T>& lo = a_hi ? b : a;
    if (!real_finite(hi.max)) return {hi.max, hi.sum + lo.sum};
    return {hi.max, hi.sum + lo.sum * lse_exp(lo.max - hi.max)};
  }
};

/// lse_map makes each element a one-value partial already: no fold from the identity needed.
template <class T, class R>
inline constexpr bool seeds_with_elements<lse_op<T, R>> = true;

/// Maps the operands' elements to a one-value partial (v, 1): through `f` (the transform form) or as they are.
template <class T, class F>
struct lse_map {
  F f;
  template <class... V>
  UFX_HD lse_acc<T> operator()(const V&... v) const {
    return {static_cast<T>(UFX_USER_CALL(f, v...)), T(1)};
  }
};

/// The value logsumexp reduces: the map's result on the operands' elements, or the one element.
template <class F, class... V>
struct lse_value {
  static_assert(std::is_invocable_v<const F&, const V&...>,
                "ufx::logsumexp: the map cannot be called with the operands' element types (check the number of "
                "arguments and their types)");
  using type = std::decay_t<std::invoke_result_t<const F&, const V&...>>;
};

UFX_TU_NAMESPACE_BEGIN

/// logsumexp of `f` over the broadcast operands `args`, through reduce_run.
template <int NA, bool Keep, class F, class TargetT, class OutT, class... Args>
decltype(auto) run_logsumexp(const TargetT* tp, OutT* outp, const int* axes, const F& f, const Args&... args) {
  using V = typename lse_value<F, typename decltype(adapt_in(args))::value_type...>::type;
  constexpr bool real = std::is_arithmetic_v<V> || half_type<V>;
  static_assert(real, "ufx::logsumexp: the values reduced (the elements, or the map's results) must be real numbers");
  if constexpr (real) {
    using T = real_of<V>;
    const lse_acc<T> id{-std::numeric_limits<T>::infinity(), T(0)};
    return reduce_run<NA, Keep>(
        make_spec(lse_map<T, F>{f}, lse_op<T, real_result_of<V>>{}, id, no_value{}, "ufx::logsumexp", ""), tp, outp,
        axes, args...);
  }
}

/// `logsumexp(x)`, `logsumexp(x, y, ..., map)` and their options.
template <class... A>
decltype(auto) logsumexp_call(const A&... a) {
  return with_call_args(
      [&]<int NA, bool Keep>(auto tp, auto outp, const int* axes, const auto&... pos) -> decltype(auto) {
        constexpr std::size_t n = sizeof...(pos);
        static_assert(n >= 1, "ufx::logsumexp: call it as logsumexp(x) or logsumexp(x, y, ..., map), with an optional "
                              "target first and ufx::axis{...}, ufx::keepdims, ufx::out(dst) last");
        const auto p = std::forward_as_tuple(pos...);
        if constexpr (n == 1) {
          return run_logsumexp<NA, Keep>(tp, outp, axes, identity{}, std::get<0>(p));
        } else if constexpr (n >= 2) {
          using F = std::remove_cvref_t<std::tuple_element_t<n - 1, decltype(p)>>;
          static_assert(!operand_like<F>, "ufx::logsumexp: with more than one argument the last one is the map "
                                          "(logsumexp(x, y, ..., map)); reduce one array with logsumexp(x), "
                                          "along axes with ufx::axis{...}");
          if constexpr (!operand_like<F>) {
            return with_indices<n - 1>([&]<std::size_t... I>(std::index_sequence<I...>)->decltype(auto) {
              return run_logsumexp<NA, Keep>(tp, outp, axes, std::get<n - 1>(p), std::get<I>(p)...);
            });
          }
        }
      },
      a...);
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
