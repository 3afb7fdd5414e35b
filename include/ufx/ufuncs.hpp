#pragma once
/// \file ufuncs.hpp
/// NumPy's ufuncs as ready ufx::vectorize objects, with NumPy's names, types and identities, and the
/// operators that call them.
///
///   std::vector<float> z = ufx::add(x, y);              // np.add: every target, every array type
///   auto m = ufx::maximum.reduce(a, ufx::axis{1});       // the ufunc methods (docs/vectorize.md)
///   auto x = ufx::lazy(xv), y = ufx::lazy(yv);
///   std::vector<float> w = ufx::exp(-x * x) * ufx::sin(y) + 1.f;   // operators: one fused pass
///   ufx::ndarray<double, 2> s = a * 2 + b;               // on ufx arrays: eager, as NumPy's
///
/// Each is a `ufx::vectorize` object of a function in `ufx::ops` (ufx::add of ufx::ops::add), so it
/// takes what a vectorize call takes (targets, ufx::out, ufx::where, lazy operands, every array type)
/// and has `reduce`, `accumulate`, `outer`, `reduceat` and `at`, with NumPy's identity where NumPy
/// has one (add 0, multiply 1, logical_and true, bitwise_and -1, logaddexp -inf, ...).
///
/// Types. NumPy 2's: the operands' common type (np.result_type: int32 with float32 is float64,
/// uint64 with int64 float64), float64 for divide of integers, the first float type an integer
/// casts to safely for the float functions (np.exp of int8 is float16, of int32 float64), bool for
/// comparisons and predicates. A C++ scalar beside arrays is weak (NEP 50): it takes the arrays'
/// type when its kind is not higher (`ufx::add(x_float32, 1.0)` is float32, `ufx::add(x_int8, 1)`
/// int8; an integer out of that type's range is a ufx::value_error, NumPy's OverflowError), and the
/// kind's default type when it is (an integer beside bool arrays int64, a float beside integer arrays
/// float64). A call on C++ scalars only takes them as typed, as NumPy's scalars (`ufx::add(1, 2.5f)`
/// is double, as np.int32(1) + np.float32(2.5) is float64).
///
/// Values. Integer arithmetic wraps as NumPy's does (no undefined behaviour); an integer divided by
/// 0 (floor_divide, remainder, fmod, divmod) gives 0 as NumPy's loops do, MIN // -1 gives MIN;
/// integer power with a negative exponent is a ufx::value_error before anything runs (NumPy's
/// ValueError; inside a lazy expression, which cannot be checked first, 1 / a^|b| truncated);
/// reciprocal of integer 0 gives 0 (NumPy's is undefined). maximum / minimum propagate NaN, fmax /
/// fmin do not. exp, log, sin, cos, tanh, sqrt and pow are ufx::math's (within 2 ulp, vectorised on
/// the host); the other float functions the C library's on the host (glibc's, as NumPy's) and CUDA's
/// on the device; float16 and bfloat16 compute in float and round once, as NumPy's float16 loops.
///
/// Operators, on ufx's own types: lazy operands and expressions build one fused expression
/// (`+ - * / % == != < <= > >= & | ^ << >> ~`, unary `-` and `+`: add, subtract, multiply, divide,
/// remainder, the comparisons, the bitwise ufuncs); ufx::ndarray and ufx::device_array compute at
/// once and return arrays, as NumPy's operators do, except `==` and `!=`, which on an ndarray keep
/// C++'s meaning (the whole arrays are equal) that containers and algorithms rely on: take
/// ufx::equal(a, b), or compare lazy operands. No operators on std::vector, Eigen or other types
/// ufx does not own (call the ufuncs); `**` is ufx::power. docs/ufuncs.md lists every ufunc.

