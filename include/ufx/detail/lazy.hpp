#pragma once
// The body of ufx::lazy: a ufx::vectorize object called with a lazy operand (or an expression) returns an expression,
// not a result: a tree of the objects' functions over its leaves (the arrays and scalars of every call in it, in
// order). It runs as one vectorize call of the tree's function (fused_fn) over all leaves, so NumPy's broadcasting and
// errors hold across the expression on every target, and a reduction of it is one transform_reduce (no temporary).
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ufx/adapter.hpp"
#include "ufx/config.hpp"
#include "ufx/detail/core/lazy_traits.hpp"
#include "ufx/detail/core/reduce_ops.hpp"
#include "ufx/detail/core/tuple.hpp"
#include "ufx/detail/vectorize.hpp"
#include "ufx/out.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// A leaf of the expression tree: one leaf value.
struct slot {};

/// A call node: the function and its arguments' trees.
template <class F, class... K>
struct fused_node {
  F f;
  tuple<K...> kids;
};

/// The number of leaves under a tree.
template <class K>
inline constexpr std::size_t width = 1;
template <class F, class... K>
inline constexpr std::size_t width<fused_node<F, K...>> = (std::size_t{0} + ... + width<K>);

/// The leaf offset of child J of a node with children K...
template <std::size_t J, class... K>
constexpr std::size_t kid_offset() {
  constexpr std::size_t w[] = {width<K>..., 0};
  std::size_t o = 0;
  for (std::size_t j = 0; j != J; ++j) o += w[j];
  return o;
}

template <std::size_t Off, class Tup>
UFX_HD const auto& fused_eval(const slot&, const Tup& t) {
  return get<Off>(t);
}
template <std::size_t Off, class Tup, class F, class... K, std::size_t... J>
UFX_HD auto fused_call(const fused_node<F, K...>& n, const Tup& t, std::index_sequence<J...>) {
  return UFX_USER_CALL(n.f, fused_eval<Off + kid_offset<J, K...>()>(get<J>(n.kids), t)...);
}
template <std::size_t Off, class Tup, class F, class... K>
UFX_HD auto fused_eval(const fused_node<F, K...>& n, const Tup& t) {
  return fused_call<Off>(n, t, std::index_sequence_for<K...>{});
}

/// The users' functions of a tree (run.hpp's host_only_lambda checks them).
template <class K>
struct tree_functions {
  using type = std::tuple<>;
};
template <class F, class... K>
struct tree_functions<fused_node<F, K...>> {
  using type =
      decltype(std::tuple_cat(std::declval<std::tuple<F>>(), std::declval<typename tree_functions<K>::type>()...));
};

/// The function of a whole expression: its tree evaluated at one position of the leaves. Each node's value is its
/// function's result, as the eager call would store it.
template <class Tree>
struct fused_fn {
  using user_functions = typename tree_functions<Tree>::type;
  Tree tree;
  template <class... V>
  UFX_HD auto operator()(const V&... v) const {
    const tuple<V...> t{{{v}...}};
    return fused_eval<0>(tree, t);
  }
};

/// Several trees over their leaves in turn, values as a tuple: ufx::eval(std::tie(z1, z2), e1, e2)'s one pass.
template <class... T>
struct fused_many {
  using user_functions = decltype(std::tuple_cat(std::declval<typename tree_functions<T>::type>()...));
  tuple<T...> trees;
  template <class... V>
  UFX_HD auto operator()(const V&... v) const {
    const tuple<V...> t{{{v}...}};
    return call(t, std::index_sequence_for<T...>{});
  }

private:
  template <class Tup, std::size_t... J>
  UFX_HD auto call(const Tup& t, std::index_sequence<J...>) const {
#if UFX_HAS_CUDA_STD_TUPLE && UFX_CUDA_TU
    return cuda::std::make_tuple(fused_eval<kid_offset<J, T...>()>(get<J>(trees), t)...);
#else
    return std::make_tuple(fused_eval<kid_offset<J, T...>()>(get<J>(trees), t)...);
#endif
  }
};

