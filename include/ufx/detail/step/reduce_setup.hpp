#pragma once
// What a reduction is: its spec (map, operator, identity, init, how argmin / argmax index; NumPy's messages when
// empty), the types it computes in (accumulator, finishing step, result; the statistics' real type) and the value of an
// empty reduction. Shared by ufx::reduce's family (detail/reduce.hpp) and ufx::accumulate (detail/reduce_scan.hpp).
#include <complex>
#include <type_traits>

#include "ufx/config.hpp"
#include "ufx/detail/core/fail.hpp"
#include "ufx/detail/step/args.hpp"
#include "ufx/detail/body/map.hpp"
#include "ufx/detail/core/reduce_ops.hpp"
#include "ufx/errors.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// The real type the statistics (ufx::mean, var, std) and logsumexp compute in: floating types as they are, float16 and
/// bfloat16 float (NumPy's mean of float16 sums in float32), integers and bool double (NumPy's mean and var, and
/// np.exp, give float64 for them), std::complex<T> T (its parts').
template <class V>
struct real_of_t {
  using type = std::conditional_t<std::is_floating_point_v<V>, V, std::conditional_t<half_type<V>, float, double>>;
};
template <class T>
struct real_of_t<std::complex<T>> {
  using type = T;
};
template <class V>
using real_of = typename real_of_t<V>::type;

/// The type the statistics and logsumexp of values of type V return: real_of<V>, but the 2-byte floats' own type
/// (NumPy's mean, var and std of a float16 array are float16), rounded once from real_of's result. For complex V that
/// is the parts' type, which var and std return (np.var of complex64 is float32); the mean is complex (stat_result).
template <class V>
using real_result_of = std::conditional_t<half_type<V>, V, real_of<V>>;

/// False for +-inf and NaN (v - v is NaN for them; no <cmath> call, the same on host and device).
template <class T>
UFX_HD inline bool real_finite(T v) {
  return v - v == T(0);
}

/// How argmin / argmax number positions: not at all, flat (C order), or along the one axis.
enum class index_mode { none, flat, along_axis };

/// What is reduced: `map` over the inputs' elements, combined by `op`; an optional identity (the value of an empty
/// reduction) and init (combined into every result, Numba's `init`).
template <class Map, class Op, class Id, class Init, index_mode IM>
struct reduce_spec {
  Map map;
  Op op;
  Id identity;
  Init init;
  const char* who;
  const char* empty_message; // used when there is no identity
  static constexpr index_mode indexing = IM;
  static constexpr bool has_identity = !std::is_same_v<Id, no_value>;
  static constexpr bool has_init = !std::is_same_v<Init, no_value>;
};

/// A reduce_spec from its parts, its types deduced (IM: argmin / argmax's, arg_indexing).
template <index_mode IM = index_mode::none, class Map, class Op, class Id, class Init>
reduce_spec<Map, Op, Id, Init, IM> make_spec(const Map& map, const Op& op, const Id& id, const Init& init,
                                             const char* who, const char* empty_message) {
  return {map, op, id, init, who, empty_message};
}

/// How argmin / argmax along NA axes number positions: flat (C order) without axes, else along the one.
template <int NA>
inline constexpr index_mode arg_indexing = NA == 0 ? index_mode::flat : index_mode::along_axis;

/// NumPy's messages for an empty reduction without identity, and for an empty argmin (Max false) / argmax.
inline constexpr const char* no_identity_message = "zero-size array to reduction operation which has no identity";
template <bool Max>
inline constexpr const char* arg_empty_message =
    Max ? "attempt to get argmax of an empty sequence" : "attempt to get argmin of an empty sequence";