#include <complex>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "ufx/detail/ufuncs/at_atomic.hpp"
#include "ufx/detail/ufuncs/ops.hpp"
#include "ufx/detail/core/promote.hpp"
#include "ufx/device_array.hpp"
#include "ufx/errors.hpp"
#include "ufx/lazy.hpp"
#include "ufx/ndarray.hpp"
#include "ufx/reduce.hpp"
#include "ufx/vectorize.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// A C++ scalar NEP 50 treats as weak (a Python scalar's part): the arithmetic types, float16, bfloat16, std::complex.
template <class D>
inline constexpr bool weak_scalar = std::is_arithmetic_v<D> || half_type<D> || is_std_complex<D>;

/// An argument that is an operand (not a target, ufx::out, ufx::where or a casting rule).
template <class D>
inline constexpr bool operand_argument =
    !any_target<D> && !is_out<D>::value && !is_where_v<D> && !is_casting_v<D> && !weak_scalar<D>;

/// The element type of an array operand, lazy operand, expression or distributed array (void for anything else, and
/// for a type ufx does not take: the call reports those).
template <class D>
auto operand_element() {
  if constexpr (!operand_argument<D>) return std::type_identity<void>{};
  else if constexpr (distributed_arg<D>) {
    if constexpr (requires { typename D::value_type; }) return std::type_identity<typename D::value_type>{};
    else return std::type_identity<void>{};
  } else if constexpr (array_like<D> || is_lazy_operand<D>::value || is_expression<D>::value)
    return std::type_identity<typename decltype(lazy_operand_of<D>())::value_type>{};
  else return std::type_identity<void>{};
}

template <class... T>
struct common_of;
template <>
struct common_of<> {
  using type = void;
};
template <class T, class... R>
struct common_of<T, R...> {
  using rest = typename common_of<R...>::type;
  using type = std::conditional_t<std::is_void_v<T>, rest,
                                  typename std::conditional_t<std::is_void_v<rest>, std::type_identity<T>,
                                                              first_safe<promotion_order, T, rest>>::type>;
};

/// The common element type of a call's array operands (void: none, or one NumPy has no type for).
template <class... A>
using strong_type_t = typename common_of<
    std::conditional_t<promotable<fixed_int_t<typename decltype(operand_element<std::remove_cvref_t<A>>())::type>>,
                       fixed_int_t<typename decltype(operand_element<std::remove_cvref_t<A>>())::type>, void>...>::type;

template <class T>
std::string scalar_text(const T& v) {
  if constexpr (std::is_same_v<T, bool>) return v ? "true" : "false";
  else if constexpr (std::is_integral_v<T>) return std::to_string(v);
  else return "the scalar";
}

/// A weak scalar as NEP 50's type beside arrays of common type S (checked first: check_weak).
template <class S, class A>
decltype(auto) weaken(A&& a) {
  using D = std::remove_cvref_t<A>;
  if constexpr (weak_scalar<D> && !std::is_void_v<S>) return convert_to<weak_scalar_t<fixed_int_t<D>, S>>(a);
  else return std::forward<A>(a);
}

/// Whether check_weak checks a scalar of type D beside arrays of common type S.
template <class S, class D>
inline constexpr bool checks_weak =
    weak_scalar<D> && !std::is_void_v<S> && std::is_integral_v<D> && !std::is_same_v<D, bool> && std::is_integral_v<S>;

/// NEP 50's check of a weak integer beside arrays of common type S: one the type cannot hold is NumPy's OverflowError.
template <class S, class A>
void check_weak(const A& a) {
  using D = std::remove_cvref_t<A>;
  if constexpr (weak_scalar<D> && !std::is_void_v<S> && std::is_integral_v<D> && !std::is_same_v<D, bool>) {
    using W = weak_scalar_t<fixed_int_t<D>, S>;
    if constexpr (std::is_integral_v<W>)
      if (!integer_fits<W>(a))
        fail<value_error>("the C++ integer " + scalar_text(a) + " is out of bounds for " + numpy_name<W>() +
                          ", the arrays' type it takes (NEP 50; NumPy raises OverflowError)");
  }
}

