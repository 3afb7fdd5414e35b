#pragma once
// ufx::serial for gufuncs: one thread walks the loop indices row by row and calls the kernel once per index (the
// reference the other targets are tested against).
#include <iterator>
#include <utility>

#include "ufx/config.hpp"
#include "ufx/detail/core/loop.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// Calls the kernel at loop indices [begin, end), dividing only at the start (cloned for AVX2: UFX_HOST_CLONES).
template <bool Dense, int Small, int N, class Kernel>
UFX_HOST_CLONES UFX_HOST_FLATTEN void gufunc_rows_cloned(const layout<N>& L, const Kernel& k, index_t begin,
                                                         index_t end) {
  index_t str[N];
  for (int j = 0; j < N; ++j) str[j] = L.rank > 0 ? L.stride[j][L.rank - 1] : 0;
  walk_rows(L, begin, end, [&](const index_t(&off)[N], index_t n) {
    index_t o[N];
    for (int j = 0; j < N; ++j) o[j] = off[j];
    for (index_t i = 0; i < n; ++i) {
      k.template at<Dense, Small>(o);
      for (int j = 0; j < N; ++j) o[j] += str[j];
    }
  });
}

template <bool Dense, int Small, int N, class Kernel>
void gufunc_rows(const layout<N>& L, const Kernel& k, index_t begin, index_t end) {
  host_clone_call (&gufunc_rows_cloned<Dense, Small, N, Kernel>)(L, k, begin, end);
}

static_assert(
    [] {
      for (std::size_t i = 1; i < std::size(gufunc_small_sizes_list); ++i)
        if (gufunc_small_sizes_list[i] <= 0) return false;
      return true;
    }(),
    "ufx: UFX_GUFUNC_SMALL_SIZES must list positive core sizes, e.g. 2, 3, 4 (or be empty)");

template <std::size_t... I>
constexpr auto small_sizes(std::index_sequence<I...>) {
  return std::integer_sequence<int, gufunc_small_sizes_list[I + 1]...>{};
}

/// Dense calls whose run-time core sizes all equal one of Sizes run with that size as a constant.
template <int N, class Kernel, int... Sizes>
void gufunc_dense_rows(const layout<N>& L, const Kernel& k, index_t begin, index_t end,
                       std::integer_sequence<int, Sizes...>) {
  if constexpr (Kernel::has_runtime_dims && sizeof...(Sizes) > 0) {
    const index_t small = k.small_size();
    if (((small == Sizes ? (gufunc_rows<true, Sizes>(L, k, begin, end), true) : false) || ...)) return;
  }
  gufunc_rows<true, 0>(L, k, begin, end);
}

template <int N, class Kernel>
void gufunc_rows(const layout<N>& L, const Kernel& k, index_t begin, index_t end, bool dense) {
  if (dense)
    gufunc_dense_rows(L, k, begin, end,
                      small_sizes(std::make_index_sequence<std::size(gufunc_small_sizes_list) - 1>{}));
  else gufunc_rows<false, 0>(L, k, begin, end);
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
