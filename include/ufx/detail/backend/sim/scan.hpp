#pragma once
// ufx::sim's scan: after the operand memory check, each line in order on the CPU through the positions and functors
// ufx::cuda's scan-by-key reads (device/scan.hpp); on a stream, on its worker after its earlier work.
#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/backend/sim/checks.hpp"
#include "ufx/detail/device/scan.hpp"
#include "ufx/detail/lib/runtime.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// Each line of the scan in order on the calling thread.
template <class Kern, int N, class OutE>
void sim_scan_lines(const scan_plan<N>& plan, const Kern& k, OutE* out) {
  if (plan.count() == 0 || plan.len == 0) return;
  const scan_position<N> pos = scan_positions(plan);
  const scan_value<Kern, N> value{pos, k};
  const scan_out_offset<N> at{pos};
  for (index_t line = 0; line < plan.count(); ++line) {
    const index_t first = line * plan.len;
    typename Kern::acc_type acc = value(first);
    out[at(first)] = static_cast<OutE>(acc);
    for (index_t i = first + 1; i < first + plan.len; ++i) {
      acc = k.combine(acc, value(i));
      out[at(i)] = static_cast<OutE>(acc);
    }
  }
}

template <>
struct scan_hook<sim_t> {
  template <class Kern, int N, class OutE>
  static void run(const sim_t& t, const scan_plan<N>& plan, const Kern& k, OutE* out) {
    check_scan_operands(t.space(), plan, k, out);
    if (t.has_stream()) sim_enqueue(t.stream_handle, [plan, k, out] { sim_scan_lines(plan, k, out); });
    else sim_scan_lines(plan, k, out);
  }
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