/// power's check of integer exponents (NumPy: "Integers to negative integer powers are not allowed."), eager calls.
template <class Min, class B>
void check_exponent(const Min& min, const B& b) {
  using D = std::remove_cvref_t<B>;
  if constexpr (weak_scalar<D>) {
    if constexpr (std::is_signed_v<D> && std::is_integral_v<D>)
      if (b < 0) fail<value_error>("Integers to negative integer powers are not allowed.");
  } else if constexpr (operand_argument<D> && !any_lazy<D>) {
    using E = typename decltype(operand_element<D>())::type;
    if constexpr (std::is_signed_v<E> && std::is_integral_v<E>)
      if (operand_shape(adapt_in(b)).size() != 0 && min(b) < 0)
        fail<value_error>("Integers to negative integer powers are not allowed.");
  }
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail

namespace ufx {
UFX_TU_NAMESPACE_BEGIN

/// A ready ufunc: a ufx::vectorize object of a function of ufx::ops whose C++ scalar operands follow NEP 50 (see the
/// file's comment).
template <class F, class Id = detail::no_value>
class ufunc : public vectorized<F, Id> {
public:
  /// The ufunc of F with identity `id`, named `name` (profiler ranges, messages).
  constexpr ufunc(Id id, const char* name) : vectorized<F, Id>(F{}, id, name) {}

  /// `f(args...)`, as a ufx::vectorize object's call, with NEP 50's scalars.
  template <class... A>
  decltype(auto) operator()(A&&... args) const {
    using S = detail::strong_type_t<A...>;
    constexpr bool checks = (detail::checks_weak<S, std::remove_cvref_t<A>> || ...) ||
                            (std::is_same_v<F, ops::power> && !detail::any_lazy<A...>);
    if constexpr (checks) {
      const detail::call_scope scope(this->name());
      (detail::check_weak<S>(args), ...);
      if constexpr (std::is_same_v<F, ops::power> && !detail::any_lazy<A...>) check_power(args...);
    }
    const vectorized<F, Id>& base = *this;
    return base(detail::weaken<S>(std::forward<A>(args))...);
  }

  /// NumPy's `ufunc.at` (vectorized::at), a C++ scalar b weak beside a (NEP 50). On a device target, add, subtract,
  /// maximum, minimum, fmax, fmin and the bitwise functions run by atomics where the device has them for a's type
  /// (detail/ufuncs/at_atomic.hpp): one thread per update, float updates summed in the order the device applies them.
  template <class... A>
  void at(A&&... args) const {
    using S = typename decltype(at_operands_type<A...>())::type; // a's and b's, not the indices'
    constexpr std::size_t index_pos =
        1 + (sizeof...(A) > 0 && any_target<std::tuple_element_t<0, std::tuple<A..., void>>>);
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      if constexpr (((K != index_pos && detail::checks_weak<S, std::remove_cvref_t<A>>) || ...)) {
        const detail::call_scope scope(this->name());
        ((K != index_pos ? detail::check_weak<S>(args) : void()), ...);
      }
      this->at_with(detail::atomic_at<F>{}, at_weaken<S, K == index_pos>(std::forward<A>(args))...);
    }
    (std::index_sequence_for<A...>{});
  }

private:
  /// f.at's argument, weak against S unless it is the indices.
  template <class S, bool indices, class X>
  static decltype(auto) at_weaken(X&& x) {
    if constexpr (indices) return std::forward<X>(x);
    else return detail::weaken<S>(std::forward<X>(x));
  }

  /// The common type of f.at's a and b ([target,] a, indices [, b]).
  template <class... A>
  static auto at_operands_type() {
    using L = std::tuple<std::remove_cvref_t<A>...>;
    constexpr std::size_t first = sizeof...(A) > 0 && any_target<std::tuple_element_t<0, std::tuple<A..., void>>>;
    if constexpr (sizeof...(A) < first + 2) return std::type_identity<void>{};
    else if constexpr (sizeof...(A) == first + 2)
      return std::type_identity<detail::strong_type_t<std::tuple_element_t<first, L>>>{};
    else
      return std::type_identity<
          detail::strong_type_t<std::tuple_element_t<first, L>, std::tuple_element_t<first + 2, L>>>{};
  }

  template <class... A>
  static void check_power(const A&... args) {
    const auto t = std::forward_as_tuple(args...);
    constexpr std::size_t first = any_target<std::remove_cvref_t<std::tuple_element_t<0, std::tuple<A...>>>>;
    if constexpr (sizeof...(A) >= first + 2) {
      using Base = std::remove_cvref_t<std::tuple_element_t<first, std::tuple<A...>>>;
      using Exp = std::remove_cvref_t<std::tuple_element_t<first + 1, std::tuple<A...>>>;
      using S = detail::strong_type_t<Base, Exp>;
      constexpr bool integral = std::is_integral_v<S> || (std::is_void_v<S> && std::is_integral_v<Base>);
      if constexpr (integral) detail::check_exponent([](const auto& x) { return ufx::min(x); }, std::get<first + 1>(t));
    }
  }
};

// ---- Arithmetic ----

/// np.add (`+`); identity 0; reduce is np.sum's (integers widen, float16 accumulates in float).
inline constexpr ufunc<ops::add, int> add{0, "ufx::add"};
/// np.subtract (`-`).
inline constexpr ufunc<ops::subtract> subtract{{}, "ufx::subtract"};
/// np.multiply (`*`); identity 1; reduce is np.prod's.
inline constexpr ufunc<ops::multiply, int> multiply{1, "ufx::multiply"};
/// np.divide (`/`): integers in float64.
inline constexpr ufunc<ops::divide> divide{{}, "ufx::divide"};
/// np.true_divide: np.divide.
inline constexpr ufunc<ops::divide> true_divide{{}, "ufx::true_divide"};
/// np.floor_divide.
inline constexpr ufunc<ops::floor_divide> floor_divide{{}, "ufx::floor_divide"};
/// np.power (no `**` in C++).
inline constexpr ufunc<ops::power> power{{}, "ufx::power"};
/// np.remainder (`%`): the divisor's sign.
inline constexpr ufunc<ops::remainder> remainder{{}, "ufx::remainder"};
/// np.mod: np.remainder.
inline constexpr ufunc<ops::remainder> mod{{}, "ufx::mod"};
/// np.fmod: the dividend's sign.
inline constexpr ufunc<ops::fmod> fmod{{}, "ufx::fmod"};
/// np.divmod: (floor_divide, remainder), two outputs.
inline constexpr ufunc<ops::divmod> divmod{{}, "ufx::divmod"};
/// np.negative (unary `-`).
inline constexpr ufunc<ops::negative> negative{{}, "ufx::negative"};
/// np.positive (unary `+`).
inline constexpr ufunc<ops::positive> positive{{}, "ufx::positive"};
/// np.absolute.
inline constexpr ufunc<ops::absolute> absolute{{}, "ufx::absolute"};
/// np.abs: np.absolute.
inline constexpr ufunc<ops::absolute> abs{{}, "ufx::abs"};
/// np.sign.
inline constexpr ufunc<ops::sign> sign{{}, "ufx::sign"};
/// np.square.
inline constexpr ufunc<ops::square> square{{}, "ufx::square"};
/// np.reciprocal.
inline constexpr ufunc<ops::reciprocal> reciprocal{{}, "ufx::reciprocal"};
/// np.conjugate.
inline constexpr ufunc<ops::conjugate> conjugate{{}, "ufx::conjugate"};
/// np.conj: np.conjugate.
inline constexpr ufunc<ops::conjugate> conj{{}, "ufx::conj"};
/// np.gcd; identity 0.
inline constexpr ufunc<ops::gcd, int> gcd{0, "ufx::gcd"};
/// np.lcm.
inline constexpr ufunc<ops::lcm> lcm{{}, "ufx::lcm"};

// ---- Extremes ----

/// np.maximum: a NaN wins.
inline constexpr ufunc<ops::maximum> maximum{{}, "ufx::maximum"};
/// np.minimum: a NaN wins.
inline constexpr ufunc<ops::minimum> minimum{{}, "ufx::minimum"};
/// np.fmax: a number wins over a NaN.
inline constexpr ufunc<ops::fmax> fmax{{}, "ufx::fmax"};
/// np.fmin: a number wins over a NaN.
inline constexpr ufunc<ops::fmin> fmin{{}, "ufx::fmin"};

// ---- Comparisons and logic (bool results) ----

/// np.equal (`==` on lazy operands).
inline constexpr ufunc<ops::equal> equal{{}, "ufx::equal"};
/// np.not_equal (`!=` on lazy operands).
inline constexpr ufunc<ops::not_equal> not_equal{{}, "ufx::not_equal"};
/// np.less (`<`).
inline constexpr ufunc<ops::less> less{{}, "ufx::less"};
/// np.less_equal (`<=`).
inline constexpr ufunc<ops::less_equal> less_equal{{}, "ufx::less_equal"};
/// np.greater (`>`).
inline constexpr ufunc<ops::greater> greater{{}, "ufx::greater"};
/// np.greater_equal (`>=`).
inline constexpr ufunc<ops::greater_equal> greater_equal{{}, "ufx::greater_equal"};
/// np.logical_and; identity true.
inline constexpr ufunc<ops::logical_and, bool> logical_and{true, "ufx::logical_and"};
/// np.logical_or; identity false.
inline constexpr ufunc<ops::logical_or, bool> logical_or{false, "ufx::logical_or"};
/// np.logical_xor; identity false.
inline constexpr ufunc<ops::logical_xor, bool> logical_xor{false, "ufx::logical_xor"};
/// np.logical_not.
inline constexpr ufunc<ops::logical_not> logical_not{{}, "ufx::logical_not"};
/// np.isnan.
inline constexpr ufunc<ops::isnan> isnan{{}, "ufx::isnan"};
/// np.isinf.
inline constexpr ufunc<ops::isinf> isinf{{}, "ufx::isinf"};
/// np.isfinite.
inline constexpr ufunc<ops::isfinite> isfinite{{}, "ufx::isfinite"};
/// np.signbit.
inline constexpr ufunc<ops::signbit> signbit{{}, "ufx::signbit"};

// ---- Bitwise (integers and bool) ----

/// np.bitwise_and (`&`); identity -1 (all bits).
inline constexpr ufunc<ops::bitwise_and, int> bitwise_and{-1, "ufx::bitwise_and"};
/// np.bitwise_or (`|`); identity 0.
inline constexpr ufunc<ops::bitwise_or, int> bitwise_or{0, "ufx::bitwise_or"};
/// np.bitwise_xor (`^`); identity 0.
inline constexpr ufunc<ops::bitwise_xor, int> bitwise_xor{0, "ufx::bitwise_xor"};
/// np.invert (`~`).
inline constexpr ufunc<ops::invert> invert{{}, "ufx::invert"};
/// np.bitwise_not: np.invert.
inline constexpr ufunc<ops::invert> bitwise_not{{}, "ufx::bitwise_not"};
/// np.left_shift (`<<`).
inline constexpr ufunc<ops::left_shift> left_shift{{}, "ufx::left_shift"};
/// np.right_shift (`>>`).
inline constexpr ufunc<ops::right_shift> right_shift{{}, "ufx::right_shift"};

// ---- Exponents and logarithms ----

/// np.exp.
inline constexpr ufunc<ops::exp> exp{{}, "ufx::exp"};
/// np.exp2.
inline constexpr ufunc<ops::exp2> exp2{{}, "ufx::exp2"};
/// np.expm1.
inline constexpr ufunc<ops::expm1> expm1{{}, "ufx::expm1"};
/// np.log.
inline constexpr ufunc<ops::log> log{{}, "ufx::log"};
/// np.log2.
inline constexpr ufunc<ops::log2> log2{{}, "ufx::log2"};
/// np.log10.
inline constexpr ufunc<ops::log10> log10{{}, "ufx::log10"};
/// np.log1p.
inline constexpr ufunc<ops::log1p> log1p{{}, "ufx::log1p"};
/// np.logaddexp; identity -inf.
inline constexpr ufunc<ops::logaddexp, float> logaddexp{-std::numeric_limits<float>::infinity(), "ufx::logaddexp"};
/// np.logaddexp2; identity -inf.
inline constexpr ufunc<ops::logaddexp2, float> logaddexp2{-std::numeric_limits<float>::infinity(), "ufx::logaddexp2"};
/// np.sqrt.
inline constexpr ufunc<ops::sqrt> sqrt{{}, "ufx::sqrt"};
/// np.cbrt.
inline constexpr ufunc<ops::cbrt> cbrt{{}, "ufx::cbrt"};

// ---- Trigonometric and hyperbolic ----

/// np.sin.
inline constexpr ufunc<ops::sin> sin{{}, "ufx::sin"};
/// np.cos.
inline constexpr ufunc<ops::cos> cos{{}, "ufx::cos"};
/// np.tan.
inline constexpr ufunc<ops::tan> tan{{}, "ufx::tan"};
/// np.arcsin.
inline constexpr ufunc<ops::arcsin> arcsin{{}, "ufx::arcsin"};
/// np.arccos.
inline constexpr ufunc<ops::arccos> arccos{{}, "ufx::arccos"};
/// np.arctan.
inline constexpr ufunc<ops::arctan> arctan{{}, "ufx::arctan"};
/// np.arctan2(y, x).
inline constexpr ufunc<ops::arctan2> arctan2{{}, "ufx::arctan2"};
/// np.hypot; identity 0.
inline constexpr ufunc<ops::hypot, int> hypot{0, "ufx::hypot"};
/// np.sinh.
inline constexpr ufunc<ops::sinh> sinh{{}, "ufx::sinh"};
/// np.cosh.
inline constexpr ufunc<ops::cosh> cosh{{}, "ufx::cosh"};
/// np.tanh.
inline constexpr ufunc<ops::tanh> tanh{{}, "ufx::tanh"};
/// np.arcsinh.
inline constexpr ufunc<ops::arcsinh> arcsinh{{}, "ufx::arcsinh"};
/// np.arccosh.
inline constexpr ufunc<ops::arccosh> arccosh{{}, "ufx::arccosh"};
/// np.arctanh.
inline constexpr ufunc<ops::arctanh> arctanh{{}, "ufx::arctanh"};
/// np.deg2rad.
inline constexpr ufunc<ops::deg2rad> deg2rad{{}, "ufx::deg2rad"};
/// np.radians: np.deg2rad.
inline constexpr ufunc<ops::deg2rad> radians{{}, "ufx::radians"};
/// np.rad2deg.
inline constexpr ufunc<ops::rad2deg> rad2deg{{}, "ufx::rad2deg"};
/// np.degrees: np.rad2deg.
inline constexpr ufunc<ops::rad2deg> degrees{{}, "ufx::degrees"};

// ---- Rounding and floating-point ----

/// np.floor.
inline constexpr ufunc<ops::floor> floor{{}, "ufx::floor"};
/// np.ceil.
inline constexpr ufunc<ops::ceil> ceil{{}, "ufx::ceil"};
/// np.trunc.
inline constexpr ufunc<ops::trunc> trunc{{}, "ufx::trunc"};
/// np.rint: ties to even.
inline constexpr ufunc<ops::rint> rint{{}, "ufx::rint"};
/// np.copysign.
inline constexpr ufunc<ops::copysign> copysign{{}, "ufx::copysign"};
/// np.nextafter.
inline constexpr ufunc<ops::nextafter> nextafter{{}, "ufx::nextafter"};
/// np.heaviside(x, h0).
inline constexpr ufunc<ops::heaviside> heaviside{{}, "ufx::heaviside"};

UFX_TU_NAMESPACE_END
} // namespace ufx

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN
template <class T>
struct is_ufx_array : std::false_type {};
template <class T, int R>
struct is_ufx_array<ndarray<T, R>> : std::true_type {};
template <class T, int R>
struct is_ufx_array<device_array<T, R>> : std::true_type {};

