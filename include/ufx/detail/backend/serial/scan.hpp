#pragma once
// ufx::serial: the CPU scan (cpu/scan.hpp) on the calling thread.
#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/cpu/scan.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <>
struct scan_hook<serial_t> {
  template <class Kern, int N, class OutE>
  static void run(const serial_t&, const scan_plan<N>& plan, const Kern& k, OutE* out) {
    cpu_scan_run(cpu_executor{}, plan, k, out);
  }
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
