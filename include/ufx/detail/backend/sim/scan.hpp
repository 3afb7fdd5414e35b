#pragma once
// ufx::sim: the device scan (device/scan.hpp), line after line on the CPU, after checking that the
// operands lie in the target device's memory; on a stream, on its worker after its earlier work.
#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/device/scan.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <>
struct scan_hook<sim_t> {
  template <class Kern, int N, class OutE>
  static void run(const sim_t& t, const scan_plan<N>& plan, const Kern& k, OutE* out) {
    check_scan_operands(t.space(), plan, k, out);
    if (t.has_stream()) sim_enqueue(t.stream_handle, [plan, k, out] { device_scan_lines(plan, k, out); });
    else device_scan_lines(plan, k, out);
  }
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