/// Operands of ufx's own lazy kinds (operators build expressions of them).
template <class D>
inline constexpr bool lazy_kind = is_lazy_operand<D>::value || is_expression<D>::value;
/// What an operator takes on either side: an array ufx accepts, a lazy operand or expression, a C++ scalar (not a
/// stream, doctest's expression or any other type that has operators of its own).
template <class D>
concept operator_operand = array_like<D> || lazy_kind<D> || weak_scalar<D>;
/// Whether `a op b` is ufx's: one side is ufx's own (an ndarray, a device_array, a lazy operand or an expression) and
/// neither is a target or an option.
template <class A, class B>
concept ufx_operands =
    (is_ufx_array<std::remove_cvref_t<A>>::value || lazy_kind<std::remove_cvref_t<A>> ||
     is_ufx_array<std::remove_cvref_t<B>>::value ||
     lazy_kind<
         std::remove_cvref_t<B>>)&&operator_operand<std::remove_cvref_t<A>>&& operator_operand<std::remove_cvref_t<B>>;
/// As ufx_operands, for == and !=: lazy operands and expressions only (an ndarray's == is C++'s: the arrays are equal).
template <class A, class B>
concept lazy_operands = ufx_operands<A, B> &&(lazy_kind<std::remove_cvref_t<A>> || lazy_kind<std::remove_cvref_t<B>>);
template <class A>
concept ufx_operand = is_ufx_array<std::remove_cvref_t<A>>::value || lazy_kind<std::remove_cvref_t<A>>;
UFX_TU_NAMESPACE_END
} // namespace ufx::detail

