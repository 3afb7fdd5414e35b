#pragma once
// ufx::sim's operand checks before a launch: every array operand's elements over the whole loop (core blocks, reduced
// dimensions and scan lines included) must lie in the target device's memory; a pointer elsewhere (host memory, another
// device) is a device_error naming the operand, where a GPU would fault or read garbage.
#include <cstddef>
#include <string>

#include "ufx/detail/core/fail.hpp"
#include "ufx/detail/core/loop.hpp"
#include "ufx/detail/core/reduce_plan.hpp"
#include "ufx/detail/lib/runtime.hpp"
#include "ufx/errors.hpp"

namespace ufx::detail {

/// "output 0", "input 1".
std::string operand_name(int k, int nout);

/// "is not in ufx::sim device 0 memory (it points to host memory: ...)" (src/messages.cpp).
std::string where_instead(const memory_space& want, const void* lo, const void* hi);

/// Throws device_error naming operand k (operand_name(k, nout), built only then) unless the elements at offsets [lo,
/// hi] from `p` lie in device memory `space` (a host pointer leaked into a device loop, or another device's memory).
inline void check_reach(const memory_space& space, const void* p, std::size_t elem, index_t lo, index_t hi, int k,
                        int nout) {
  auto* c = static_cast<const char*>(p);
  const char *b = c + lo * static_cast<index_t>(elem), *e = c + (hi + 1) * static_cast<index_t>(elem);
  if (!in_space(space, b, e)) fail<device_error>(operand_name(k, nout) + " " + where_instead(space, b, e));
}

UFX_TU_NAMESPACE_BEGIN

/// Widens [lo, hi], an operand's reach in elements, by one dimension's `span` = (extent - 1) * stride (may be < 0).
inline void widen_reach(index_t span, index_t& lo, index_t& hi) { (span < 0 ? lo : hi) += span; }

/// Widens [lo, hi] by operand j's reach over every dimension of L.
template <int N>
void widen_reach(const layout<N>& L, int j, index_t& lo, index_t& hi) {
  for (int d = 0; d < L.rank; ++d) widen_reach((L.shape[d] - 1) * L.stride[j][d], lo, hi);
}

/// Throws device_error naming the first array operand with elements (core blocks included) outside memory `space`.
template <int N, class Kernel>
void check_device_operands(const memory_space& space, const layout<N>& L, const Kernel& k) {
  // lo/hi: the operand's reach beyond the loop position (a gufunc's core block); 0 for elementwise
  k.for_each_array([&](int j, const void* p, std::size_t elem, index_t lo = 0, index_t hi = 0) {
    widen_reach(L, j, lo, hi);
    check_reach(space, p, elem, lo, hi, j, Kernel::N - Kernel::NIn);
  });
}

/// Throws device_error naming the first operand of a reduction that is not in the sim arena.
template <int N, class Kern, class OutE>
void check_reduce_operands(const memory_space& space, const reduce_plan<N>& plan, const Kern& k, const OutE* out) {
  auto check = [&](int j, const void* p, std::size_t elem, bool reduced) {
    index_t lo = 0, hi = 0;
    widen_reach(plan.kept, j, lo, hi);
    if (reduced) widen_reach(plan.red, j, lo, hi);
    check_reach(space, p, elem, lo, hi, j, 1);
  };
  if (plan.outputs() == 0) return;
  check(0, out, sizeof(OutE), false);
  if (plan.count() == 0) return;
  k.for_each_array([&](int j, const void* p, std::size_t elem) { check(j + 1, p, elem, true); });
}

/// Throws device_error when the scan's input or output is not in the sim arena.
template <int N, class Kern, class OutE>
void check_scan_operands(const memory_space& space, const scan_plan<N>& plan, const Kern& k, const OutE* out) {
  if (plan.count() == 0 || plan.len == 0) return;
  auto check = [&](int j, const void* p, std::size_t elem) {
    index_t lo = 0, hi = 0;
    widen_reach(plan.lines, j, lo, hi);
    widen_reach((plan.len - 1) * plan.str[j], lo, hi);
    check_reach(space, p, elem, lo, hi, j, 1);
  };
  check(0, out, sizeof(OutE));
  k.for_each_array([&](int j, const void* p, std::size_t elem) { check(j + 1, p, elem); });
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
