#pragma once
// ufx::host: the loop's index range split into one contiguous block per thread, each walked row by row. Small loops
// stay on the calling thread, where a parallel region costs more than it saves (host_blocks_cutoff).
#include <exception>

#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/cpu/executor.hpp"
#include "ufx/detail/cpu/rows.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <>
struct for_each_hook<host_t> {
  template <int N, class Kernel>
  static void run(const host_t& t, const layout<N>& L, const Kernel& k) {
    cpu_executor(t).blocks(L.size(), [&](index_t b, index_t e) { run_rows(L, k, b, e); });
  }
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
