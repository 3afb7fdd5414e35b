#pragma once
// What ufx::sim and ufx::cuda share for elementwise and gufunc loops: the per-thread bodies run
// through the launch seam, the grid they use, and the check that every operand lies in the
// target device's memory (the sim runs it before launching; a GPU would fault instead).
//
// Local memory. A kernel's arguments live in its parameter space; indexing their arrays with a
// run-time index makes the compiler copy the whole struct to local memory (CUB's for_each did, for
// 568 bytes per thread). The offset computation below walks the layout's dimensions in a loop
// unrolled over max_rank, so every index is a constant and the arrays stay parameters.
#include <cstdint>
#include <string>
#include <type_traits>

#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/device/launch.hpp"
#include "ufx/detail/core/fail.hpp"
#include "ufx/detail/core/loop.hpp"
#include "ufx/detail/lib/runtime.hpp"
#include "ufx/errors.hpp"
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

/// The dense body: every array operand contiguous from the loop's start and aligned, so each
/// thread loads V elements of each operand at once (128-bit loads for float) and stores V.
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

/// "output 0", "input 1".
std::string operand_name(int k, int nout);

/// "is not in ufx::sim device 0 memory (it points to host memory: ...)" (src/messages.cpp).
std::string where_instead(const memory_space& want, const void* lo, const void* hi);

/// Throws device_error naming operand k (operand_name(k, nout), built only then) unless the
/// elements at offsets [lo, hi] from `p` lie in device memory `space` (a host pointer leaked into a
/// device loop, or another device's memory).
inline void check_reach(const memory_space& space, const void* p, std::size_t elem, index_t lo, index_t hi, int k,
                        int nout) {
  auto* c = static_cast<const char*>(p);
  const char *b = c + lo * static_cast<index_t>(elem), *e = c + (hi + 1) * static_cast<index_t>(elem);
  if (!in_space(space, b, e)) fail<device_error>(operand_name(k, nout) + " " + where_instead(space, b, e));
}

/// Throws device_error naming the first array operand whose elements (over the whole loop, core
/// blocks included) are not in device memory `space`.
template <int N, class Kernel>
void check_device_operands(const memory_space& space, const layout<N>& L, const Kernel& k) {
  // lo/hi: the operand's reach beyond the loop position (a gufunc's core block); 0 for elementwise
  k.for_each_array([&](int j, const void* p, std::size_t elem, index_t lo = 0, index_t hi = 0) {
    for (int d = 0; d < L.rank; ++d) {
      const index_t span = (L.shape[d] - 1) * L.stride[j][d];
      (span < 0 ? lo : hi) += span;
    }
    check_reach(space, p, elem, lo, hi, j, Kernel::N - Kernel::NIn);
  });
}

UFX_TU_NAMESPACE_BEGIN

/// Runs an elementwise or gufunc kernel over layout L on a device target: the dense vector body
/// when the kernel has one and every array operand is contiguous and aligned, else one thread
/// per loop index.
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
