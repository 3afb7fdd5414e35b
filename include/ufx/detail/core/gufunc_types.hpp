#pragma once
// Compile-time side of guvectorize: fn's parameters, the argument type it receives per operand, each output's element
// type, and the static_asserts that check fn against the signature (arity and the kind of each parameter).
#include <tuple>
#include <type_traits>
#include <utility>

#include "ufx/detail/core/fn_params.hpp"
#include "ufx/detail/core/tuple.hpp"
#include "ufx/detail/core/signature.hpp"
#include "ufx/ndview.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

// ---- the kind of one parameter

template <class P>
struct param_kind {
  static constexpr bool is_view = false;
  static constexpr int rank = 0;
  static constexpr bool const_element = false;
  using element = std::remove_cvref_t<P>;
};
template <class E, int R>
struct param_kind<ndview<E, R>> {
  static constexpr bool is_view = true;
  static constexpr int rank = R;
  static constexpr bool const_element = std::is_const_v<E>;
  using element = std::remove_const_t<E>;
};
template <class P>
requires(!std::is_same_v<P, std::remove_cvref_t<P>>) struct param_kind<P> : param_kind<std::remove_cvref_t<P>> {
};

/// Checks one parameter of a non-generic fn against its operand's core. The "in instantiation of" line names the
/// signature, the operand (counted over inputs, then outputs) and the parameter type.
template <fixed_string Sig, int Operand, bool Output, int CoreRank, class Param>
struct param_check {
  using K = param_kind<Param>;
  static constexpr bool scalar_in_ok = !K::is_view;
  static constexpr bool scalar_out_ok =
      !K::is_view && std::is_lvalue_reference_v<Param> && !std::is_const_v<std::remove_reference_t<Param>>;
  static constexpr bool core_ok = K::is_view && K::rank == CoreRank && K::const_element == !Output;
  static_assert(Output || CoreRank > 0 || scalar_in_ok,
                "guvectorize: an input with core '()' is passed as a value: its parameter must be T (or const T&), "
                "not an ndview");
  static_assert(!Output || CoreRank > 0 || scalar_out_ok,
                "guvectorize: an output with core '()' is written through a reference: its parameter must be T&");
  static_assert(Output || CoreRank == 0 || core_ok,
                "guvectorize: an input with a core of rank k is passed as ufx::ndview<const T, k>: the parameter's "
                "type or rank does not match");
  static_assert(!Output || CoreRank == 0 || core_ok,
                "guvectorize: an output with a core of rank k is passed as ufx::ndview<T, k> (T not const): the "
                "parameter's type or rank does not match");
  static constexpr bool ok = CoreRank == 0 ? (Output ? scalar_out_ok : scalar_in_ok) : core_ok;
};

/// For a non-generic fn: its arity and every parameter against the signature (static_asserts).
template <fixed_string S, class Sig, class F>
constexpr bool check_function() {
  using P = fn_params<F>;
  if constexpr (!P::known) {
    return true;
  } else {
    constexpr bool arity_ok = arity_check<P::count, S, Sig::operands>::ok;
    if constexpr (!arity_ok) {
      return false;
    } else {
      return with_indices<Sig::operands>([]<std::size_t... K>(std::index_sequence<K...>) {
        return (param_check<S, static_cast<int>(K), (static_cast<int>(K) >= Sig::nin),
                            Sig::core_rank(static_cast<int>(K)), std::tuple_element_t<K, typename P::types>>::ok &&
                ...);
      });
    }
  }
}

// ---- checks at the call; each shows the signature in its "in instantiation of" line

template <fixed_string Sig, int CallInputs, int SignatureInputs>
struct input_count_check {
  static_assert(CallInputs == SignatureInputs, "ufx::guvectorize: the call's number of input operands differs from the "
                                               "number of inputs in the signature (outputs go through ufx::out(...))");
  static constexpr bool ok = CallInputs == SignatureInputs;
};

template <fixed_string Sig, int Destinations, int SignatureOutputs>
struct out_count_check {
  static_assert(Destinations == SignatureOutputs,
                "ufx::out: the number of destinations differs from the number of outputs in the signature");
  static constexpr bool ok = Destinations == SignatureOutputs;
};

template <fixed_string Sig, bool Invocable>
struct invocable_check {
  static_assert(Invocable,
                "ufx::guvectorize: the function cannot be called with the cores of these operands: it takes, "
                "in order, ufx::ndview<const T, k> per input core of rank k, T per '()' input, "
                "ufx::ndview<T, k> per output core and T& per '()' output, with T the arrays' element types "
                "(core inputs are not converted)");
  static constexpr bool ok = Invocable;
};

template <fixed_string Sig, bool SameTypes>
struct out_type_check {
  static_assert(SameTypes, "ufx::out: a destination's element type differs from the function's output parameter "
                           "type (guvectorize writes through the parameter's type and does not convert)");
  static constexpr bool ok = SameTypes;
};

// ---- the argument fn receives for operand S

/// Input S with element type V: a value for a '()' core, else a const view of the core.
template <class Sig, int S, class V>
using gufunc_in_arg = std::conditional_t<Sig::core_rank(S) == 0, V, ndview<const V, Sig::core_rank(S)>>;

/// Output S with element type T: a reference for a '()' core, else a mutable view of the core.
template <class Sig, int S, class T>
using gufunc_out_arg = std::conditional_t<Sig::core_rank(S) == 0, T&, ndview<T, Sig::core_rank(S)>>;

/// Element type of output J (0-based among outputs): read from fn's parameter when fn has one parameter list; for a
/// generic functor, the inputs' common type (C++'s usual arithmetic conversions, std::common_type_t).
template <class Sig, class F, int J, class... InV>
struct gufunc_out_type {
  static auto pick() {
    using P = fn_params<F>;
    if constexpr (P::known && P::count == Sig::operands)
      return std::type_identity<typename param_kind<std::tuple_element_t<Sig::nin + J, typename P::types>>::element>{};
    else return std::type_identity<std::common_type_t<InV...>>{};
  }
  using type = typename decltype(pick())::type;
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
