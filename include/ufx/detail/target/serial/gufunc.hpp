#pragma once
// ufx::serial for gufuncs: one thread walks the loop indices row by row and calls the kernel once
// per index (the reference the other targets are tested against).
#include "ufx/detail/loop.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {

/// Calls the kernel at loop indices [begin, end); division only at the start of the range.
template <bool Dense, int N, class Kernel>
void gufunc_rows(const layout<N>& L, const Kernel& k, index_t begin, index_t end) {
  index_t str[N];
  for (int j = 0; j < N; ++j) str[j] = L.rank > 0 ? L.stride[j][L.rank - 1] : 0;
  walk_rows(L, begin, end, [&](const index_t(&off)[N], index_t n) {
    index_t o[N];
    for (int j = 0; j < N; ++j) o[j] = off[j];
    for (index_t i = 0; i < n; ++i) {
      k.template at<Dense>(o);
      for (int j = 0; j < N; ++j) o[j] += str[j];
    }
  });
}

template <int N, class Kernel>
void gufunc_rows(const layout<N>& L, const Kernel& k, index_t begin, index_t end, bool dense) {
  if (dense) gufunc_rows<true>(L, k, begin, end);
  else gufunc_rows<false>(L, k, begin, end);
}

/// `dense`: every core is dense and row-major (the kernel may compute core strides itself).
/// `work`: core elements per loop index (unused: one thread).
template <int N, class Kernel>
void run_gufunc(serial_t, const layout<N>& L, const Kernel& k, bool dense, index_t /*work*/) {
  gufunc_rows(L, k, 0, L.size(), dense);
}

} // namespace ufx::detail
