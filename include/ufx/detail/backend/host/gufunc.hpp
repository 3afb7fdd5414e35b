#pragma once
// ufx::host for gufuncs: loop indices split into one contiguous block per thread. The serial cutoff counts core work,
// not loop indices: 4x4 matmuls pay for a parallel region far sooner than elementwise adds do.
#include <algorithm>

#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/cpu/executor.hpp"
#include "ufx/detail/cpu/gufunc.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <>
struct gufunc_hook<host_t> {
  template <int N, class Kernel>
  static void run(const host_t& t, const layout<N>& L, const Kernel& k, bool dense, index_t work) {
    const index_t cutoff = std::max<index_t>(1, host_serial_cutoff / std::max<index_t>(work, 1));
    cpu_executor(t).blocks(
        L.size(), [&](index_t b, index_t e) { gufunc_rows(L, k, b, e, dense); }, cutoff);
  }
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
