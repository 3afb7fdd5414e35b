#pragma once
// std::complex arithmetic that device code can run: NumPy's formulas on the real and imaginary parts, built from what
// nvcc compiles correctly. nvcc (13, with libstdc++) compiles std::complex's operators (+, -, *, /, +=, ...) and its
// conversion between precisions, which work on GCC's __complex__ member, to no code at all in device code, without a
// diagnostic: `a + b` gives garbage. Its constructor from two parts, real(), imag(), copies and == are sound, and are
// all this file uses. ufx's ready operators (reduce_ops.hpp) and ufx::math's complex functions go through here, so
// they are the same on every target.
#include <complex>
#include <type_traits>

#include "ufx/config.hpp"

namespace ufx::detail {

template <class T>
inline constexpr bool is_std_complex = false;
template <class T>
inline constexpr bool is_std_complex<std::complex<T>> = true;

namespace cx {

template <class T>
UFX_HD constexpr std::complex<T> add(const std::complex<T>& a, const std::complex<T>& b) {
  return {a.real() + b.real(), a.imag() + b.imag()};
}
template <class T>
UFX_HD constexpr std::complex<T> sub(const std::complex<T>& a, const std::complex<T>& b) {
  return {a.real() - b.real(), a.imag() - b.imag()};
}
/// NumPy's multiply: the textbook formula, no recovery of infinities (np.multiply(inf+0j, 1+0j) is inf+nanj).
template <class T>
UFX_HD constexpr std::complex<T> mul(const std::complex<T>& a, const std::complex<T>& b) {
  const T ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  return {ar * br - ai * bi, ar * bi + ai * br};
}
/// NumPy's divide: Smith's method, scaled by the larger part of the divisor; a zero divisor divides each part by +0
/// (1/0j is inf+nanj).
template <class T>
UFX_HD constexpr std::complex<T> div(const std::complex<T>& a, const std::complex<T>& b) {
  const T ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  const T abr = br < 0 ? -br : br + T(0), abi = bi < 0 ? -bi : bi + T(0); // |x|, and -0 to +0 as fabs does
  if (abr >= abi) {
    if (abr == 0 && abi == 0) return {ar / abr, ai / abr};
    const T rat = bi / br, scl = T(1) / (br + bi * rat);
    return {(ar + ai * rat) * scl, (ai - ar * rat) * scl};
  }
  const T rat = br / bi, scl = T(1) / (bi + br * rat);
  return {(ar * rat + ai) * scl, (ai * rat - ar) * scl};
}

/// NaN in either part (NumPy's complex NaN, for argmin / argmax and minimum / maximum); other types: v != v.
template <class V>
UFX_HD constexpr bool is_nan(const V& v) {
  if constexpr (is_std_complex<V>) return v.real() != v.real() || v.imag() != v.imag();
  else return v != v;
}
/// a < b: NumPy's lexicographic order for complex (real parts, then imaginary), `<` for other types.
template <class V>
UFX_HD constexpr bool less(const V& a, const V& b) {
  if constexpr (is_std_complex<V>) return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag());
  else return a < b;
}
/// Whether np.minimum (Max: np.maximum) of a and b is a: a NaN wins, a's first, then the smaller (larger) by `less`, b
/// on ties. A complex b with a NaN part wins over a number even where `less` orders their other parts (np.maximum(1+0j,
/// complex(0, nan)) is the NaN).
template <bool Max, class V>
UFX_HD constexpr bool keeps_first(const V& a, const V& b) {
  const bool ordered = Max ? less(b, a) : less(a, b);
  if constexpr (is_std_complex<V>) return is_nan(a) || (ordered && !is_nan(b));
  else return ordered || is_nan(a); // a NaN b is unordered: b
}

} // namespace cx
} // namespace ufx::detail
