#pragma once
// The device targets' inclusive scan. Positions are numbered line by line, the axis innermost;
// ufx::cuda scans each line with thrust::inclusive_scan_by_key on thrust::cuda::par (CUB's
// scan-by-key), reading and writing through the plan's strides; ufx::sim walks the same positions
// (the same functors) one line after another on the CPU, as Thrust's CPP system would.
// Thrust is included only by nvcc: a host compiler's translation unit gets no Thrust header from
// ufx, so what `thrust::device_vector` means in a user's .cpp is Thrust's own configuration,
// whatever the order of the includes (ufx never defines THRUST_DEVICE_SYSTEM).
#include <string>

#include "ufx/config.hpp"

#if UFX_CUDA_TU
#  include <thrust/functional.h>
#  include <thrust/iterator/counting_iterator.h>
#  include <thrust/iterator/permutation_iterator.h>
#  include <thrust/iterator/transform_iterator.h>
#  include <thrust/scan.h>
#endif

#include "ufx/detail/lib/runtime.hpp"
#include "ufx/detail/device/elementwise.hpp"
#include "ufx/detail/core/reduce_plan.hpp"
#include "ufx/errors.hpp"
#include "ufx/targets.hpp"

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

/// ufx::sim's scan: each line in order on the calling thread.
template <class Kern, int N, class OutE>
void device_scan_lines(const scan_plan<N>& plan, const Kern& k, OutE* out) {
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

#if UFX_CUDA_TU
/// Scan-by-key's key (the line of position i) and operator, for Thrust.
struct scan_line_key {
  index_t len;
  UFX_HD index_t operator()(index_t i) const { return i / len; }
};

template <class Kern>
struct scan_combine {
  Kern k;
  UFX_HD typename Kern::acc_type operator()(const typename Kern::acc_type& a, const typename Kern::acc_type& b) const {
    return k.combine(a, b);
  }
};

/// ufx::cuda's scan: every line at once, Thrust's scan-by-key on `pol` (thrust::cuda::par...).
template <class Policy, class Kern, int N, class OutE>
void device_scan(const Policy& pol, const scan_plan<N>& plan, const Kern& k, OutE* out) {
  const index_t n = plan.count() * plan.len;
  if (n == 0) return;
  const scan_position<N> pos = scan_positions(plan);
  const thrust::counting_iterator<index_t> first(0);
  auto keys = thrust::make_transform_iterator(first, scan_line_key{plan.len});
  auto values = thrust::make_transform_iterator(first, scan_value<Kern, N>{pos, k});
  auto result = thrust::make_permutation_iterator(out, thrust::make_transform_iterator(first, scan_out_offset<N>{pos}));
  thrust::inclusive_scan_by_key(pol, keys, keys + n, values, result, thrust::equal_to<index_t>(),
                                scan_combine<Kern>{k});
}
#endif

/// Throws device_error when the scan's input or output is not in the sim arena.
template <int N, class Kern, class OutE>
void check_scan_operands(const memory_space& space, const scan_plan<N>& plan, const Kern& k, const OutE* out) {
  if (plan.count() == 0 || plan.len == 0) return;
  auto check = [&](int j, const void* p, std::size_t elem) {
    index_t lo = 0, hi = 0;
    for (int d = 0; d < plan.lines.rank; ++d) {
      const index_t s = (plan.lines.shape[d] - 1) * plan.lines.stride[j][d];
      (s < 0 ? lo : hi) += s;
    }
    const index_t s = (plan.len - 1) * plan.str[j];
    (s < 0 ? lo : hi) += s;
    check_reach(space, p, elem, lo, hi, j, 1);
  };
  check(0, out, sizeof(OutE));
  k.for_each_array([&](int j, const void* p, std::size_t elem) { check(j + 1, p, elem); });
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
