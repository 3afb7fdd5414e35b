#pragma once
// ufx::cuda's end of a call on a stream: nothing is kept for the queued work; the device memory a
// call staged into is freed in the stream's order (cudaFreeAsync: buffer in transfer.hpp), after
// the work queued before it.
#include <memory>
#include <vector>

#include "ufx/targets.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// Releases `keep` now (see above).
inline void release_after_queued_work(const cuda_t&, std::vector<std::shared_ptr<void>>&&) {}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
