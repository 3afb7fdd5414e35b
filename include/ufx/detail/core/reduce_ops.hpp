#pragma once
// Ready binary operators for reductions and scans (public names, declared here so reduce.hpp stays a short contract),
// and the (value, index) operator behind argmin / argmax.
#include <cstdint>
#include <utility>
#include <type_traits>

#include "ufx/config.hpp"
#include "ufx/detail/core/complex.hpp"
#include "ufx/detail/half/ops.hpp"
#include "ufx/detail/core/promote.hpp"

namespace ufx {

namespace detail {
/// A value's truth as NumPy's: nonzero (a NaN is true); a complex number unless both parts are 0.
template <class R>
UFX_HD constexpr bool truth(const R& x) {
  if constexpr (is_std_complex<R>) return x.real() != 0 || x.imag() != 0;
  else if constexpr (half_type<R>) return static_cast<float>(x) != 0;
  else return static_cast<bool>(x);
}
} // namespace detail

/// `a + b`. As a reduction or scan it is NumPy's `np.add.reduce` / `np.sum`: bool and integers narrower than 64 bits
/// accumulate in 64 bits; float16 and bfloat16 reductions accumulate in float and round once
/// (detail::reduce_accumulator). std::complex adds by parts, the same on every target (nvcc compiles std::complex's
/// own operators to nothing in device code: docs/element_types.md, "Complex").
struct plus {
  template <class T>
  UFX_HD constexpr auto operator()(const T& a, const T& b) const {
    if constexpr (detail::is_std_complex<T>) return detail::cx::add(a, b);
    else return a + b;
  }
};

/// `a * b`. As a reduction or scan it is NumPy's `np.multiply.reduce` / `np.prod`: bool and integers narrower than 64
/// bits accumulate in 64 bits; float16 and bfloat16 reductions in float, rounded once (detail::reduce_accumulator).
/// std::complex multiplies as np.multiply does (the textbook formula, by parts, on every target).
struct multiplies {
  template <class T>
  UFX_HD constexpr auto operator()(const T& a, const T& b) const {
    if constexpr (detail::is_std_complex<T>) return detail::cx::mul(a, b);
    else return a * b;
  }
};

/// The ready ufuncs' functions (ufx/ufuncs.hpp); these four are also the ready reduction operators.
namespace ops {

/// np.minimum's function: the smaller of `a` and `b`, a NaN on either side wins (std::complex: NumPy's lexicographic
/// order, real parts first, and a NaN in either part is a NaN); of two types, in their common type (NumPy's). The
/// operator of ufx::min: `ufx::reduce(x, ufx::minimum, INFINITY)`.
struct minimum {
  template <class A, class B>
  UFX_HD constexpr std::conditional_t<std::is_same_v<A, B>, A, detail::promote_t<A, B>> operator()(const A& a,
                                                                                                   const B& b) const {
    if constexpr (std::is_same_v<A, B>) return detail::cx::keeps_first<false>(a, b) ? a : b;
    else {
      using R = detail::promote_t<A, B>;
      return (*this)(detail::convert_to<R>(a), detail::convert_to<R>(b));
    }
  }
};

/// np.maximum's function: the larger of `a` and `b`, a NaN on either side wins (std::complex: as minimum). The
/// operator of ufx::max.
struct maximum {
  template <class A, class B>
  UFX_HD constexpr std::conditional_t<std::is_same_v<A, B>, A, detail::promote_t<A, B>> operator()(const A& a,
                                                                                                   const B& b) const {
    if constexpr (std::is_same_v<A, B>) return detail::cx::keeps_first<true>(a, b) ? a : b;
    else {
      using R = detail::promote_t<A, B>;
      return (*this)(detail::convert_to<R>(a), detail::convert_to<R>(b));
    }
  }
};

/// np.logical_and's function: `a && b` on truth values (NaN is true, as in NumPy; a complex number is true unless both
/// parts are 0); the result is `bool`.
struct logical_and {
  template <class A, class B>
  UFX_HD constexpr bool operator()(const A& a, const B& b) const {
    return detail::truth(a) && detail::truth(b);
  }
};

/// np.logical_or's function: `a || b` on truth values; the result is `bool`.
struct logical_or {
  template <class A, class B>
  UFX_HD constexpr bool operator()(const A& a, const B& b) const {
    return detail::truth(a) || detail::truth(b);
  }
};

} // namespace ops

namespace detail {

/// The operator a ufunc's function reduces and scans by: its `reduce_op` where it names one (ufx::ops::add's is
/// ufx::plus, so np.add.reduce is np.sum, integers widened), else the function.
template <class F>
constexpr auto reduce_op_of(const F& f) {
  if constexpr (requires { typename F::reduce_op; }) return typename F::reduce_op{};
  else return f;
}
template <class F>
using reduce_op_t = decltype(reduce_op_of(std::declval<const F&>()));
/// A reduction's operator as given: a ufx::vectorize object (ufx::maximum, ufx::add, ...) is its function's
/// reduce_op_of
/// (`ufx::reduce(x, ufx::maximum, -INFINITY)`, `ufx::accumulate(x, ufx::add)`), anything else itself.
template <class X>
constexpr decltype(auto) as_operator(const X& x) {
  if constexpr (requires { typename X::vectorized_tag; }) return reduce_op_of(x.function());
  else return x;
}
/// A map given to a reduction: a ufx::vectorize object is its function (`ufx::transform_reduce(x, y, ufx::multiply,
/// ufx::add, 0.f)`), anything else itself.
template <class X>
constexpr decltype(auto) as_function(const X& x) {
  if constexpr (requires { typename X::vectorized_tag; }) return x.function();
  else return x;
}
/// False for the ready ufuncs' functions that are not associative (subtract, divide, power, ...: `ordered = true`),
/// whose reduce and accumulate NumPy runs as one left fold: ufx's run in a tree.
template <class F>
constexpr bool associative() {
  if constexpr (requires { F::ordered; }) return !F::ordered;
  else return true;
}

/// True for the operators whose reductions and scans follow NumPy's rules for add and multiply (np.sum, np.prod,
/// np.cumsum, ...): bool and integers narrower than 64 bits widen, float16 and bfloat16 reductions accumulate in float
/// (reduce_accumulator, scan_accumulator).
template <class Op>
inline constexpr bool widens_like_numpy = false;
template <>
inline constexpr bool widens_like_numpy<plus> = true;
template <>
inline constexpr bool widens_like_numpy<multiplies> = true;

/// NumPy's accumulator for an add or multiply reduction of values of type V: bool and integers narrower than 64 bits
/// become std::int64_t (signed, bool) or std::uint64_t (unsigned); float16 and bfloat16 float (NumPy's float16 add and
/// multiply loops reduce in float and round at the end); other types as they are.
template <class V>
using numpy_widened = std::conditional_t<
    std::is_integral_v<V> && (sizeof(V) < 8),
    std::conditional_t<std::is_unsigned_v<V> && !std::is_same_v<V, bool>, std::uint64_t, std::int64_t>,
    std::conditional_t<half_type<V>, float, V>>;

/// The accumulator of a reduction by `Op` of values of type V: `Op`'s result on two values (`Result`), but NumPy's
/// widened type (numpy_widened) for ufx::plus and ufx::multiplies of integers and of the 2-byte floats. A user's
/// operator keeps the types it returns: `[](int a, int b) { return a + b; }` sums in int, `[](float a, float b) {
/// return a + b; }` sums float16 elements in float.
template <class Op, class V, class Result>
using reduce_accumulator =
    std::conditional_t<widens_like_numpy<Op> && (std::is_integral_v<V> || half_type<V>), numpy_widened<V>, Result>;

/// What a reduction by `Op` of values of type V with accumulator Acc returns: the accumulator, rounded once to V for
/// ufx::plus and ufx::multiplies of float16 and bfloat16 (np.sum of a float16 array is a float16).
template <class Op, class V, class Acc>
using reduce_result = std::conditional_t<widens_like_numpy<Op> && half_type<V>, V, Acc>;

/// The accumulator of a scan (ufx::accumulate) by `Op` of values of type V: as reduce_accumulator for integers, but
/// float16 and bfloat16 keep `Op`'s result (their own type): np.cumsum of a float16 array rounds every step to
/// float16 (its loop adds two float16 values in float and stores a float16), and so does ufx::accumulate.
template <class Op, class V, class Result>
using scan_accumulator = std::conditional_t<widens_like_numpy<Op> && std::is_integral_v<V>, numpy_widened<V>, Result>;

/// A value and the flat (or along-axis) index it was found at.
template <class V>
struct arg_pair {
  V value;
  index_t index;
};

/// Builds an arg_pair from an element and its index (the map of argmin / argmax).
struct arg_map {
  static constexpr bool takes_index = true; // called with the element's index after it
  template <class V>
  UFX_HD constexpr arg_pair<V> operator()(const V& v, index_t i) const {
    return {v, i};
  }
};

/// Picks the better of two arg_pairs: the smaller (Max: larger) value, a NaN before any number, on ties the smaller
/// index. Commutative and associative, so any order finds NumPy's answer (the first occurrence). std::complex: NumPy's
/// lexicographic order, a NaN in either part a NaN (cx::less, cx::is_nan).
template <bool Max>
struct arg_better {
  template <class V>
  UFX_HD constexpr arg_pair<V> operator()(const arg_pair<V>& a, const arg_pair<V>& b) const {
    const bool an = cx::is_nan(a.value), bn = cx::is_nan(b.value);
    if (an != bn) return an ? a : b;
    if (!an) {
      if (Max ? cx::less(b.value, a.value) : cx::less(a.value, b.value)) return a;
      if (Max ? cx::less(a.value, b.value) : cx::less(b.value, a.value)) return b;
    }
    return a.index <= b.index ? a : b;
  }
};

/// The index of an arg_pair (the finishing step of argmin / argmax).
struct arg_index {
  template <class V>
  UFX_HD constexpr index_t operator()(const arg_pair<V>& p) const {
    return p.index;
  }
};

/// True for operators that treat both arguments alike (ufx's ready ones, argmin / argmax's): an element is as good an
/// accumulator as any, so a partial may begin with its first element and CUB may combine elements pairwise. Other
/// operators get docs/reduce.md's fold: with an identity, every partial starts from it and elements join as op(acc, x).
template <class Op>
inline constexpr bool seeds_with_elements = false;
template <>
inline constexpr bool seeds_with_elements<plus> = true;
template <>
inline constexpr bool seeds_with_elements<multiplies> = true;
template <>
inline constexpr bool seeds_with_elements<ops::minimum> = true;
template <>
inline constexpr bool seeds_with_elements<ops::maximum> = true;
template <>
inline constexpr bool seeds_with_elements<ops::logical_and> = true;
template <>
inline constexpr bool seeds_with_elements<ops::logical_or> = true;
template <bool Max>
inline constexpr bool seeds_with_elements<arg_better<Max>> = true;

} // namespace detail
} // namespace ufx
