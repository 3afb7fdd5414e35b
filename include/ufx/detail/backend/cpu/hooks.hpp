#pragma once
// The hooks ufx::serial and ufx::host share (their folders specialise the hook classes from these): the CPU bodies of
// cpu/ on cpu_executor(t), which is the calling thread for ufx::serial and the target's threads for ufx::host. Work
// below a cutoff stays on the calling thread, where a parallel region costs more than it saves; ufx::host's results
// are bitwise ufx::serial's (a reduction's nodes combine in the pairwise tree's order whatever thread ran them).
#include <algorithm>
#include <string>

#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/core/loop.hpp"
#include "ufx/detail/cpu/executor.hpp"
#include "ufx/detail/cpu/gufunc.hpp"
#include "ufx/detail/cpu/reduce.hpp"
#include "ufx/detail/cpu/scan.hpp"
#include "ufx/detail/raw/launch.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// Elementwise: the loop's index range in one contiguous block per thread (host_blocks_cutoff), each walked row by
/// row, a row a plain loop over pointers the compiler vectorises.
template <class Tag>
struct cpu_for_each_hook {
  template <int N, class Kernel>
  static void run(const Tag& t, const layout<N>& L, const Kernel& k) {
    index_t str[N];
    for (int j = 0; j < N; ++j) str[j] = L.rank > 0 ? L.stride[j][L.rank - 1] : 0;
    const bool unit = L.inner_unit();
    cpu_executor(t).blocks(L.size(), [&](index_t b, index_t e) {
      walk_rows(L, b, e, [&](const index_t(&off)[N], index_t n) { k.row(off, str, n, unit); });
    });
  }
};

/// Gufuncs: loop indices in blocks; the cutoff counts core work (`work`, core elements per index), not indices: 4x4
/// matmuls pay for a parallel region far sooner than elementwise adds do. `dense`: every core dense and row-major.
template <class Tag>
struct cpu_gufunc_hook {
  template <int N, class Kernel>
  static void run(const Tag& t, const layout<N>& L, const Kernel& k, bool dense, index_t work) {
    const index_t cutoff = std::max<index_t>(1, host_serial_cutoff / std::max<index_t>(work, 1));
    cpu_executor(t).blocks(
        L.size(), [&](index_t b, index_t e) { gufunc_rows(L, k, b, e, dense); }, cutoff);
  }
};

/// Reductions: cpu/reduce.hpp's tree, its tasks (outputs, or nodes of each output's pairwise tree) across threads.
template <class Tag>
struct cpu_reduce_hook {
  template <class Kern, int N, class OutE, class Fin, class Res>
  static void run(const Tag& t, const reduce_plan<N>& plan, const Kern& k, OutE* out, const Fin& fin,
                  const Res& empty) {
    if (plan.outputs() * plan.count() < host_reduce_cutoff) cpu_reduce(cpu_executor{}, plan, k, out, fin, empty);
    else cpu_reduce(cpu_executor(t), plan, k, out, fin, empty);
  }
};

/// Scans: cpu/scan.hpp's lines (or rows of lines, or blocks of a few long lines) across threads.
template <class Tag>
struct cpu_scan_hook {
  template <class Kern, int N, class OutE>
  static void run(const Tag& t, const scan_plan<N>& plan, const Kern& k, OutE* out) {
    if (plan.count() * plan.len < host_serial_cutoff) cpu_scan_run(cpu_executor{}, plan, k, out);
    else cpu_scan_run(cpu_executor(t), plan, k, out);
  }
};

/// Raw kernels: the host block runner (raw/blocks.hpp) on the target's threads, under a sim device's limits.
template <class Tag>
struct cpu_raw_kernel_hook {
  static device_info limits(const Tag&) { return host_kernel_limits(Tag::name()); }

  /// The blocks of a kernel held at once for a cooperative launch (the sim device's limits).
  template <class Body>
  static long long cooperative_blocks(const Tag& t, const launch_config& c, std::size_t static_shared) {
    return host_cooperative_blocks(limits(t), c.block.count(), c.shared_bytes + static_shared);
  }

  template <class Traits, class Body>
  static void run(const Tag& t, const launch_config& c, const Body& body, const std::string& label) {
    run_on_host<Traits>(c, body, label, std::string(Tag::name()), cpu_executor(t).threads());
  }
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
