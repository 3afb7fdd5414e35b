#pragma once
// ufx::host's raw kernels: the host block runner (raw/blocks.hpp) on the target's threads, under a sim device's limits.
#include <string>

#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/cpu/executor.hpp"
#include "ufx/detail/raw/launch.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <>
struct raw_kernel_hook<host_t> {
  static device_info limits(const host_t&) { return host_kernel_limits(host_t::name()); }

  /// The blocks of a kernel held at once for a cooperative launch (the sim device's limits).
  template <class Body>
  static long long cooperative_blocks(const host_t& t, const launch_config& c, std::size_t static_shared) {
    return host_cooperative_blocks(limits(t), c.block.count(), c.shared_bytes + static_shared);
  }

  template <class Traits, class Body>
  static void run(const host_t& t, const launch_config& c, const Body& body, const std::string& label) {
    run_on_host<Traits>(c, body, label, "ufx::host", cpu_executor(t).threads());
  }
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