/// argmin / argmax of an expression: (the tree's value, index) pairs, the index being the last argument.
template <class Tree>
struct fused_arg_map {
  using user_functions = typename tree_functions<Tree>::type;
  static constexpr bool takes_index = true; // the leaves' values, then the index
  Tree tree;
  template <class... A>
  UFX_HD auto operator()(const A&... a) const {
    const tuple<A...> t{{{a}...}};
    using V = decltype(fused_eval<0>(tree, t));
    return arg_pair<V>{fused_eval<0>(tree, t), get<sizeof...(A) - 1>(t)};
  }
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail

namespace ufx {
UFX_TU_NAMESPACE_BEGIN
/// Defined in ufx/expression.hpp, after these trees.
template <class Tree, class... L>
class expression;
UFX_TU_NAMESPACE_END
} // namespace ufx

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <class Tree, class... L>
struct is_expression<expression<Tree, L...>> : std::true_type {};

/// One argument of a lazy call as (its tree, its leaves): a lazy operand or an lvalue array is a leaf by reference, a
/// scalar or a temporary array a leaf by value, an expression its own.
template <class A>
auto lazy_part(A&& a) {
  using D = std::remove_cvref_t<A>;
  if constexpr (is_lazy_operand<D>::value) {
    return std::pair(slot{}, std::tuple<const std::remove_cvref_t<decltype(*a.p)>&>(*a.p));
  } else if constexpr (is_expression<D>::value) {
    return std::pair(a.tree(), a.leaves());
  } else if constexpr (std::is_lvalue_reference_v<A> && !scalar_like<D>) {
    return std::pair(slot{}, std::tuple<const D&>(a));
  } else {
    return std::pair(slot{}, std::tuple<D>(std::forward<A>(a)));
  }
}

template <class Tree, class... L>
expression<Tree, L...> make_expression(Tree tree, std::tuple<L...>&& leaves) {
  return {std::move(tree), std::move(leaves)};
}

template <class F, class... A>
auto lazy_tree(const F& f, A&&... args);

template <class E>
struct expression_value;
template <class Tree, class... L>
struct expression_value<expression<Tree, L...>> {
  using type = std::invoke_result_t<const fused_fn<Tree>&,
                                    typename decltype(adapt_in(
                                        std::declval<const std::remove_reference_t<L>&>()))::value_type...>;
};
/// The element type an argument of a lazy call gives the node's function, as an operand type for inputs_cast_ok
/// (input_casts.hpp): arrays, lazy operands and expressions (an eager call's result array) are typed; scalars are weak.
template <class D>
auto lazy_operand_of() {
  if constexpr (is_lazy_operand<D>::value)
    return typed_operand<typename decltype(adapt_in(*std::declval<D>().p))::value_type>{};
  else if constexpr (is_expression<D>::value) return typed_operand<typename expression_value<D>::type>{};
  else return decltype(adapt_in(std::declval<const D&>())){};
}

template <class Rule, class F, class... A>
auto lazy_call_ruled(const F& f, A&&... args) {
  constexpr bool plain =
      !(any_target<std::remove_cvref_t<A>> || ...) && !(is_out<std::remove_cvref_t<A>>::value || ...);
  static_assert(plain, "ufx::lazy: a call with a lazy operand builds an expression and takes no target or ufx::out; "
                       "give them to ufx::eval(e, target, ufx::out(dst))");
  static_assert(inputs_cast_ok<F, Rule, decltype(lazy_operand_of<std::remove_cvref_t<A>>())...>());
  if constexpr (plain) return lazy_tree(f, std::forward<A>(args)...);
}

/// `f(args...)` with a lazy operand or an expression among args: the expression. A casting rule may come last.
template <class F, class... A>
auto lazy_call(const F& f, A&&... args) {
  using Last = std::remove_cvref_t<std::tuple_element_t<sizeof...(A) - 1, std::tuple<A...>>>;
  if constexpr (is_casting_v<Last>) {
    auto t = std::forward_as_tuple(std::forward<A>(args)...);
    return with_indices<sizeof...(A) - 1>([&]<std::size_t... I>(std::index_sequence<I...>) {
      return lazy_call_ruled<Last>(f, std::get<I>(std::move(t))...);
    });
  } else {
    return lazy_call_ruled<casting::safe_t>(f, std::forward<A>(args)...);
  }
}

template <class F, class... A>
auto lazy_tree(const F& f, A&&... args) {
  auto parts = std::make_tuple(lazy_part(std::forward<A>(args))...);
  return std::apply(
      [&](auto&... p) {
        using Tree = fused_node<F, std::remove_cvref_t<decltype(p.first)>...>;
        return make_expression(Tree{f, detail::make_tuple(p.first...)}, std::tuple_cat(std::move(p.second)...));
      },
      parts);
}

template <class E, class... A>
decltype(auto) eval_run(const E& e, const A&... a);

/// ufx::eval(e [, target] [, ufx::out(dst...)]).
template <class E, class... A>
decltype(auto) eval_one(const E& e, const A&... a) {
  constexpr std::size_t n = sizeof...(A);
  using T0 = std::tuple_element_t<0, std::tuple<A..., void>>;
  using T1 = std::tuple_element_t<n == 2 ? 1 : 0, std::tuple<A..., void>>;
  constexpr bool ok = n == 0 ||
                      (n == 1 && (any_target<std::remove_cvref_t<T0>> || is_out<std::remove_cvref_t<T0>>::value)) ||
                      (n == 2 && any_target<std::remove_cvref_t<T0>> && is_out<std::remove_cvref_t<T1>>::value);
  static_assert(ok, "ufx::eval: call it as eval(e), eval(e, target), eval(e, ufx::out(dst)) or eval(e, target, "
                    "ufx::out(dst)); several expressions: eval(std::tie(z1, z2), e1, e2)");
  if constexpr (ok) return eval_run(e, a...);
}

template <class E, class... A>
decltype(auto) eval_run(const E& e, const A&... a) {
  // one tuple (target, leaves, out): nvcc's front end rejects a lambda's pack beside its enclosing function's
  constexpr std::size_t n = sizeof...(A);
  using T0 = std::remove_cvref_t<std::tuple_element_t<0, std::tuple<A..., void>>>;
  const auto opts = std::forward_as_tuple(a...);
  auto args = [&] {
    if constexpr (n == 0) return std::tuple_cat(e.leaves());
    else if constexpr (n == 1 && any_target<T0>) return std::tuple_cat(opts, e.leaves());
    else if constexpr (n == 1) return std::tuple_cat(e.leaves(), opts);
    else
      return std::tuple_cat(std::forward_as_tuple(std::get<0>(opts)), e.leaves(),
                            std::forward_as_tuple(std::get<1>(opts)));
  }();
  const auto f = e.function();
  return std::apply([&](const auto&... x) -> decltype(auto) { return vectorize_call(f, x...); }, args);
}

template <bool targeted, class... Z, class... A>
void eval_many_run(const std::tuple<Z&...>& dst, const A&... a);

/// ufx::eval(std::tie(z1, ...), e1, ... [, target]): one pass over every expression's leaves.
template <class... Z, class... A>
void eval_many(const std::tuple<Z&...>& dst, const A&... a) {
  constexpr std::size_t n = sizeof...(A);
  using Last = std::remove_cvref_t<std::tuple_element_t<n - 1, std::tuple<A...>>>;
  constexpr bool targeted = any_target<Last>;
  constexpr std::size_t ne = targeted ? n - 1 : n;
  static_assert(ne == sizeof...(Z), "ufx::eval: name one destination in std::tie(...) for each expression");
  if constexpr (ne == sizeof...(Z)) eval_many_run<targeted>(dst, a...);
}

template <bool targeted, class... Z, class... A>
void eval_many_run(const std::tuple<Z&...>& dst, const A&... a) {
  constexpr std::size_t n = sizeof...(A);
  constexpr std::size_t ne = targeted ? n - 1 : n;
  using Args = std::tuple<std::remove_cvref_t<A>...>;
  constexpr bool all_expressions = with_indices<ne>([]<std::size_t... J>(std::index_sequence<J...>) {
    return (is_expression<std::tuple_element_t<J, Args>>::value && ...);
  });
  static_assert(all_expressions, "ufx::eval: after std::tie(...) come the expressions (then an optional target)");
  if constexpr (all_expressions) {
    const auto args = std::forward_as_tuple(a...);
    // one tuple of the call's arguments (target, every expression's leaves, out), as in eval_run
    auto call = with_indices<ne>([&]<std::size_t... J>(std::index_sequence<J...>) {
      const fused_many<std::remove_cvref_t<decltype(std::get<J>(args).tree())>...> f{
          detail::make_tuple(std::get<J>(args).tree()...)};
      auto leaves = std::tuple_cat(std::get<J>(args).leaves()...);
      return std::pair(f, std::move(leaves));
    });
    const auto o = std::apply([](auto&... z) { return ufx::out(z...); }, dst);
    auto all = [&] {
      if constexpr (targeted)
        return std::tuple_cat(std::forward_as_tuple(std::get<n - 1>(args)), call.second, std::forward_as_tuple(o));
      else return std::tuple_cat(call.second, std::forward_as_tuple(o));
    }();
    std::apply([&](const auto&... x) { vectorize_call(call.first, x...); }, all);
  }
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
