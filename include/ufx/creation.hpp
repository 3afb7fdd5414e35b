#pragma once
/// \file creation.hpp
/// NumPy's array creation routines: `arange`, `linspace`, `zeros`, `ones`, `full`, the `*_like`
/// family, and `to_vector`. (Nested lists: `ufx::ndarray<float, 2> a{{1, 2}, {3, 4}}`; random
/// fills: ufx/random.hpp.)
///
///   auto i = ufx::arange(5);                 // int: [0 1 2 3 4]
///   auto x = ufx::arange(0.0, 1.0, 0.25);    // double: [0.   0.25 0.5  0.75]
///   auto f = ufx::arange<float>(3);          // float: [0. 1. 2.]
///   auto l = ufx::linspace(0.0, 1.0, 5);     // [0.   0.25 0.5  0.75 1.  ]
///   auto z = ufx::zeros<float>({2, 3});      // also ones<T>(shape), full(shape, value)
///   auto d = ufx::zeros_like(device_arr);    // a device_array on the same device, filled there
///   std::vector<float> v = ufx::to_vector(device_vec); // rank 1 only
///
/// Element types: the numbers, `ufx::float16` and `ufx::bfloat16` (`arange<ufx::float16>(0, 1, 0.1)`,
/// `linspace<ufx::bfloat16>(0, 1, 5)`, `zeros<ufx::float16>({2})`), and `std::complex<float>` /
/// `std::complex<double>` (`arange<std::complex<float>>(0, 3, 0.5)`, `linspace` of two complex
/// ends, `ones<std::complex<double>>({2})`, `full_like(z, std::complex<double>(1, 2))`), as NumPy
/// has them all.
///
/// Lengths and values. `arange(start, stop, step)` has NumPy's ceil((stop - start) / step)
/// elements (none when that is negative), of the common type of the arguments, or T in
/// `arange<T>(...)`. Its values are NumPy's fill: a[0] = start and a[1] = start + step (added in
/// the arguments' own type: integers exactly, else in double, or float for float arguments), each
/// converted to the element type once, then a[i] = a[0] + i * (a[1] - a[0]) in the element type,
/// componentwise for complex, and in float, rounded once, for float16 and bfloat16 (NumPy's
/// HALF_fill: `arange<ufx::float16>(0, 1, 0.1)` is NumPy's [0. 0.1 0.2 0.2998 0.4 ...]).
/// `linspace(a, b, n, endpoint)` divides [a, b] into n - 1 steps (n without the endpoint),
/// computed in double and converted to the result type (double for integer arguments), the last
/// element exactly b; of complex ends, componentwise in double with NumPy's complex step,
/// (b - a) * (1 / steps), converted to the ends' type.
///
/// Errors. A zero step: ufx::value_error; a negative count or extent: ufx::value_error /
/// ufx::shape_error.
///
/// Targets. arange, linspace, full, zeros, ones and empty_like / full_like of host data fill a
/// host ndarray on the calling thread; the `*_like` functions of a device_array or device_view
/// make a device_array on the same device and fill it there.

#include <array>
#include <complex>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "ufx/detail/arrays/creation.hpp"
#include "ufx/device_array.hpp"
#include "ufx/ndarray.hpp"

