#pragma once
/// \file reduce.hpp
/// Reductions and scans: the counterpart of Numba's `@cuda.reduce`, NumPy's `ufunc.reduce` /
/// `ufunc.accumulate` and CuPy's `ReductionKernel`.
///
///   auto sum = ufx::reducer([] UFX_HD (float a, float b) { return a + b; }, 0.0f);
///   float s  = sum(x);                                   // the whole array
///   float s1 = sum(x, 10.0f);                            // op(init, sum(x)), Numba's init
///   auto cols = sum(m, ufx::axis{0});                    // along axes
///   auto k    = sum(a3, ufx::axis{0, 2}, ufx::keepdims); // NumPy's keepdims=True
///   sum(ufx::host, x);  sum(m, ufx::axis{1}, ufx::out(dst));
///   float t  = ufx::reduce(x, ufx::maximum, -INFINITY);         // a ufunc (ufx/ufuncs.hpp) or a function
///   float d  = ufx::transform_reduce(x, y, mul, ufx::plus{}, 0.0f);   // a dot product
///   auto c   = ufx::accumulate(x, ufx::plus{});                         // np.add.accumulate
///   ufx::index_t i = ufx::argmax(x);
///   float l  = ufx::logsumexp(x);                        // log(sum(exp(x))), without overflow
///   auto  k2 = ufx::logsumexp(xi, yj, map, ufx::axis{1}); // log(sum_j exp(map(x_i, y_j)))
///
/// Operators. A reduction folds (docs/reduce.md, "What op may assume"): each partial starts as the
/// identity, elements join it as `acc = op(acc, x)` (accumulator left, element right), and partials
/// combine as `op(acc1, acc2)`; which elements meet in which partial, and in what order, depend on
/// the target, so on accumulators `op` must be associative and commutative. Numba's |x| reducer
/// `b < 0 ? a - b : a + b` with identity 0 is exact. Without an identity a partial begins with its
/// first element as it is, so `op`'s left argument can be a raw element. The accumulator type is `op`'s result on two
/// elements (or two map results). Ready operators: `ufx::plus`, `multiplies`, `ops::minimum`, `ops::maximum` (a NaN
/// wins, as `np.minimum` / `np.maximum`), `ops::logical_and`, `ops::logical_or`; a ufx::vectorize object reduces by its
/// function (the ready ufuncs ufx::add, ufx::maximum, ... by the operators above).
///
/// Result types. As NumPy's: reductions and scans by `ufx::plus` and `ufx::multiplies` (`ufx::sum`,
/// `ufx::prod`, `accumulate`) take `bool` and integers narrower than 64 bits to `std::int64_t` (signed,
/// bool) or `std::uint64_t` (unsigned): `ufx::sum` of `{INT_MAX, INT_MAX, 7}` is 4294967301. Floats keep
/// their type; `ufx::float16` and `ufx::bfloat16` reductions by them accumulate in float and round
/// once to the element type (np.sum of float16), their scans round each step (np.cumsum of float16);
/// a user's operator keeps the types it returns (docs/element_types.md, "Reductions").
///
/// Results. Without an axis the result is a scalar (copied back from a device). With axes it is
/// a container by the rules of docs/vectorize.md with the reduced dimensions removed (or kept as 1 with
/// `ufx::keepdims`); an Eigen input keeps Eigen's shape: axis 0 gives 1 x cols, axis 1 gives
/// rows x 1, as `colwise()` / `rowwise()` do. `argmin` / `argmax` give `ufx::index_t` positions
/// (flat C-order without an axis); the first occurrence wins, and a NaN before any number.
///
/// logsumexp. `ufx::logsumexp(x)` is scipy.special.logsumexp: a stable log(sum(exp(x))), the
/// accumulator a (max, sum of exp(x - max)) pair that combines by rescaling to the larger max, so
/// nothing overflows (logsumexp of {1000, 1001} is 1001.313...). Empty gives -inf, all -inf -inf,
/// a +inf element +inf, a NaN NaN. Integers and bool compute in double, float in float, float16 and
/// bfloat16 in float, rounded once to their type. The transform form `ufx::logsumexp(x, y, ...,
/// map)` reduces `map` over the broadcast operands without storing its values (KeOps's
/// log-sum-exp of a kernel: map = -|x_i - y_j|^2 over (n, 1) and (m)).
///
/// Accuracy. Sums run in a pairwise order on every target (leaves of independent accumulators
/// on the CPU, interleaved lanes on devices), so a float32 sum is as accurate as NumPy's.
///
/// Targets. An optional first argument picks the target; without one a call runs where the data
/// lives, else on `ufx::default_target()`. Strided inputs are not copied on host targets.
///
/// Errors. `ufx::shape_error` for an axis out of range, a repeated axis, shapes that do not
/// broadcast, or an `out` of the wrong shape; `ufx::value_error` for an empty reduction without
/// identity ("zero-size array to reduction operation which has no identity") and for argmin /
/// argmax of an empty array; `ufx::device_error` for a target that cannot run here.

