#pragma once
// NumPy's casting rule where a front door converts an array's elements: into a typed function's parameters (vectorize,
// the lazy calls, guvectorize's '()' inputs, a reduction's map and operator). The rule is the call's
// (ufx::casting::safe unless it names another); C++ scalars are weak (NEP 50) and convert as C++ converts them; a
// generic function gets the elements' own types.
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ufx/casting.hpp"
#include "ufx/detail/step/adapt.hpp"
#include "ufx/detail/core/fn_params.hpp"
#include "ufx/detail/core/tuple.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// An array operand's elements into the function's parameter, under the call's casting rule. The "in instantiation of"
/// line names the operand (counted from 0), the element type and the parameter type.
template <int Operand, class Element, class Parameter, class Rule>
struct input_cast {
  static constexpr bool allowed = can_cast<Element, Parameter>(Rule{});
  static constexpr bool ok = allowed && std::is_convertible_v<Element, Parameter>;
  /// Whether C++ makes a Parameter from an Element at all (implicitly or explicitly): one message for each case.
  static constexpr bool converts =
      std::is_convertible_v<Element, Parameter> || std::is_constructible_v<Parameter, Element>;
  static_assert(converts, "ufx: an array operand's elements cannot become the function's parameter type at all: check "
                          "the function's parameter types and the operands passed (the operand and both types are in "
                          "the input_cast<operand, element, parameter, rule> of the instantiation line)");
  static_assert(allowed || !converts,
                "ufx: an array operand's elements do not convert safely to the function's parameter type "
                "(NumPy's safe casting: no float64 to float32, no int32 to float32, nothing to bool but bool; "
                "the operand and both types are in the input_cast<operand, element, parameter, rule> of the "
                "instantiation line). Pass the rule that allows it as an option of the call "
                "(ufx::casting::same_kind or ufx::casting::unsafe, before ufx::out), or give the function the "
                "wider parameter type");
  static_assert(!allowed || ok || !converts,
                "ufx: an array operand's elements convert to the function's parameter type only explicitly "
                "(ufx::float16 and ufx::bfloat16 are made from float, double and the integers explicitly, as C++23's "
                "std::float16_t): give the function a float parameter (both convert to float implicitly and exactly), "
                "or convert the array first");
#if defined(__CUDACC__)
  static_assert(device_converts<Element, Parameter>,
                "ufx: in a file nvcc compiles, std::complex elements reach only a std::complex parameter of their own "
                "precision: nvcc compiles std::complex's conversion between precisions to no code in device code "
                "(docs/element_types.md, \"Complex\"). Take the element type and widen by parts: "
                "std::complex<double>(z.real(), z.imag())");
#endif
};

/// A C++ scalar operand into the function's parameter: as C++ converts it (weak, NEP 50), implicitly.
template <int Operand, class O, class Parameter>
struct scalar_cast {
  static constexpr bool ok = std::is_convertible_v<const typename O::value_type&, Parameter>;
  static_assert(ok, "ufx: a C++ scalar operand does not convert implicitly to the function's parameter type "
                    "(ufx::float16 and ufx::bfloat16 are made from float, double and the integers explicitly): pass "
                    "it as that type, e.g. ufx::float16(0.5f)");
};

/// The operands inputs_cast_ok checks: every one, against a function of as many parameters (gufunc_cast_inputs: a
/// gufunc's '()' inputs, its function taking `extra_params` outputs after them).
struct every_operand {
  static constexpr int extra_params = 0;
  static constexpr bool skip(int) { return false; }
};

/// Every array operand of a call of `F` (with one parameter list) against its parameter, but those Skip skips.
template <class F, class Rule, class... Op, class Skip = every_operand>
constexpr bool inputs_cast_ok(Skip = {}) {
  using P = fn_params<F>;
  if constexpr (!P::known || P::count != static_cast<int>(sizeof...(Op)) + Skip::extra_params) return true;
  else
    return with_indices<sizeof...(Op)>([]<std::size_t... K>(std::index_sequence<K...>) {
      return ([] {
        using O = std::tuple_element_t<K, std::tuple<Op...>>;
        using Param = std::remove_cvref_t<std::tuple_element_t<K, typename P::types>>;
        if constexpr (Skip::skip(static_cast<int>(K))) return true;
        else if constexpr (is_scalar_operand<O>::value) return scalar_cast<static_cast<int>(K), O, Param>::ok;
        else return input_cast<static_cast<int>(K), typename O::value_type, Param, Rule>::ok;
      }() && ...);
    });
}

/// An operand of computed values of type V (an expression's node, a reduction's mapped values), typed as arrays are.
template <class V>
struct typed_operand {
  using value_type = V;
};

/// A reduction's operands into its map's parameters, and the mapped values into its operator's.
template <class Map, class Op, class Rule, class... O>
constexpr bool reduce_inputs_cast_ok() {
  if constexpr (!inputs_cast_ok<Map, Rule, O...>()) return false;
  else if constexpr (requires { Map::takes_index; })
    return true; // argmin / argmax's map (its deduced return type is not to be asked of the values alone)
  else if constexpr (!std::is_invocable_v<const Map&, const typename O::value_type&...>)
    return true; // reduce_types reports a map that cannot be called
  else {
    constexpr bool strong = !(is_scalar_operand<O>::value && ...);
    using mapped = std::decay_t<std::invoke_result_t<const Map&, const typename O::value_type&...>>;
    if constexpr (!strong) return true;
    else return inputs_cast_ok<Op, Rule, typed_operand<mapped>, typed_operand<mapped>>();
  }
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
