#pragma once
// What ufx::sim and ufx::cuda share for elementwise and gufunc loops: the per-thread bodies run through the launch seam
// and their grid (the sim's operand memory check is backend/sim/checks.hpp's). The offsets come from loop_offsets
// (core/loop.hpp), unrolled over max_rank so the kernel's parameter arrays are never indexed at run time, which would
// copy the whole struct to local memory (CUB's for_each did: 568 bytes per thread).
#include <cstdint>
#include <type_traits>

#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/device/thread.hpp"
#include "ufx/detail/core/loop.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {

/// The generic body: one loop index at a time, any layout (elementwise or gufunc kernel).
template <int N, class Kernel>
struct element_at {
  layout<N> L;
  Kernel k;
  UFX_HD void operator()(index_t i) const {
    index_t off[N];
    loop_offsets(L, i, off);
    k(off);
  }
};

/// The dense body: every array operand contiguous from the loop's start and aligned, so each thread loads V elements of
/// each operand at once (128-bit loads for float) and stores V.
template <int V, class Kernel>
struct dense_vector_body {
  Kernel k;
  index_t n;
  UFX_HD void operator()(const thread_pos& t) const {
    const index_t nv = n / V, step = t.stride_x();
    for (index_t j = t.global_x(); j < nv; j += step) k.template vec<V>(j * V);
    const index_t tail = nv * V + t.global_x(); // the last n % V elements, one per thread
    if (tail < n) k.at_linear(tail);
  }
};

UFX_TU_NAMESPACE_BEGIN

/// Runs an elementwise or gufunc kernel over layout L on a device target: the dense vector body when the kernel has one
/// and every array operand is contiguous and aligned, else one thread per loop index.
template <class Tag, int N, class Kernel>
void device_loop(const Tag& tag, const layout<N>& L, const Kernel& k, const char* label) {
  const index_t n = L.size();
  if (n == 0) return;
  if constexpr (requires { Kernel::vector_width; }) {
    constexpr int V = Kernel::vector_width;
    if constexpr (V > 1) {
      bool dense = L.rank == 1 && L.inner_unit();
      k.for_each_array([&](int, const void* p, std::size_t elem) {
        dense = dense && reinterpret_cast<std::uintptr_t>(p) % (elem * V) == 0;
      });
      if (dense) return launch_hook<Tag>::run(tag, grid_for(n, V), dense_vector_body<V, Kernel>{k, n}, label);
    }
  }
  launch_hook<Tag>::run(tag, grid_for(n), grid_stride<element_at<N, Kernel>>{element_at<N, Kernel>{L, k}, n}, label);
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