#include <type_traits>
#include <utility>

#include "ufx/axis.hpp"
#include "ufx/detail/distributed.hpp"
#include "ufx/detail/logsumexp.hpp"
#include "ufx/detail/reduce.hpp"
#include "ufx/detail/core/reduce_ops.hpp"
#include "ufx/detail/reduce_scan.hpp"
#include "ufx/out.hpp"
#include "ufx/targets.hpp"

namespace ufx {
UFX_TU_NAMESPACE_BEGIN

/// What `ufx::reducer` returns: call it like a NumPy reduction.
template <class Op, class Identity = detail::no_value>
class reduction {
public:
  /// A reduction by the binary function `op` with `identity` (a `detail::no_value` for none), named
  /// `name` (null: no name; it must outlive the reduction).
  constexpr reduction(Op op, Identity identity, const char* name = nullptr)
      : op_(std::move(op)), identity_(std::move(identity)), name_(name) {}

  /// `r(x)`, `r(x, init)`, `r(target, x, ...)`, then optionally `ufx::axis{...}`,
  /// `ufx::keepdims`, `ufx::out(dst)`.
  template <class... A>
  decltype(auto) operator()(const A&... args) const {
    const detail::label_scope label(name_);
    if constexpr (detail::any_distributed<A...>) return detail::distributed_call(*this, args...);
    else return detail::reducer_call(op_, identity_, args...);
  }

  /// The binary function.
  constexpr const Op& op() const { return op_; }
  /// The identity, the result of reducing an empty array (`detail::no_value` when there is none).
  constexpr const Identity& identity() const { return identity_; }

