#pragma once
// ufx::serial's raw kernels: the host block runner (detail/blocks.hpp) on the calling thread, under
// a sim device's limits.
#include <string>

#include "ufx/detail/kernel_launch.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

inline device_info kernel_limits(const serial_t&) { return host_kernel_limits(serial_t::name()); }

template <class Traits, class Body>
void launch_body(const serial_t&, const launch_config& c, const Body& body, const std::string& label) {
  run_on_host<Traits>(c, body, label, "ufx::serial", 1);
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
