#pragma once
// What ufx::lazy marks, and the traits the front doors test to build or refuse an expression
// (detail/lazy.hpp builds them; guvectorize refuses them without including it).
#include <tuple>
#include <type_traits>

#include "ufx/adapter.hpp"
#include "ufx/config.hpp"

namespace ufx {

/// A lazy operand (ufx::lazy(x)): a call of a ufx::vectorize object with one gives an expression.
/// Holds x by reference: x must outlive the expression.
template <class C>
struct lazy_operand {
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

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <class T>
struct is_lazy_operand : std::false_type {};
template <class C>
struct is_lazy_operand<lazy_operand<C>> : std::true_type {};

template <class T>
struct is_expression : std::false_type {};

/// std::tie(...) of destinations (ufx::eval's several outputs).
template <class T>
struct is_tie : std::false_type {};
template <class... Z>
struct is_tie<std::tuple<Z&...>> : std::true_type {};

/// True when a call's arguments make an expression (a lazy operand or an expression among them).
template <class... A>
inline constexpr bool any_lazy =
    ((is_lazy_operand<std::remove_cvref_t<A>>::value || is_expression<std::remove_cvref_t<A>>::value) || ...);

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
