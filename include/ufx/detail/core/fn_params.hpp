#pragma once
// A function's parameters, when it has exactly one parameter list (a plain function, or a class with one non-template
// call operator): for every front door's casting checks, guvectorize's signature checks and raw kernels' arguments.
#include <tuple>
#include <type_traits>

#include "ufx/config.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <class... P>
struct param_list {
  static constexpr bool known = true;
  static constexpr int count = sizeof...(P);
  using types = std::tuple<P...>;
};

template <class F, class Enable = void>
struct fn_params {
  static constexpr bool known = false; // generic functor: nothing to read before the call
  static constexpr int count = -1;
  using types = std::tuple<>;
};
template <class R, class... P>
struct fn_params<R (*)(P...)> : param_list<P...> {};
template <class R, class... P>
struct fn_params<R (*)(P...) noexcept> : param_list<P...> {};
template <class R, class C, class... P>
struct fn_params<R (C::*)(P...)> : param_list<P...> {};
template <class R, class C, class... P>
struct fn_params<R (C::*)(P...) const> : param_list<P...> {};
template <class R, class C, class... P>
struct fn_params<R (C::*)(P...) noexcept> : param_list<P...> {};
template <class R, class C, class... P>
struct fn_params<R (C::*)(P...) const noexcept> : param_list<P...> {};
template <class F>
    struct fn_params < F,
    std::enable_if_t < std::is_class_v<F>&& requires {
  &F::operator();
} >> : fn_params<decltype(&F::operator())>{};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