template <class Map, class Op, class... V>
struct reduce_types {
  static_assert(std::is_invocable_v<const Map&, const V&...>,
                "ufx::transform_reduce: the map cannot be called with the operands' element types "
                "(check the number of arguments and their types)");
  using mapped = std::decay_t<std::invoke_result_t<const Map&, const V&...>>;
  static_assert(std::is_invocable_v<const Op&, const mapped&, const mapped&>,
                "ufx::reduce: the operator cannot combine two elements (it must take two values of the element "
                "type, or of the map's result type)");
  using op_result = std::decay_t<std::invoke_result_t<const Op&, const mapped&, const mapped&>>;
  // op's result on two values; ufx::plus and ufx::multiplies widen integers and the 2-byte floats as NumPy does
  using acc = reduce_accumulator<Op, mapped, op_result>;
  // what init_finish rounds acc to (a float16 sum: float16); a scan's accumulator (ufx::accumulate)
  using result = reduce_result<Op, mapped, acc>;
  using scan_acc = scan_accumulator<Op, mapped, op_result>;
  static_assert(!std::is_void_v<acc>, "ufx::reduce: the operator returns nothing: it must return the combined value");
  using acc_ref = std::add_lvalue_reference_t<const acc>; // const void when acc is void (reported above)
  static_assert(std::is_void_v<acc> || std::is_invocable_r_v<acc, const Op&, acc_ref, acc_ref>,
                "ufx::reduce: the operator's result must be combinable with itself (op(op(a, b), c))");
};

/// Finishes a result: combines Numba's `init` into it when given (in Acc), then converts it to Res (reduce_types's
/// result: a float16 sum's float accumulator rounds once here; for other reductions Res is Acc).
template <class Acc, class Op, class Res = Acc>
struct init_finish {
  Op op;
  Acc init;
  bool has_init;
  UFX_HD Res operator()(const Acc& a) const {
    return static_cast<Res>(has_init ? static_cast<Acc>(UFX_USER_CALL(op, init, a)) : a);
  }
};

/// An operator whose accumulator is not the result names its finishing step as `finish_type` (logsumexp: (max, scaled
/// sum) -> max + log(sum); ufx::reducers' parts_op), made by the operator's `finish()` when it has one; an empty
/// reduction gives that step applied to the identity. Other operators finish with init_finish.
template <class Op>
concept finishing_op = requires {
  typename Op::finish_type;
};
template <class Op, class Acc, class Res>
struct finish_of {
  using type = init_finish<Acc, Op, Res>;
};
template <finishing_op Op, class Acc, class Res>
struct finish_of<Op, Acc, Res> {
  using type = typename Op::finish_type;
};

/// The types of a reduction of operands `Ins` by `Spec`: accumulator, finishing step and result.
template <class Spec, class... Ins>
struct reduce_call_types {
  static constexpr bool indexed = Spec::indexing != index_mode::none;
  using types =
      std::conditional_t<indexed,
                         reduce_types<decltype(Spec::map), decltype(Spec::op), typename Ins::value_type..., index_t>,
                         reduce_types<decltype(Spec::map), decltype(Spec::op), typename Ins::value_type...>>;
  using acc = typename types::acc;
  using op_type = decltype(Spec::op);
  using finish = std::conditional_t<indexed && !finishing_op<op_type>, arg_index,
                                    typename finish_of<op_type, acc, typename types::result>::type>;
  using result = std::decay_t<std::invoke_result_t<const finish&, const acc&>>;

  /// An operator's finishing step (its finish() when it has state: ufx::var's ddof), argmin / argmax's, or init_finish.
  static finish make_finish(const Spec& spec) {
    if constexpr (finishing_op<op_type>) {
      if constexpr (requires { spec.op.finish(); }) return spec.op.finish();
      else return finish{};
    } else if constexpr (indexed) return arg_index{};
    else if constexpr (Spec::has_init) return finish{spec.op, static_cast<acc>(spec.init), true};
    else return finish{spec.op, acc{}, false};
  }
  /// The result of an empty reduction: the identity (or init) finished; throws value_error for a reduction that has
  /// none (argmin / argmax, or an operator without identity).
  static result empty_result(const Spec& spec, const finish& fin, bool empty) {
    if (empty && (indexed || !(Spec::has_init || Spec::has_identity))) fail<value_error>(spec.empty_message);
    if constexpr (indexed) return result{};
    else if constexpr (finishing_op<op_type>) {
      if constexpr (Spec::has_identity) return fin(static_cast<acc>(spec.identity));
      else return result{};
    } else if constexpr (Spec::has_init) return static_cast<result>(static_cast<acc>(spec.init));
    else if constexpr (Spec::has_identity) return static_cast<result>(static_cast<acc>(spec.identity));
    else return result{};
  }
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
