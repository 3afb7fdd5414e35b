#pragma once
// Core functions shared by the guvectorize tests, with NumPy's meaning: matmul (np.matmul),
// dot ("(n),(n)->()", np.einsum("...i,...i")) and cross (np.cross of 3-vectors). Matmul and dot
// take std::complex too.
#include <ufx/config.hpp>
#include <ufx/math.hpp>
#include <ufx/ndview.hpp>

#include <complex>

namespace ufx_test {

/// s + x y.
template <class T>
UFX_HD T madd(const T& s, const T& x, const T& y) {
  return s + x * y;
}
/// s + x y of complex numbers, through ufx::math (std::complex's own operators compile to nothing
/// in nvcc's device code: docs/element_types.md, "Complex").
template <class T>
UFX_HD std::complex<T> madd(const std::complex<T>& s, const std::complex<T>& x, const std::complex<T>& y) {
  return ufx::math::add(s, ufx::math::mul(x, y));
}

struct matmul_f {
  template <class T>
  UFX_HD void operator()(ufx::ndview<const T, 2> a, ufx::ndview<const T, 2> b, ufx::ndview<T, 2> c) const {
    for (ufx::index_t i = 0; i < c.extent(0); ++i)
      for (ufx::index_t j = 0; j < c.extent(1); ++j) {
        T s{};
        for (ufx::index_t k = 0; k < a.extent(1); ++k) s = madd(s, a(i, k), b(k, j));
        c(i, j) = s;
      }
  }
};

struct dot_f {
  template <class T>
  UFX_HD void operator()(ufx::ndview<const T, 1> x, ufx::ndview<const T, 1> y, T& r) const {
    T s{};
    for (ufx::index_t i = 0; i < x.extent(0); ++i) s = madd(s, x(i), y(i));
    r = s;
  }
};

struct cross_f {
  template <class T>
  UFX_HD void operator()(ufx::ndview<const T, 1> a, ufx::ndview<const T, 1> b, ufx::ndview<T, 1> c) const {
    c(0) = a(1) * b(2) - a(2) * b(1);
    c(1) = a(2) * b(0) - a(0) * b(2);
    c(2) = a(0) * b(1) - a(1) * b(0);
  }
};

} // namespace ufx_test