namespace ufx {

/// NumPy's `np.arange(start, stop, step)`: ceil((stop - start) / step) elements.
template <class T = void, class A, class B, class S = int>
requires std::is_arithmetic_v<A> && std::is_arithmetic_v<B> && std::is_arithmetic_v<S> ndarray <
    detail::creation_t<T, A, B, S>,
1 > arange(A start, B stop, S step = 1) {
  return detail::arange_impl<detail::creation_t<T, A, B, S>>(start, stop, step);
}
/// NumPy's `np.arange(stop)`: 0, 1, ..., stop - 1 (ceil(stop) elements for a floating stop).
template <class T = void, class B>
requires std::is_arithmetic_v<B> ndarray < detail::creation_t<T, B>,
1 > arange(B stop) { return arange<detail::creation_t<T, B>>(B{0}, stop, 1); }

/// NumPy's `np.linspace(a, b, n, endpoint)`: n evenly spaced values from a to b.
template <class T = void, class A, class B>
requires std::is_arithmetic_v<A> && std::is_arithmetic_v<B>
auto linspace(A a, B b, index_t n, bool endpoint = true) { return detail::linspace_impl<T>(a, b, n, endpoint); }

/// NumPy's `np.linspace(a, b, n, endpoint)` of complex ends: n evenly spaced values from a to b,
/// computed as NumPy computes complex128's, in the ends' type (for std::complex<float>, NumPy's
/// `dtype=np.complex64`).
template <class F>
ndarray<std::complex<F>, 1> linspace(std::complex<F> a, std::complex<F> b, index_t n, bool endpoint = true) {
  return detail::linspace_complex(a, b, n, endpoint);
}

/// An array of `shape` holding `value` everywhere: `ufx::full({2, 3}, 7.f)`.
template <class T, std::size_t R>
ndarray<T, static_cast<int>(R)> full(const index_t (&shape)[R], const T& value) {
  return ndarray<T, static_cast<int>(R)>(detail::shape_of(shape), value);
}
/// The same with the shape as a std::array.
template <class T, std::size_t R>
ndarray<T, static_cast<int>(R)> full(const std::array<index_t, R>& shape, const T& value) {
  return ndarray<T, static_cast<int>(R)>(shape, value);
}
/// `ufx::zeros<float>({2, 3})`.
template <class T, std::size_t R>
ndarray<T, static_cast<int>(R)> zeros(const index_t (&shape)[R]) {
  return full(shape, T(0));
}
/// The same with the shape as a std::array.
template <class T, std::size_t R>
ndarray<T, static_cast<int>(R)> zeros(const std::array<index_t, R>& shape) {
  return full(shape, T(0));
}
/// `ufx::ones<float>({2, 3})`.
template <class T, std::size_t R>
ndarray<T, static_cast<int>(R)> ones(const index_t (&shape)[R]) {
  return full(shape, T(1));
}
/// The same with the shape as a std::array.
template <class T, std::size_t R>
ndarray<T, static_cast<int>(R)> ones(const std::array<index_t, R>& shape) {
  return full(shape, T(1));
}

/// A new array with x's shape and element type, uninitialised: an ndarray for an ndarray or a
/// host view, a device_array on the same device for a device_array or device_view.
template <class T, int R>
ndarray<T, R> empty_like(const ndarray<T, R>& x) {
  return ndarray<T, R>(x.shape());
}
/// The same for a host view: a new ndarray of its shape (the element type without const).
template <class T, int R>
ndarray<std::remove_const_t<T>, R> empty_like(const ndview<T, R>& x) {
  return ndarray<std::remove_const_t<T>, R>(x.shape());
}
/// The same for a device_array: a new device_array on x's device.
template <class T, int R>
device_array<T, R> empty_like(const device_array<T, R>& x) {
  return device_array<T, R>(x.shape(), x.space());
}
/// The same for a device_view: a new device_array on the view's device.
template <class T, int R>
device_array<std::remove_const_t<T>, R> empty_like(const device_view<T, R>& x) {
  return device_array<std::remove_const_t<T>, R>(x.shape(), space_of(x));
}

/// x's shape and element type, `value` everywhere (converted to the element type); on x's device
/// for device data, filled there.
template <class X, scalar_like V>
auto full_like(const X& x, const V& value) {
  auto r = empty_like(x);
  detail::fill_value(r, value);
  return r;
}
/// `full_like(x, 0)`: x's shape and element type, zeros everywhere.
template <class X>
auto zeros_like(const X& x) {
  return full_like(x, 0);
}
/// `full_like(x, 1)`: x's shape and element type, ones everywhere.
template <class X>
auto ones_like(const X& x) {
  return full_like(x, 1);
}

/// The elements of a rank-1 array as a std::vector (a device array is copied to the host).
template <class T, int R>
std::vector<T> to_vector(const ndarray<T, R>& x) {
  detail::check_to_vector_rank<R>();
  return std::vector<T>(x.begin(), x.end());
}
/// The same for a device_array: its elements copied to the host. R must be 1 (a static_assert).
template <class T, int R>
std::vector<T> to_vector(const device_array<T, R>& x) {
  detail::check_to_vector_rank<R>();
  std::vector<T> v(static_cast<std::size_t>(x.size()));
  x.copy_to_host(v);
  return v;
}

} // namespace ufx
