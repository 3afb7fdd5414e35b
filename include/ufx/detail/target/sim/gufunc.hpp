#pragma once
// ufx::sim for gufuncs: one "thread" per loop index, each computing its own offsets and calling the
// kernel (exactly the CUDA kernel's body), launched through Thrust's CPP system. Before launch every
// array operand's whole reach, loop and core dimensions, must lie inside a sim allocation.
#include <string>

#include "ufx/detail/loop.hpp"
#include "ufx/detail/memory.hpp"
#include "ufx/detail/target/sim/for_each.hpp"
#include "ufx/detail/thrust.hpp"
#include "ufx/errors.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {

/// Throws device_error naming the first array operand that reaches outside the sim arena.
template <int N, class Kernel>
void check_gufunc_operands(const layout<N>& L, const Kernel& k, const char* who) {
  k.for_each_array([&](int j, const void* p, std::size_t elem, index_t lo, index_t hi) {
    for (int d = 0; d < L.rank; ++d) {
      const index_t span = (L.shape[d] - 1) * L.stride[j][d];
      (span < 0 ? lo : hi) += span;
    }
    auto* c = static_cast<const char*>(p);
    if (!in_sim_arena(c + lo * static_cast<index_t>(elem), c + (hi + 1) * static_cast<index_t>(elem)))
      throw device_error(std::string(who) + ": " + operand_name(j, Kernel::N - Kernel::NIn) +
                         " points to host memory, not to a ufx::sim device allocation (a host pointer "
                         "leaked into a device loop)");
  });
}

template <int N, class Kernel>
void run_gufunc(sim_t, const layout<N>& L, const Kernel& k, bool /*dense*/, index_t /*work*/) {
  check_gufunc_operands(L, k, "ufx::sim launch");
  thrust::for_each_n(thrust::cpp::par, thrust::counting_iterator<index_t>(0), L.size(), element_at<N, Kernel>{L, k});
}

} // namespace ufx::detail
