#pragma once
/// \file expression.hpp
/// The names of fused calls: `ufx::lazy(x)`, `ufx::expression`, `ufx::eval`. ufx/lazy.hpp says how
/// they run and what they promise; ufx/vectorize.hpp includes this header, since a vectorize
/// object called with a lazy operand returns an expression.
#include <tuple>
#include <type_traits>
#include <utility>

#include "ufx/adapter.hpp"
#include "ufx/config.hpp"
#include "ufx/detail/core/lazy_traits.hpp"

namespace ufx {

/// A lazy operand (ufx::lazy(x)): a call of a ufx::vectorize object with one gives an expression.
/// Holds x by reference: x must outlive the expression.
template <class C>
struct lazy_operand {
  /// The operand marked.
  const C* p;
};

/// Marks `x` as a lazy operand: `add(mul(ufx::lazy(x), 2.f), y)` is an expression, computed in one
/// pass when it is assigned to a container, evaluated (ufx::eval) or reduced. It refers to x, as
/// the expression does: an expression of a function's locals must not be returned from it
/// (ufx/lazy.hpp: return `ufx::eval(e)` instead).
template <class C>
lazy_operand<C> lazy(const C& x UFX_LIFETIMEBOUND) {
  static_assert(array_like<C>, "ufx::lazy: mark an array operand (a container or view ufx accepts)");
  return {&x};
}
template <class C>
void lazy(const C&&) = delete; // a temporary would be gone before the expression runs

} // namespace ufx

#include "ufx/detail/lazy.hpp" // the trees an expression holds, and how it runs

namespace ufx {
UFX_TU_NAMESPACE_BEGIN

/// An expression of ufx::vectorize calls over lazy operands. It holds its
/// leaves by reference (arrays given as lvalues, lazy operands) or by value (scalars, temporaries).
/// Run it by assigning it to its result container (`std::vector<float> z = e;`), with ufx::eval,
/// or by reducing it (`ufx::sum(e)`, `ufx::reduce(e, op, identity, ...)`, `ufx::argmax(e)`).
template <class Tree, class... L>
class expression {
public:
  /// The container the eager calls would return (vectorize's result rules over the leaves).
  using result_type = decltype(detail::vectorize_call(std::declval<const detail::fused_fn<Tree>&>(),
                                                      std::declval<const std::remove_reference_t<L>&>()...));

  /// The tree of the calls' functions over `leaves` (ufx::vectorize objects build these).
  expression(Tree tree, std::tuple<L...> leaves) : tree_(std::move(tree)), leaves_(std::move(leaves)) {}

  /// The tree of the calls' functions.
  const Tree& tree() const { return tree_; }
  /// The leaves: every array and scalar of the calls, in order.
  const std::tuple<L...>& leaves() const { return leaves_; }
  /// The whole expression's function of one position of the leaves.
  detail::fused_fn<Tree> function() const { return {tree_}; }

  /// The call's result as the eager calls would give it: runs the expression in one pass.
  template <class C>
  requires std::is_same_v<C, result_type>
  operator C() const { return evaluate(); }

  /// The result, on the default target (or where the leaves live).
  result_type evaluate() const {
    return std::apply([&](const auto&... l) { return detail::vectorize_call(function(), l...); }, leaves_);
  }

private:
  Tree tree_;
  std::tuple<L...> leaves_;
};

/// Runs expressions: `ufx::eval(e [, target] [, ufx::out(dst)])` returns (or writes) what the eager
/// calls would, in one pass; `ufx::eval(std::tie(z1, z2), e1, e2 [, target])` writes several
/// expressions' results in one pass over all their leaves.
template <class First, class... A>
decltype(auto) eval(const First& first, const A&... a) {
  if constexpr (detail::is_expression<First>::value) return detail::eval_one(first, a...);
  else {
    static_assert(detail::is_tie<First>::value,
                  "ufx::eval: the first argument is an expression (ufx::lazy) or std::tie(destinations...)");
    if constexpr (detail::is_tie<First>::value) detail::eval_many(first, a...);
  }
}

UFX_TU_NAMESPACE_END
} // namespace ufx
