#pragma once
// Reductions of expressions (ufx::lazy): `ufx::sum(e)`, a reducer, `ufx::reduce(e, op, id, ...)` and `ufx::argmin /
// argmax(e)` reduce the expression's function over its leaves through reduce_run, as transform_reduce does: one pass,
// no temporary the size of the expression.
#include <tuple>
#include <type_traits>
#include <utility>

#include "ufx/expression.hpp"
#include "ufx/detail/reduce.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// A lazy argument as an expression (a lazy operand alone: its one leaf, as it is).
template <class A>
auto as_expression(const A& a) {
  auto p = lazy_part(a);
  return make_expression(std::move(p.first), std::move(p.second));
}

/// reduce_run of `spec`'s map over an expression's leaves.
template <int NA, bool Keep, class Spec, class TargetT, class OutT, class E>
decltype(auto) reduce_expression(const Spec& spec, const TargetT* tp, OutT* outp, const int* axes, const E& e) {
  return std::apply(
      [&](const auto&... l) -> decltype(auto) { return reduce_run<NA, Keep>(spec, tp, outp, axes, l...); }, e.leaves());
}

/// `r(e)`, `r(e, init)` for a reducer by `op` with identity `id`, and their options.
template <class Op, class Id, class... A>
decltype(auto) lazy_reducer_call(const char* who, const Op& op, const Id& id, const A&... a) {
  return with_call_args(
      [&]<int NA, bool Keep>(auto tp, auto outp, const int* axes, const auto&... pos) -> decltype(auto) {
        static_assert(sizeof...(pos) == 1 || sizeof...(pos) == 2,
                      "ufx: reduce an expression as r(e) or r(e, init), with a target first and "
                      "ufx::axis{...}, ufx::keepdims, ufx::out(dst) last");
        const auto p = std::forward_as_tuple(pos...);
        const auto e = as_expression(std::get<0>(p));
        return reduce_expression<NA, Keep>(make_spec(e.function(), op, id, init_of(p), who, no_identity_message), tp,
                                           outp, axes, e);
      },
      a...);
}

template <class... A>
decltype(auto) lazy_reduce_call(const A&... a) {
  return with_call_args(
      [&]<int NA, bool Keep>(auto tp, auto outp, const int* axes, const auto&... pos) -> decltype(auto) {
        check_reduce_args<sizeof...(pos)>();
        const auto p = std::forward_as_tuple(pos...);
        const auto e = as_expression(std::get<0>(p));
        return reduce_expression<NA, Keep>(
            make_spec(e.function(), std::get<1>(p), std::get<2>(p), no_value{}, "ufx::reduce", ""), tp, outp, axes, e);
      },
      a...);
}

template <bool Max, class... A>
decltype(auto) lazy_arg_call(const A&... a) {
  return with_call_args(
      [&]<int NA, bool Keep>(auto tp, auto outp, const int* axes, const auto&... pos) -> decltype(auto) {
        check_arg_args<sizeof...(pos), NA>();
        const auto e = as_expression(pos...);
        using Map = fused_arg_map<std::remove_cvref_t<decltype(e.tree())>>;
        return reduce_expression<NA, Keep>(arg_spec<Max, NA>(Map{e.tree()}), tp, outp, axes, e);
      },
      a...);
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
