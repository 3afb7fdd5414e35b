#pragma once
// The traits the front doors test to build or refuse an expression (ufx/expression.hpp defines what ufx::lazy marks;
// detail/lazy.hpp builds expressions; guvectorize refuses them without including either).
#include <tuple>
#include <type_traits>

#include "ufx/config.hpp"

namespace ufx {

/// ufx::lazy(x) (ufx/expression.hpp).
template <class C>
struct lazy_operand;

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
