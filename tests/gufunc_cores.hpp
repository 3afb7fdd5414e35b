#pragma once
// Core functions shared by the guvectorize tests, with NumPy's meaning: matmul (np.matmul),
// dot ("(n),(n)->()", np.einsum("...i,...i")) and cross (np.cross of 3-vectors).
#include <ufx/config.hpp>
#include <ufx/ndview.hpp>

namespace ufx_test {

struct matmul_f {
  template <class T>
  UFX_HD void operator()(ufx::ndview<const T, 2> a, ufx::ndview<const T, 2> b, ufx::ndview<T, 2> c) const {
    for (ufx::index_t i = 0; i < c.extent(0); ++i)
      for (ufx::index_t j = 0; j < c.extent(1); ++j) {
        T s = 0;
        for (ufx::index_t k = 0; k < a.extent(1); ++k) s += a(i, k) * b(k, j);
        c(i, j) = s;
      }
  }
};

struct dot_f {
  template <class T>
  UFX_HD void operator()(ufx::ndview<const T, 1> x, ufx::ndview<const T, 1> y, T& r) const {
    T s = 0;
    for (ufx::index_t i = 0; i < x.extent(0); ++i) s += x(i) * y(i);
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