namespace ufx {
UFX_TU_NAMESPACE_BEGIN

/// \cond INTERNAL
#define UFX_UFUNC_OPERATOR(OP, UF, CONCEPT)                                                                            \
  template <class A, class B>                                                                                          \
  requires detail::CONCEPT<A, B>                                                                                       \
  auto operator OP(A&& a, B&& b) { return UF(std::forward<A>(a), std::forward<B>(b)); }
/// \endcond
UFX_UFUNC_OPERATOR(+, add, ufx_operands)
UFX_UFUNC_OPERATOR(-, subtract, ufx_operands)
UFX_UFUNC_OPERATOR(*, multiply, ufx_operands)
UFX_UFUNC_OPERATOR(/, divide, ufx_operands)
UFX_UFUNC_OPERATOR(%, remainder, ufx_operands)
UFX_UFUNC_OPERATOR(&, bitwise_and, ufx_operands)
UFX_UFUNC_OPERATOR(|, bitwise_or, ufx_operands)
UFX_UFUNC_OPERATOR(^, bitwise_xor, ufx_operands)
UFX_UFUNC_OPERATOR(<<, left_shift, ufx_operands)
UFX_UFUNC_OPERATOR(>>, right_shift, ufx_operands)
UFX_UFUNC_OPERATOR(<, less, ufx_operands)
UFX_UFUNC_OPERATOR(<=, less_equal, ufx_operands)
UFX_UFUNC_OPERATOR(>, greater, ufx_operands)
UFX_UFUNC_OPERATOR(>=, greater_equal, ufx_operands)
UFX_UFUNC_OPERATOR(==, equal, lazy_operands)
UFX_UFUNC_OPERATOR(!=, not_equal, lazy_operands)
#undef UFX_UFUNC_OPERATOR

/// `-x`: ufx::negative.
template <class A>
requires detail::ufx_operand<A>
auto operator-(A&& a) { return negative(std::forward<A>(a)); }
/// `+x`: ufx::positive.
template <class A>
requires detail::ufx_operand<A>
auto operator+(A&& a) { return positive(std::forward<A>(a)); }
/// `~x`: ufx::invert.
template <class A>
requires detail::ufx_operand<A>
auto operator~(A&& a) { return invert(std::forward<A>(a)); }

UFX_TU_NAMESPACE_END
} // namespace ufx
