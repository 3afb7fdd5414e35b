#pragma once
// ufx::host: the CPU scan of serial/scan.hpp with lines (or rows of lines, or blocks of a few long lines) split across
// threads. Small scans stay on the calling thread.
#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/cpu/executor.hpp"
#include "ufx/detail/backend/host/reduce.hpp"
#include "ufx/detail/cpu/scan.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <>
struct scan_hook<host_t> {
  template <class Kern, int N, class OutE>
  static void run(const host_t& t, const scan_plan<N>& plan, const Kern& k, OutE* out) {
    if (plan.count() * plan.len < host_serial_cutoff) cpu_scan_run(cpu_executor{}, plan, k, out);
    else cpu_scan_run(cpu_executor(t), plan, k, out);
  }
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
