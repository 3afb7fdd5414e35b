#pragma once
// ufx::sim: the device code path on the CPU. Each loop index is an independent "thread" that
// computes its own position (exactly the CUDA kernel's body), launched through Thrust's CPP
// system; before launch every array operand must lie inside a sim allocation.
#include <string>

#include "ufx/detail/loop.hpp"
#include "ufx/detail/runtime.hpp"
#include "ufx/detail/thrust.hpp"
#include "ufx/errors.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {

/// The per-thread body shared by ufx::sim and ufx::cuda.
template <int N, class Kernel>
struct element_at {
  layout<N> L;
  Kernel k;
  UFX_HD void operator()(index_t i) const {
    index_t off[N];
    if (L.rank == 1) {
      for (int j = 0; j < N; ++j) off[j] = i * L.stride[j][0];
    } else {
      unravel(L, i, off);
    }
    k(off);
  }
};

inline std::string operand_name(int k, int nout) {
  return k < nout ? "output " + std::to_string(k) : "input " + std::to_string(k - nout);
}

/// "ufx::sim device 0 memory" or, for a pointer elsewhere, where it points instead.
inline std::string where_instead(const memory_space& want, const void* lo, const void* hi) {
  const memory_space is = space_of(lo, static_cast<std::size_t>(static_cast<const char*>(hi) - static_cast<const char*>(lo)));
  return "is not in " + to_string(want) + " memory (it points to " + (is.is_host() ? std::string("host memory") : to_string(is) + " memory") +
         ": a pointer from elsewhere leaked into a device loop)";
}

/// Throws device_error naming the first array operand whose elements (over the whole loop, core
/// blocks included) are not in device memory `space`.
template <int N, class Kernel>
void check_device_operands(const memory_space& space, const layout<N>& L, const Kernel& k, const char* who) {
  // lo/hi: the operand's reach beyond the loop position (a gufunc's core block); 0 for elementwise
  k.for_each_array([&](int j, const void* p, std::size_t elem, index_t lo = 0, index_t hi = 0) {
    for (int d = 0; d < L.rank; ++d) {
      const index_t span = (L.shape[d] - 1) * L.stride[j][d];
      (span < 0 ? lo : hi) += span;
    }
    auto* c = static_cast<const char*>(p);
    const char *b = c + lo * static_cast<index_t>(elem), *e = c + (hi + 1) * static_cast<index_t>(elem);
    if (!in_space(space, b, e))
      throw device_error(std::string(who) + ": " + operand_name(j, Kernel::N - Kernel::NIn) + " " + where_instead(space, b, e));
  });
}

template <int N, class Kernel>
void for_each(const sim_t& t, const layout<N>& L, const Kernel& k) {
  check_device_operands(t.space(), L, k, "ufx::sim launch");
  thrust::for_each_n(thrust::cpp::par, thrust::counting_iterator<index_t>(0), L.size(), element_at<N, Kernel>{L, k});
}

} // namespace ufx::detail
