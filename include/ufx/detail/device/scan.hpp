#pragma once
// The device targets' inclusive scan (ufx::sim with thrust::cpp::par, ufx::cuda with
// thrust::cuda::par: the same call site). Positions are numbered line by line, the axis
// innermost; thrust::inclusive_scan_by_key (CUB's scan-by-key on CUDA) scans each line, reading
// and writing through the plan's strides.
#include <string>

#include "ufx/detail/thrust.hpp" // first: it picks Thrust's device system for host compilers

#include <thrust/functional.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/scan.h>

#include "ufx/detail/runtime.hpp"
#include "ufx/detail/device/elementwise.hpp"
#include "ufx/detail/reduce_plan.hpp"
#include "ufx/detail/cpu/scan.hpp"
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
    offsets_at(lines, l, zero, off);
    for (int j = 0; j < N; ++j) off[j] += t * str[j];
  }
};

struct scan_line_key {
  index_t len;
  UFX_HD index_t operator()(index_t i) const { return i / len; }
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

template <class Kern>
struct scan_combine {
  Kern k;
  UFX_HD typename Kern::acc_type operator()(const typename Kern::acc_type& a, const typename Kern::acc_type& b) const {
    return k.combine(a, b);
  }
};

template <class Policy, class Kern, int N, class OutE>
void device_scan(const Policy& pol, const scan_plan<N>& plan, const Kern& k, OutE* out) {
  const index_t n = plan.count() * plan.len;
  if (n == 0) return;
  scan_position<N> pos{plan.lines, plan.len, {}};
  for (int j = 0; j < N; ++j) pos.str[j] = plan.str[j];
  const thrust::counting_iterator<index_t> first(0);
  auto keys = thrust::make_transform_iterator(first, scan_line_key{plan.len});
  auto values = thrust::make_transform_iterator(first, scan_value<Kern, N>{pos, k});
  auto result = thrust::make_permutation_iterator(out, thrust::make_transform_iterator(first, scan_out_offset<N>{pos}));
  thrust::inclusive_scan_by_key(pol, keys, keys + n, values, result, thrust::equal_to<index_t>(), scan_combine<Kern>{k});
}

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
    check_reach(space, p, elem, lo, hi, operand_name(j, 1));
  };
  check(0, out, sizeof(OutE));
  k.for_each_array([&](int j, const void* p, std::size_t elem) { check(j + 1, p, elem); });
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
