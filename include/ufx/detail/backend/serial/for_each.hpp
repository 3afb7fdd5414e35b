#pragma once
// ufx::serial: one thread walks the loop row by row (the reference every target is tested against).
#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/cpu/rows.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <>
struct for_each_hook<serial_t> {
  template <int N, class Kernel>
  static void run(const serial_t&, const layout<N>& L, const Kernel& k) {
    run_rows(L, k, 0, L.size());
  }
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
