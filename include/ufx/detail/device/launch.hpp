#pragma once
// The one launch seam for device work: `launch(target, launch_config, body, label)`, which each device target's folder
// provides (backend/sim/launch.hpp, backend/cuda/launch.hpp; found where a call is instantiated: detail/backends.hpp),
// and what ufx's device algorithms build on it: a grid-stride loop over n items.
#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/device/thread.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// fn(i) for every i in [0, n), one grid-stride loop per thread.
template <class Fn>
struct grid_stride {
  Fn fn;
  index_t n;
  UFX_HD void operator()(const thread_pos& t) const {
    const index_t step = t.stride_x();
    for (index_t i = t.global_x(); i < n; i += step) fn(i);
  }
};

template <class Tag, class Fn>
void device_for_each(const Tag& tag, index_t n, const Fn& fn, const char* label) {
  if (n <= 0) return;
  launch_hook<Tag>::run(tag, grid_for(n), grid_stride<Fn>{fn, n}, label);
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
