#pragma once
// ufx::serial for gufuncs: one thread calls the kernel once per loop index (cpu/gufunc.hpp).
#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/cpu/gufunc.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <>
struct gufunc_hook<serial_t> {
  /// `dense`: every core dense and row-major (the kernel may compute strides). `work`, core elements per index: unused.
  template <int N, class Kernel>
  static void run(const serial_t&, const layout<N>& L, const Kernel& k, bool dense, index_t /*work*/) {
    gufunc_rows(L, k, 0, L.size(), dense);
  }
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
