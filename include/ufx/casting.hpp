#pragma once
/// \file casting.hpp
/// NumPy's casting rules between element types: `ufx::can_cast<From, To>(rule)`, and the rules as
/// values a call takes (`ufx::casting::safe`, `same_kind`, `unsafe`).
///
/// An array's elements reach a function's typed parameter only where NumPy's `safe` casting allows
/// (np.can_cast(from, to, "safe")): float32 to float64 yes, float64 to float32 no, int16 to float32
/// yes, int32 to float32 no, int64 to float64 yes (NumPy's choice), nothing but bool to bool;
/// ufx::float16 as NumPy's float16 (int8 and uint8 into it, it into float32), ufx::bfloat16 the same
/// (ml_dtypes' table), neither safe into the other. C++
/// scalars are "weak", as NEP 50 treats Python scalars: `add(x_float, 1.0)` converts the 1.0.
/// Outputs written through ufx::out follow `same_kind`: a float result into a float32 destination
/// yes, into an integer one no.
///
/// Example.
///   static_assert(ufx::can_cast<float, double>() && !ufx::can_cast<double, float>());
///   static_assert(ufx::can_cast<double, float>(ufx::casting::same_kind));
///   auto half = ufx::vectorize([](float a) { return a / 2; });
///   half(x_double, ufx::casting::same_kind);   // asks for the narrowing NumPy's casting="same_kind" allows

#include <complex>
#include <type_traits>

namespace ufx {

struct float16;  // ufx/half.hpp
struct bfloat16; // ufx/half.hpp

/// The casting rules, NumPy's names: what a call may convert an array's elements to.
namespace casting {
/// Only conversions that keep every value (NumPy's `safe`), the default for array inputs.
struct safe_t {
  /// The rule's place in NumPy's order: safe 0, same_kind 1, unsafe 2.
  static constexpr int level = 0;
};
/// Safe conversions, and those within a kind (float64 to float32, int64 to int32, any integer to
/// any float): NumPy's `same_kind`, the rule for outputs.
struct same_kind_t {
  /// The rule's place in NumPy's order: safe 0, same_kind 1, unsafe 2.
  static constexpr int level = 1;
};
/// Any conversion C++ makes implicitly (NumPy's `unsafe`).
struct unsafe_t {
  /// The rule's place in NumPy's order: safe 0, same_kind 1, unsafe 2.
  static constexpr int level = 2;
};
/// NumPy's `safe`: the default for array inputs.
inline constexpr safe_t safe{};
/// NumPy's `same_kind`: the rule for outputs, and a call's option.
inline constexpr same_kind_t same_kind{};
/// NumPy's `unsafe`: any implicit C++ conversion, a call's option.
inline constexpr unsafe_t unsafe{};
} // namespace casting

namespace detail {
template <class T>
inline constexpr bool is_casting_v = std::is_same_v<T, casting::safe_t> || std::is_same_v<T, casting::same_kind_t> ||
                                     std::is_same_v<T, casting::unsafe_t>;

/// An element type's NumPy kind ('b', 'u', 'i', 'f', 'c'; 0 for a type NumPy has no kind for) and its
/// size in bytes (of a component, for complex).
template <class T>
struct numeric_kind {
  static constexpr char kind = std::is_same_v<T, bool>       ? 'b'
                               : std::is_integral_v<T>       ? (std::is_signed_v<T> ? 'i' : 'u')
                               : std::is_floating_point_v<T> ? 'f'
                                                             : 0;
  static constexpr int size = static_cast<int>(sizeof(T));
};
template <class T>
struct numeric_kind<std::complex<T>> {
  static constexpr char kind = 'c';
  static constexpr int size = static_cast<int>(sizeof(T));
};
template <>
struct numeric_kind<float16> {
  static constexpr char kind = 'f';
  static constexpr int size = 2;
};
template <>
struct numeric_kind<bfloat16> {
  static constexpr char kind = 'f';
  static constexpr int size = 2;
};

/// False for a std::complex of one precision into a std::complex of another, a conversion nvcc
/// compiles to no code in device code (libstdc++'s converting constructor works on GCC's
/// __complex__ member: docs/element_types.md, "Complex"). Files nvcc compiles reject it where ufx
/// converts elements: into a function's parameters (input_cast) and into ufx::out destinations.
template <class From, class To>
inline constexpr bool device_converts_unqualified = true;
template <class A, class B>
inline constexpr bool device_converts_unqualified<std::complex<A>, std::complex<B>> = std::is_same_v<A, B>;
template <class From, class To>
inline constexpr bool device_converts = device_converts_unqualified<std::remove_cv_t<From>, std::remove_cv_t<To>>;
/// NumPy's `safe` table for integers of `from` bytes into floats (or complex components) of `to`
/// bytes: a float whose mantissa holds every value, and int64 into float64 (NumPy's choice).
constexpr bool int_to_float_safe(int from, int to) { return to > from || (from == 8 && to >= 8); }

template <class From, class To>
constexpr bool can_cast_safe() {
  using F = numeric_kind<From>;
  using T = numeric_kind<To>;
  if constexpr (std::is_same_v<From, To> || F::kind == 'b') return true;
  else if constexpr (T::kind == 'b') return false;
  else if constexpr (F::kind == 'u')
    return (T::kind == 'u' && T::size >= F::size) || (T::kind == 'i' && T::size > F::size) ||
           ((T::kind == 'f' || T::kind == 'c') && int_to_float_safe(F::size, T::size));
  else if constexpr (F::kind == 'i')
    return (T::kind == 'i' && T::size >= F::size) ||
           ((T::kind == 'f' || T::kind == 'c') && int_to_float_safe(F::size, T::size));
  else if constexpr (F::kind == 'f') // float16 and bfloat16 (2 bytes both) are not safe into each other
    return (T::kind == 'f' && T::size > F::size) || (T::kind == 'c' && T::size >= F::size);
  else return T::kind == 'c' && T::size >= F::size;
}

template <class From, class To>
constexpr bool can_cast_same_kind() {
  using F = numeric_kind<From>;
  using T = numeric_kind<To>;
  if constexpr (can_cast_safe<From, To>()) return true;
  else if constexpr (F::kind == 'u') return T::kind == 'u' || T::kind == 'i' || T::kind == 'f' || T::kind == 'c';
  else if constexpr (F::kind == 'i') return T::kind == 'i' || T::kind == 'f' || T::kind == 'c';
  else if constexpr (F::kind == 'f') return T::kind == 'f' || T::kind == 'c';
  else return T::kind == 'c';
}
} // namespace detail

/// Whether NumPy's `rule` lets an element of type From become a To (np.can_cast(From, To, rule)),
/// for bool, the integer and floating types and std::complex. A type NumPy has no kind for (a
/// user's class) converts where C++ converts it implicitly, under every rule.
template <class From, class To, class Rule = casting::safe_t>
constexpr bool can_cast(Rule = {}) {
  using F = std::remove_cv_t<From>;
  using T = std::remove_cv_t<To>;
  static_assert(detail::is_casting_v<Rule>, "ufx::can_cast: the rule is ufx::casting::safe, same_kind or unsafe");
  if constexpr (std::is_same_v<F, T>) return true;
  else if constexpr (detail::numeric_kind<F>::kind == 0 || detail::numeric_kind<T>::kind == 0 || Rule::level == 2)
    return std::is_convertible_v<F, T>;
  else if constexpr (Rule::level == 1) return detail::can_cast_same_kind<F, T>();
  else return detail::can_cast_safe<F, T>();
}

} // namespace ufx
