#pragma once
// ufx::sim's end of a call on a stream: what the call's queued work still reads is kept until the
// stream's worker has run that work.
#include <memory>
#include <utility>
#include <vector>

#include "ufx/detail/runtime.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// Keeps `keep` alive until the stream of `t` has run the work queued on it so far.
inline void release_after_queued_work(const sim_t& t, std::vector<std::shared_ptr<void>>&& keep) {
  if (!keep.empty()) sim_enqueue(t.stream_handle, [k = std::move(keep)] {});
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
