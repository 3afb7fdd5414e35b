#pragma once
// The bodies of ufx/creation.hpp: lengths and values of arange and linspace, and the fills of new arrays (host arrays
// on the calling thread or ufx::host's threads, device arrays on their device).
#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstddef>
#include <string>
#include <type_traits>

#include "ufx/detail/backends.hpp"
#include "ufx/detail/cpu/executor.hpp"
#include "ufx/detail/device/thread.hpp"
#include "ufx/device_array.hpp"
#include "ufx/errors.hpp"
#include "ufx/half.hpp"
#include "ufx/ndarray.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// out[i] = gen(i), as one thread of a device loop; `out` is the target's accessor (acc_for: ufx::sim's tell
/// ufx::profile the stores).
template <class OutA, class Gen>
struct generate_fn {
  OutA out;
  Gen gen;
  UFX_HD void operator()(index_t i) const { out.at(i) = gen(i); }
};

/// The same value at every index.
template <class T>
struct constant_gen {
  T value;
  UFX_HD T operator()(index_t) const { return value; }
};

template <class T, class Gen>
void fill_host(T* out, index_t n, const Gen& gen, const cpu_executor& exec = cpu_executor()) {
  exec.blocks(n, [&](index_t b, index_t e) {
    for (index_t i = b; i < e; ++i) out[i] = gen(i);
  });
}

/// Fills a device array with gen(i) on its device (a host fill and a copy where nvcc did not compile the caller).
template <class T, int R, class Gen>
void fill_device(device_array<T, R>& d, const Gen& gen, const char* label) {
  d.target().visit([&](const auto& t) {
    using Tg = std::remove_cvref_t<decltype(t)>;
    if constexpr (Tg::is_device) {
      if constexpr (!launches_here<Tg>) {
        ndarray<T, R> h(d.shape());
        fill_host(h.data(), h.size(), gen);
        d.copy_from_host(h);
      } else {
        using out_acc = acc_for_t<Tg, T>;
        device_for_each(t, d.size(), generate_fn<out_acc, Gen>{out_acc::of(d.data(), 0, 1), gen},
                        label); // ufx::cuda: queued
      }
    }
  });
}

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

template <class T>
inline constexpr bool is_complex_v = false;
template <class F>
inline constexpr bool is_complex_v<std::complex<F>> = true;

/// One component of T: T, or F for std::complex<F>.
template <class T>
struct component {
  using type = T;
};
template <class F>
struct component<std::complex<F>> {
  using type = F;
};

/// The type arange's fill computes in: float for ufx::float16 and ufx::bfloat16 (NumPy's HALF_fill), the element
/// type otherwise.
template <class V>
using arange_compute_t = std::conditional_t<half_type<V>, float, V>;

/// NumPy's fill of arange's array: a[0] = start and a[1] = start + step (added in the arguments' type, as Python adds
/// them: integers exactly, else in double or float), each converted to V once; then a[i] = a[0] + i * (a[1] - a[0]),
/// computed in arange_compute_t<V> (componentwise for complex) and converted to V.
template <class V, class A, class S>
void arange_fill(ndarray<V, 1>& a, A start, S step) {
  using W = arange_compute_t<V>;
  if (a.size() == 0) return;
  a(0) = static_cast<V>(start);
  if (a.size() == 1) return;
  if constexpr (std::is_integral_v<A> && std::is_integral_v<S>)
    a(1) = static_cast<V>(static_cast<long long>(start) + static_cast<long long>(step));
  else a(1) = static_cast<V>(start + step);
  const W first = static_cast<W>(a(0)), delta = static_cast<W>(static_cast<W>(a(1)) - first);
  using R = typename component<W>::type; // i in the type of one component
  for (index_t i = 2; i < a.size(); ++i) a(i) = static_cast<V>(first + delta * static_cast<R>(i));
}

/// ufx::arange's array, of element type V.
template <class V, class A, class B, class S>
ndarray<V, 1> arange_impl(A start, B stop, S step) {
  if (step == 0) throw value_error("ufx::arange: the step is zero");
  index_t n = 0;
  if constexpr (std::is_integral_v<A> && std::is_integral_v<B> && std::is_integral_v<S>) {
    const long long span = static_cast<long long>(stop) - static_cast<long long>(start),
                    st = static_cast<long long>(step);
    n = static_cast<index_t>(span / st + ((span % st != 0) && ((span < 0) == (st < 0)) ? 1 : 0));
  } else {
    const double len = std::ceil((static_cast<double>(stop) - static_cast<double>(start)) / static_cast<double>(step));
    if (!(len < 0x1p62)) // also nan
      throw value_error("ufx::arange: the length, ceil((stop - start) / step), is not a finite array size");
    n = len < 0 ? 0 : static_cast<index_t>(len);
  }
  ndarray<V, 1> a({n < 0 ? 0 : n});
  arange_fill(a, start, step);
  return a;
}

/// ufx::linspace's array: T, else the arguments' common type, double for integers.
template <class T, class A, class B>
auto linspace_impl(A a, B b, index_t n, bool endpoint) {
  using C = creation_t<T, A, B>;
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

/// ufx::linspace's array of complex ends, as NumPy computes complex128's (and converted to std::complex<F>): the step
/// is (b - a) divided by the number of steps as NumPy divides a complex by a real (times 1 / div, componentwise:
/// Smith's algorithm with a zero imaginary part), element i is i * step + a componentwise, the last element exactly b.
template <class F>
ndarray<std::complex<F>, 1> linspace_complex(std::complex<F> a, std::complex<F> b, index_t n, bool endpoint) {
  if (n < 0) throw value_error("ufx::linspace: the number of samples, " + std::to_string(n) + ", is negative");
  ndarray<std::complex<F>, 1> r({n});
  const index_t div = endpoint ? n - 1 : n;
  const double scale = div > 0 ? 1.0 / static_cast<double>(div) : 0.0;
  const double ar = a.real(), ai = a.imag(), re = (b.real() - ar) * scale, im = (b.imag() - ai) * scale;
  for (index_t i = 0; i < n; ++i) {
    const auto k = static_cast<double>(i);
    r(i) = std::complex<F>(static_cast<F>(k * re + ar), static_cast<F>(k * im + ai));
  }
  if (endpoint && n > 1) r(n - 1) = b;
  return r;
}

/// Sets every element of a new ndarray or device_array (on its device) to `value`, converted to its element type.
template <class R, class V>
void fill_value(R& r, const V& value) {
  using E = typename R::value_type;
  static_assert(is_complex_v<E> || !is_complex_v<V>,
                "ufx::full_like: a complex value for an array of real elements (NumPy would drop the imaginary part "
                "with a ComplexWarning): pass value.real()");
  if constexpr (is_complex_v<V> && !is_complex_v<E>) return; // (the message above only)
  else if constexpr (requires { r.to_host(); })
    fill_device(r, constant_gen<E>{static_cast<E>(value)}, "ufx::full_like fill kernel");
  else std::fill(r.begin(), r.end(), static_cast<E>(value));
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