  /// This reduction with a name, which profiler ranges show ("reduce logaddexp axis=1",
  /// docs/performance.md; ufx::sum and the other ready reducers have theirs). `name` must outlive
  /// the reduction (a string literal does).
  constexpr reduction named(const char* name) const {
    reduction r = *this;
    r.name_ = name;
    return r;
  }
  /// The name given by named() or at construction, or null.
  constexpr const char* name() const { return name_; }

private:
  Op op_;
  Identity identity_;
  const char* name_ = nullptr;
};

/// A reduction by `op` whose empty result is `identity`.
/// (A ufx::vectorize object reduces by its function: `ufx::reducer(ufx::maximum, -INFINITY)`.)
template <class Op, class Identity>
auto reducer(const Op& op, Identity&& identity) {
  using O = std::decay_t<decltype(detail::as_operator(op))>;
  return reduction<O, std::decay_t<Identity>>(detail::as_operator(op), std::forward<Identity>(identity));
}

/// A reduction by `op` without identity: reducing an empty array throws ufx::value_error.
template <class Op>
auto reducer(const Op& op) {
  using O = std::decay_t<decltype(detail::as_operator(op))>;
  return reduction<O>(detail::as_operator(op), detail::no_value{});
}

/// `reduce(x, op, identity)` once: `[target,] x, op, identity [, ufx::axis{...}] [, ufx::keepdims] [, ufx::out(dst)]`.
template <class... A>
decltype(auto) reduce(const A&... args) {
  if constexpr (detail::any_distributed<A...>) return detail::distributed_call(detail::reduce_door{}, args...);
  else return detail::reduce_call(args...);
}

/// Maps `map` over the broadcast inputs and reduces the results by `op` without storing them:
/// `[target,] x, y, ..., map, op, identity [, ufx::axis{...}] [, ufx::keepdims] [, ufx::out(dst)]`.
template <class... A>
decltype(auto) transform_reduce(const A&... args) {
  if constexpr (detail::any_distributed<A...>)
    return detail::distributed_call(detail::transform_reduce_door{}, args...);
  else return detail::transform_reduce_call(args...);
}

/// Inclusive scan along one axis (axis 0 by default), as `np.add.accumulate`:
/// `[target,] x, op [, ufx::axis{k}] [, ufx::out(dst)]`. The result has x's shape.
template <class... A>
decltype(auto) accumulate(const A&... args) {
  if constexpr (detail::any_distributed<A...>) return detail::distributed_call(detail::accumulate_door{}, args...);
  else return detail::accumulate_call(args...);
}

UFX_TU_NAMESPACE_END
namespace detail {
UFX_TU_NAMESPACE_BEGIN
/// What ufx::argmin / ufx::argmax are: callable like a function, and a part of ufx::reducers.
template <bool Max>
struct arg_fn {
  /// `[target,] x [, ufx::axis{k}] [, ufx::keepdims] [, ufx::out(dst)]`.
  template <class... A>
  decltype(auto) operator()(const A&... args) const {
    if constexpr (detail::any_distributed<A...>) return detail::distributed_call(detail::arg_door<Max>{}, args...);
    else return detail::arg_call<Max>(args...);
  }
};
UFX_TU_NAMESPACE_END
} // namespace detail
UFX_TU_NAMESPACE_BEGIN

/// Position of the smallest element (flat C order), or along `ufx::axis{k}`; first occurrence wins.
inline constexpr detail::arg_fn<false> argmin{};

/// Position of the largest element (flat C order), or along `ufx::axis{k}`; first occurrence wins.
inline constexpr detail::arg_fn<true> argmax{};

/// NumPy's `np.sum`: `ufx::sum(x)`, with a reducer's options (a target first, `ufx::axis{...}`,
/// `ufx::keepdims`, `ufx::out(dst)`; `ufx::sum(x, init)` adds init). An empty sum is 0.
inline constexpr reduction<plus, int> sum{plus{}, 0, "sum"};

/// NumPy's `np.prod`; an empty product is 1.
inline constexpr reduction<multiplies, int> prod{multiplies{}, 1, "prod"};

/// NumPy's `np.min`: the smallest element, a NaN if there is one; an empty array throws
/// ufx::value_error (`ufx::min(x, init)` is NumPy's `initial=`, also the result of an empty x).
inline constexpr reduction<ops::minimum> min{ops::minimum{}, detail::no_value{}, "min"};

/// NumPy's `np.max`: the largest element, a NaN if there is one (as ufx::min).
inline constexpr reduction<ops::maximum> max{ops::maximum{}, detail::no_value{}, "max"};

/// log(sum(exp(x))) without overflow, as scipy.special.logsumexp:
/// `[target,] x [, ufx::axis{...}] [, ufx::keepdims] [, ufx::out(dst)]`; or of a map over broadcast
/// operands, not stored: `[target,] x, y, ..., map [, options]`.
template <class... A>
decltype(auto) logsumexp(const A&... args) {
  return detail::logsumexp_call(args...);
}

UFX_TU_NAMESPACE_END
} // namespace ufx
