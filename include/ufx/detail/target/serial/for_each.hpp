#pragma once
// ufx::serial: one thread walks the loop row by row (the reference every target is tested against).
#include "ufx/detail/loop.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {

template <int N, class Kernel>
void run_rows(const layout<N>& L, const Kernel& k, index_t begin, index_t end) {
  index_t str[N];
  for (int j = 0; j < N; ++j) str[j] = L.rank > 0 ? L.stride[j][L.rank - 1] : 0;
  const bool unit = L.inner_unit();
  walk_rows(L, begin, end, [&](const index_t (&off)[N], index_t n) { k.row(off, str, n, unit); });
}

template <int N, class Kernel>
void for_each(const serial_t&, const layout<N>& L, const Kernel& k) {
  run_rows(L, k, 0, L.size());
}

} // namespace ufx::detail
