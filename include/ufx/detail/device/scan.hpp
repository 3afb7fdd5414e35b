#pragma once
// What the device targets' inclusive scans share: positions numbered line by line (the axis innermost) and the functors
// that read a position's value and find its output. ufx::cuda scans every line at once with Thrust's scan-by-key over
// them (backend/cuda/scan.hpp); ufx::sim walks them line after line on the CPU, as Thrust's CPP system would.
#include "ufx/config.hpp"
#include "ufx/detail/core/loop.hpp"
#include "ufx/detail/core/reduce_plan.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// Offsets of scan position i (line i / len, element i % len).
template <int N>
struct scan_position {
  layout<N> lines;
  index_t len;
  index_t str[N];
  UFX_HD void operator()(index_t i, index_t* off) const {
    const index_t l = i / len, t = i - l * len;
    const index_t zero[N] = {};
    loop_offsets(lines, l, zero, off);
    for (int j = 0; j < N; ++j) off[j] += t * str[j];
  }
};

template <class Kern, int N>
struct scan_value {
  scan_position<N> pos;
  Kern k;
  UFX_HD typename Kern::acc_type operator()(index_t i) const {
    index_t off[N];
    pos(i, off);
    return k.at(off + 1);
  }
};

template <int N>
struct scan_out_offset {
  scan_position<N> pos;
  UFX_HD index_t operator()(index_t i) const {
    index_t off[N];
    pos(i, off);
    return off[0];
  }
};

template <int N>
scan_position<N> scan_positions(const scan_plan<N>& plan) {
  scan_position<N> pos{plan.lines, plan.len, {}};
  for (int j = 0; j < N; ++j) pos.str[j] = plan.str[j];
  return pos;
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
