#pragma once
// What ufx::serial and ufx::host share for elementwise loops: walking loop indices [begin, end) row by row, each row a
// plain loop over pointers the compiler vectorises.
#include "ufx/detail/core/loop.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <int N, class Kernel>
void run_rows(const layout<N>& L, const Kernel& k, index_t begin, index_t end) {
  index_t str[N];
  for (int j = 0; j < N; ++j) str[j] = L.rank > 0 ? L.stride[j][L.rank - 1] : 0;
  const bool unit = L.inner_unit();
  walk_rows(L, begin, end, [&](const index_t(&off)[N], index_t n) { k.row(off, str, n, unit); });
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
