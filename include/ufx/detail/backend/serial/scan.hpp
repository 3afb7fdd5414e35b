#pragma once
// ufx::serial: the CPU scan (cpu/scan.hpp) on the calling thread.
#include "ufx/detail/cpu/scan.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <class Kern, int N, class OutE>
void scan_on(const serial_t&, const scan_plan<N>& plan, const Kern& k, OutE* out) {
  cpu_scan_run(cpu_executor{}, plan, k, out);
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
