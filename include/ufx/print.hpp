#pragma once
/// \file print.hpp
/// `std::cout << a` and `ufx::to_string(a)` for `ndarray`, `ndview` and `device_array`, laid out as
/// NumPy's `print(a)` (its `str`): nested brackets, one row per line, elements right-aligned to one
/// width, rows wrapped at 75 characters, and an array of more than 1000 elements summarised with
/// `...` after the first and before the last 3 entries of every axis longer than 6.
///
/// Elements. Integers in decimal; bool as `True` / `False`. Floats as NumPy's default
/// (floatmode 'maxprec', precision 8): the shortest digits that read back as the value in its own
/// type (float or double), rounded to 8 fractional digits when longer; every element padded to the
/// same integer and fractional widths (`[1.5  2.25]`, `[1. 2.]`); scientific notation, with one
/// mantissa width, for the whole array when a finite nonzero magnitude is >= 1e8 or < 1e-4 or the
/// largest is over 1000 times the smallest (`[1.e-05 1.e+00]`); `nan`, `inf`, `-inf`. A rank-0
/// array prints its element as NumPy prints a scalar (`2.5`, `3.0`, `1e-05`). Empty arrays print `[]`.
/// `ufx::float16` as NumPy prints np.float16 arrays: the same rules with the shortest digits that
/// read back as the float16, the magnitudes compared and divided in float16
/// (`[0.1    0.2998]`, `[1.0e-01 1.0e+03]`); `ufx::bfloat16` likewise (NumPy has none). Complex as
/// NumPy's: the real parts laid out as one float array, the imaginary parts as another with a sign
/// always, a `j` after them (`[1.+2.j  3.-4.5j]`, `[  0. +1.j  nan+infj]`); rank 0 as NumPy's
/// complex scalar (`(1+2j)`, `2j`).
///
/// Device data (a `device_array`, or a view into device memory) is copied to the host first.
///
/// Example.
///   ufx::ndarray<float, 2> a{{1, 2.5f}, {-3, 4}};
///   std::cout << a;          // [[ 1.   2.5]
///                            //  [-3.   4. ]]
///   std::string s = ufx::to_string(a);
///
/// Errors. An element type that is not arithmetic, float16, bfloat16 or std::complex: a
/// compile-time error; a failed copy of device
/// data: ufx::device_error.
///
/// Targets. Formatting runs on the calling thread, on the host.

#include <ostream>
#include <string>
#include <type_traits>

#include "ufx/detail/arrays/print.hpp"
#include "ufx/device_array.hpp"
#include "ufx/ndarray.hpp"
#include "ufx/ndview.hpp"

namespace ufx {

/// The array as `std::cout << a` prints it.
template <class T, int R>
std::string to_string(const ndview<T, R>& v) {
  return detail::format_view(ndview<const std::remove_const_t<T>, R>(v.data(), v.shape(), v.strides()));
}
/// The same for an ndarray.
template <class T, int R>
std::string to_string(const ndarray<T, R>& a) {
  return to_string(a.view());
}
/// The same for a device_array (copied to the host first; a failed copy throws ufx::device_error).
template <class T, int R>
std::string to_string(const device_array<T, R>& a) {
  return to_string(a.view());
}

/// Writes `to_string(v)` to `os`.
template <class T, int R>
std::ostream& operator<<(std::ostream& os, const ndview<T, R>& v) {
  return os << to_string(v);
}
/// Writes `to_string(a)` to `os`.
template <class T, int R>
std::ostream& operator<<(std::ostream& os, const ndarray<T, R>& a) {
  return os << to_string(a);
}
/// Writes `to_string(a)` to `os` (the elements copied to the host first).
template <class T, int R>
std::ostream& operator<<(std::ostream& os, const device_array<T, R>& a) {
  return os << to_string(a);
}

} // namespace ufx
