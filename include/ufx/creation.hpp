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
/// Lengths. `arange(start, stop, step)` has NumPy's ceil((stop - start) / step) elements (none
/// when that is negative), element i being start + i * step computed in the result type: the
/// common type of the arguments, or T in `arange<T>(...)`. `linspace(a, b, n, endpoint)` divides
/// [a, b] into n - 1 steps (n without the endpoint), computed in double and converted to the
/// result type (double for integer arguments), the last element exactly b.
///
/// Errors. A zero step: ufx::value_error; a negative count or extent: ufx::value_error /
/// ufx::shape_error.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "ufx/detail/backends.hpp"
#include "ufx/detail/cpu/executor.hpp"
#include "ufx/detail/device/launch.hpp"
#include "ufx/device_array.hpp"
#include "ufx/errors.hpp"
#include "ufx/ndarray.hpp"

namespace ufx {
namespace detail {
UFX_TU_NAMESPACE_BEGIN

/// out[i] = gen(i), as one thread of a device loop.
template <class T, class Gen>
struct generate_fn {
  T* out;
  Gen gen;
  UFX_HD void operator()(index_t i) const { out[i] = gen(i); }
};

/// The same value at every index.
template <class T>
struct constant_gen {
  T value;
  UFX_HD T operator()(index_t) const { return value; }
};

/// Fills a host array with gen(i), on `exec`'s threads.
template <class T, class Gen>
void fill_host(T* out, index_t n, const Gen& gen, const cpu_executor& exec = cpu_executor()) {
  exec.blocks(n, [&](index_t b, index_t e) {
    for (index_t i = b; i < e; ++i) out[i] = gen(i);
  });
}

/// Fills a device array with gen(i) on its device (a host fill and a copy for ufx::cuda data in a
/// translation unit that nvcc did not compile, which cannot launch).
template <class T, int R, class Gen>
void fill_device(device_array<T, R>& d, const Gen& gen, const char* label) {
  d.target().visit([&](const auto& t) {
    using Tg = std::remove_cvref_t<decltype(t)>;
    if constexpr (Tg::is_device) {
      if constexpr (std::is_same_v<Tg, cuda_t> && !UFX_CUDA_TU) {
        ndarray<T, R> h(d.shape());
        fill_host(h.data(), h.size(), gen);
        d.copy_from_host(h);
      } else {
        device_for_each(t, d.size(), generate_fn<T, Gen>{d.data(), gen}, label);
        if constexpr (std::is_same_v<Tg, cuda_t>) d.space().runtime->synchronize(d.space().device);
      }
    }
  });
}

/// The shape of `x` as an array of extents.
template <std::size_t R>
std::array<index_t, R> shape_of(const index_t (&shape)[R]) {
  std::array<index_t, R> s{};
  for (std::size_t k = 0; k < R; ++k) s[k] = shape[k];
  return s;
}

template <class T, class... A>
using creation_t = std::conditional_t<std::is_void_v<T>, std::common_type_t<A...>, T>;

template <int R>
void check_to_vector_rank() {
  static_assert(R == 1, "ufx::to_vector: the array must have rank 1 (std::vector holds one axis)");
}

UFX_TU_NAMESPACE_END
} // namespace detail

/// NumPy's `np.arange(start, stop, step)`: ceil((stop - start) / step) elements.
template <class T = void, class A, class B, class S = int>
  requires std::is_arithmetic_v<A> && std::is_arithmetic_v<B> && std::is_arithmetic_v<S>
ndarray<detail::creation_t<T, A, B, S>, 1> arange(A start, B stop, S step = 1) {
  using V = detail::creation_t<T, A, B, S>;
  if (step == 0) throw value_error("ufx::arange: the step is zero");
  index_t n = 0;
  if constexpr (std::is_integral_v<A> && std::is_integral_v<B> && std::is_integral_v<S>) {
    const long long span = static_cast<long long>(stop) - static_cast<long long>(start), st = static_cast<long long>(step);
    n = static_cast<index_t>(span / st + ((span % st != 0) && ((span < 0) == (st < 0)) ? 1 : 0));
  } else {
    const double len = std::ceil((static_cast<double>(stop) - static_cast<double>(start)) / static_cast<double>(step));
    if (!(len < 0x1p62)) // also nan
      throw value_error("ufx::arange: the length, ceil((stop - start) / step), is not a finite array size");
    n = len < 0 ? 0 : static_cast<index_t>(len);
  }
  ndarray<V, 1> a({n < 0 ? 0 : n});
  for (index_t i = 0; i < a.size(); ++i) a(i) = static_cast<V>(static_cast<V>(start) + static_cast<V>(i) * static_cast<V>(step));
  return a;
}
/// NumPy's `np.arange(stop)`: 0, 1, ..., stop - 1 (ceil(stop) elements for a floating stop).
template <class T = void, class B>
  requires std::is_arithmetic_v<B>
ndarray<detail::creation_t<T, B>, 1> arange(B stop) {
  return arange<detail::creation_t<T, B>>(B{0}, stop, 1);
}

/// NumPy's `np.linspace(a, b, n, endpoint)`: n evenly spaced values from a to b.
template <class T = void, class A, class B>
  requires std::is_arithmetic_v<A> && std::is_arithmetic_v<B>
auto linspace(A a, B b, index_t n, bool endpoint = true) {
  using C = detail::creation_t<T, A, B>;
  using V = std::conditional_t<std::is_void_v<T> && std::is_integral_v<C>, double, C>;
  if (n < 0) throw value_error("ufx::linspace: the number of samples, " + std::to_string(n) + ", is negative");
  ndarray<V, 1> r({n});
  const index_t div = endpoint ? n - 1 : n;
  const double lo = static_cast<double>(a), delta = static_cast<double>(b) - lo;
  const double step = div > 0 ? delta / static_cast<double>(div) : 0.0;
  for (index_t i = 0; i < n; ++i) r(i) = static_cast<V>(lo + static_cast<double>(i) * step);
  if (endpoint && n > 1) r(n - 1) = static_cast<V>(b);
  return r;
}

/// An array of `shape` holding `value` everywhere: `ufx::full({2, 3}, 7.f)`.
template <class T, std::size_t R>
ndarray<T, static_cast<int>(R)> full(const index_t (&shape)[R], const T& value) {
  return ndarray<T, static_cast<int>(R)>(detail::shape_of(shape), value);
}
template <class T, std::size_t R>
ndarray<T, static_cast<int>(R)> full(const std::array<index_t, R>& shape, const T& value) {
  return ndarray<T, static_cast<int>(R)>(shape, value);
}
/// `ufx::zeros<float>({2, 3})`.
template <class T, std::size_t R>
ndarray<T, static_cast<int>(R)> zeros(const index_t (&shape)[R]) {
  return full(shape, T(0));
}
template <class T, std::size_t R>
ndarray<T, static_cast<int>(R)> zeros(const std::array<index_t, R>& shape) {
  return full(shape, T(0));
}
/// `ufx::ones<float>({2, 3})`.
template <class T, std::size_t R>
ndarray<T, static_cast<int>(R)> ones(const index_t (&shape)[R]) {
  return full(shape, T(1));
}
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
template <class T, int R>
ndarray<std::remove_const_t<T>, R> empty_like(const ndview<T, R>& x) {
  return ndarray<std::remove_const_t<T>, R>(x.shape());
}
template <class T, int R>
device_array<T, R> empty_like(const device_array<T, R>& x) {
  return device_array<T, R>(x.shape(), x.space());
}
template <class T, int R>
device_array<std::remove_const_t<T>, R> empty_like(const device_view<T, R>& x) {
  return device_array<std::remove_const_t<T>, R>(x.shape(), space_of(x));
}

/// x's shape and element type, `value` everywhere (converted to the element type); on x's device
/// for device data, filled there.
template <class X, class V>
  requires std::is_arithmetic_v<V>
auto full_like(const X& x, const V& value) {
  auto r = empty_like(x);
  using E = typename decltype(r)::value_type;
  if constexpr (requires { r.to_host(); })
    detail::fill_device(r, detail::constant_gen<E>{static_cast<E>(value)}, "ufx::full_like fill kernel");
  else
    std::fill(r.begin(), r.end(), static_cast<E>(value));
  return r;
}
template <class X>
auto zeros_like(const X& x) {
  return full_like(x, 0);
}
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
template <class T, int R>
std::vector<T> to_vector(const device_array<T, R>& x) {
  detail::check_to_vector_rank<R>();
  std::vector<T> v(static_cast<std::size_t>(x.size()));
  x.copy_to_host(v);
  return v;
}

} // namespace ufx
