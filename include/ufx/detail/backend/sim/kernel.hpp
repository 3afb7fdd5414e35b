#pragma once
// ufx::sim's raw kernels: the host block runner (raw/blocks.hpp) on the virtual device's memory and limits, on the
// target's stream when it has one; a kernel's arrays check their indices in every build (ndview::index_checked).
#include <string>

#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/raw/launch.hpp"
#include "ufx/detail/backend/sim/launch.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <>
struct raw_kernel_hook<sim_t> {
  static const device_info& limits(const sim_t& t) { return sim_device_info(t); }

  /// The blocks of a kernel held at once for a cooperative launch (the sim device's limits).
  template <class Body>
  static long long cooperative_blocks(const sim_t& t, const launch_config& c, std::size_t static_shared) {
    return host_cooperative_blocks(limits(t), c.block.count(), c.shared_bytes + static_shared);
  }

  template <class Traits, class Body>
  static void run(const sim_t& t, const launch_config& c, const Body& body, const std::string& label) {
    if (t.has_stream()) { // the stream's worker runs the blocks after its earlier work
      sim_enqueue(t.stream_handle, [c, body, label, where = to_string(t.space())] {
        run_on_host<Traits>(c, body, label, where, host_threads(), true);
      });
      return;
    }
    run_on_host<Traits>(c, body, label, to_string(t.space()), host_threads(), true);
  }
};

/// ufx::sim hands a kernel its arrays tracked(): indices checked whatever UFX_BOUNDS_CHECK says, each access logged for
/// the global-memory checks; ufx::serial and ufx::host pass them as they are, to run a kernel fast on host memory.
template <>
struct kernel_arg_rule<sim_t> {
  template <class V>
  static V pass(const V& v) {
    if constexpr (requires { v.tracked(); }) return v.tracked();
    else return v;
  }
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
