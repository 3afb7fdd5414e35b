#pragma once
// ufx::host's raw kernels: the host block runner (detail/blocks.hpp), blocks in parallel on the
// target's threads, under a sim device's limits.
#include <string>

#include "ufx/detail/cpu/executor.hpp"
#include "ufx/detail/kernel_launch.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

inline device_info kernel_limits(const host_t&) { return host_kernel_limits(host_t::name()); }

template <class Traits, class Body>
void launch_body(const host_t& t, const launch_config& c, const Body& body, const std::string& label) {
  run_on_host<Traits>(c, body, label, "ufx::host", cpu_executor(t).threads());
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
