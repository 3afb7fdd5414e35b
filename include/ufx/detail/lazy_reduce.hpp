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
        constexpr std::size_t n = sizeof...(pos);
        static_assert(n == 1 || n == 2, "ufx: reduce an expression as r(e) or r(e, init), with a target first and "
                                        "ufx::axis{...}, ufx::keepdims, ufx::out(dst) last");
        const auto p = std::forward_as_tuple(pos...);
        const auto e = as_expression(std::get<0>(p));
        using Map = decltype(e.function());
        constexpr const char* msg = "zero-size array to reduction operation which has no identity";
        if constexpr (n == 1) {
          const reduce_spec<Map, Op, Id, no_value, index_mode::none> spec{e.function(), op, id, no_value{}, who, msg};
          return reduce_expression<NA, Keep>(spec, tp, outp, axes, e);
        } else {
          using I = std::remove_cvref_t<std::tuple_element_t<n - 1, decltype(p)>>;
          const reduce_spec<Map, Op, Id, I, index_mode::none> spec{e.function(), op, id, std::get<n - 1>(p), who, msg};
          return reduce_expression<NA, Keep>(spec, tp, outp, axes, e);
        }
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
        using Op = std::remove_cvref_t<std::tuple_element_t<1, decltype(p)>>;
        using Id = std::remove_cvref_t<std::tuple_element_t<2, decltype(p)>>;
        const reduce_spec<decltype(e.function()), Op, Id, no_value, index_mode::none> spec{
            e.function(), std::get<1>(p), std::get<2>(p), no_value{}, "ufx::reduce", ""};
        return reduce_expression<NA, Keep>(spec, tp, outp, axes, e);
      },
      a...);
}

template <bool Max, class... A>
decltype(auto) lazy_arg_call(const A&... a) {
  return with_call_args(
      [&]<int NA, bool Keep>(auto tp, auto outp, const int* axes, const auto&... pos) -> decltype(auto) {
        check_arg_args<sizeof...(pos), NA>();
        const auto e = as_expression(pos...);
        constexpr index_mode im = NA == 0 ? index_mode::flat : index_mode::along_axis;
        using Map = fused_arg_map<std::remove_cvref_t<decltype(e.tree())>>;
        const reduce_spec<Map, arg_better<Max>, no_value, no_value, im> spec{
            Map{e.tree()},
            arg_better<Max>{},
            no_value{},
            no_value{},
            Max ? "ufx::argmax" : "ufx::argmin",
            Max ? "attempt to get argmax of an empty sequence" : "attempt to get argmin of an empty sequence"};
        return reduce_expression<NA, Keep>(spec, tp, outp, axes, e);
      },
      a...);
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
