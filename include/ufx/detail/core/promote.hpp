#pragma once
// NumPy's type resolution for the ready ufuncs (ufx/ufuncs.hpp) and the reduction operators (reduce_ops.hpp): the
// common type of two element types (np.result_type / np.promote_types), the float type a unary float function computes
// in (np.exp of int8 is float16, of int32 float64), and NEP 50's weak C++ scalars. Built on casting.hpp's `safe` table,
// as NumPy builds promote_types on can_cast: the common type is the first of a fixed order of types that both cast to
// safely.
#include <complex>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "ufx/casting.hpp"
#include "ufx/config.hpp"
#include "ufx/detail/core/complex.hpp"
#include "ufx/detail/half/ops.hpp"

namespace ufx::detail {

template <class... T>
struct type_list {};

/// The element types in NumPy's promotion order (np.promote_types is the first both cast to safely); bfloat16 (not a
/// NumPy type) as ml_dtypes orders it, after float16.
using promotion_order =
    type_list<bool, std::uint8_t, std::int8_t, std::uint16_t, std::int16_t, std::uint32_t, std::int32_t, std::uint64_t,
              std::int64_t, float16, bfloat16, float, double, std::complex<float>, std::complex<double>>;
/// The types a unary float function may compute in (np.exp's loops e, f, d, F, D; bfloat16 beside float16).
using float_order = type_list<float16, bfloat16, float, double, std::complex<float>, std::complex<double>>;

template <std::size_t Bytes, bool Signed>
struct sized_int;
template <>
struct sized_int<1, true> {
  using type = std::int8_t;
};
template <>
struct sized_int<2, true> {
  using type = std::int16_t;
};
template <>
struct sized_int<4, true> {
  using type = std::int32_t;
};
template <>
struct sized_int<8, true> {
  using type = std::int64_t;
};
template <>
struct sized_int<1, false> {
  using type = std::uint8_t;
};
template <>
struct sized_int<2, false> {
  using type = std::uint16_t;
};
template <>
struct sized_int<4, false> {
  using type = std::uint32_t;
};
template <>
struct sized_int<8, false> {
  using type = std::uint64_t;
};
template <class T>
struct fixed_int {
  using type = T;
};
template <class T>
requires(std::is_integral_v<T> && !std::is_same_v<T, bool>) struct fixed_int<T> {
  using type = typename sized_int<sizeof(T), std::is_signed_v<T>>::type;
};
/// A C++ integer type as the fixed-width type of its size and signedness (long long and long are both int64).
template <class T>
using fixed_int_t = typename fixed_int<T>::type;

/// Whether T is one of the element types NumPy promotes (bool, the integers, the floats, float16, bfloat16,
/// std::complex<float>, std::complex<double>).
template <class T>
inline constexpr bool promotable = std::is_arithmetic_v<T> || half_type<T> || std::is_same_v<T, std::complex<float>> ||
                                   std::is_same_v<T, std::complex<double>>;

template <class L, class... T>
struct first_safe;
template <class C, class... Rest, class... T>
struct first_safe<type_list<C, Rest...>, T...> {
  using type = std::conditional_t<(can_cast<T, C>() && ...), C, typename first_safe<type_list<Rest...>, T...>::type>;
};
template <class... T>
struct first_safe<type_list<>, T...> {
  using type = void;
};

/// NumPy's common type of element types (np.result_type of arrays of these types): int32 and float32 give float64,
/// int64 and uint64 float64, float16 and int16 float32; long double has none (void).
template <class... T>
using promote_t = typename first_safe<promotion_order, fixed_int_t<std::remove_cv_t<T>>...>::type;

/// The type a unary float function (np.exp, np.sqrt, ...) computes in for an element of type T: the first float type T
/// casts to safely (bool, int8 and uint8 float16; int16 and uint16 float32; wider integers float64; floats and
/// complex their own).
template <class T>
using float_of_t = typename first_safe<float_order, fixed_int_t<std::remove_cv_t<T>>>::type;

/// The type a binary float function (np.arctan2, np.logaddexp, ...) computes in.
template <class A, class B>
using float_of2_t = promote_t<float_of_t<A>, float_of_t<B>>;

/// The kind NEP 50 ranks scalars by: bool 0, integers 1, floats 2, complex 3.
template <class T>
constexpr int kind_rank() {
  constexpr char k = numeric_kind<fixed_int_t<T>>::kind;
  return k == 'b' ? 0 : (k == 'i' || k == 'u') ? 1 : k == 'f' ? 2 : 3;
}

/// NEP 50: the type a weak C++ scalar of type W takes beside arrays of common type S. Of S's kind or a lower one, it
/// becomes an S (`add(x_float32, 1.0)` stays float32, `add(x_int8, 1)` int8); of a higher kind, the kind's default
/// type, complex of S's precision: an integer beside bool arrays int64, a float beside integer or bool arrays float64,
/// a complex beside float32 complex<float>.
template <class W, class S>
using weak_scalar_t = std::conditional_t<
    (kind_rank<W>() <= kind_rank<S>()), S,
    std::conditional_t<kind_rank<W>() == 1, std::int64_t,
                       std::conditional_t<kind_rank<W>() == 2, double,
                                          std::conditional_t<(kind_rank<S>() == 2 && sizeof(S) <= 4),
                                                             std::complex<float>, std::complex<double>>>>>;

/// `x` as an R: exact where R holds it; std::complex by parts (nvcc compiles std::complex's converting constructor to
/// no code in device code); float16 and bfloat16 through float.
template <class R, class T>
UFX_HD UFX_ALWAYS_INLINE constexpr R convert_to(const T& x) {
  if constexpr (std::is_same_v<R, T>) return x;
  else if constexpr (is_std_complex<R> && is_std_complex<T>)
    return R(static_cast<typename R::value_type>(x.real()), static_cast<typename R::value_type>(x.imag()));
  else if constexpr (is_std_complex<R>) return R(convert_to<typename R::value_type>(x), 0);
  else if constexpr (half_type<R> && half_type<T>) return R(static_cast<float>(x));
  else if constexpr (half_type<R>) return R(x);
  else if constexpr (half_type<T>) return static_cast<R>(static_cast<float>(x));
  else return static_cast<R>(x);
}

/// The name NumPy gives an element type ("int8", "float32", "complex128"; "bfloat16" after ml_dtypes).
template <class T>
constexpr const char* numpy_name() {
  using F = fixed_int_t<T>;
  if constexpr (std::is_same_v<F, bool>) return "bool";
  else if constexpr (std::is_same_v<F, std::int8_t>) return "int8";
  else if constexpr (std::is_same_v<F, std::int16_t>) return "int16";
  else if constexpr (std::is_same_v<F, std::int32_t>) return "int32";
  else if constexpr (std::is_same_v<F, std::int64_t>) return "int64";
  else if constexpr (std::is_same_v<F, std::uint8_t>) return "uint8";
  else if constexpr (std::is_same_v<F, std::uint16_t>) return "uint16";
  else if constexpr (std::is_same_v<F, std::uint32_t>) return "uint32";
  else if constexpr (std::is_same_v<F, std::uint64_t>) return "uint64";
  else if constexpr (std::is_same_v<F, float16>) return "float16";
  else if constexpr (std::is_same_v<F, bfloat16>) return "bfloat16";
  else if constexpr (std::is_same_v<F, float>) return "float32";
  else if constexpr (std::is_same_v<F, double>) return "float64";
  else if constexpr (std::is_same_v<F, std::complex<float>>) return "complex64";
  else if constexpr (std::is_same_v<F, std::complex<double>>) return "complex128";
  else return "an element type NumPy has no name for";
}

/// Whether the integer v is a value of the integer type I.
template <class I, class V>
constexpr bool integer_fits(V v) {
  if constexpr (std::is_same_v<I, bool>) return v == 0 || v == 1;
  else return std::in_range<I>(v);
}

} // namespace ufx::detail
