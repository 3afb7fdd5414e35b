#pragma once
/// \file errors.hpp
/// Exceptions thrown by ufx. Every message names what was wrong in the caller's terms.

#include <stdexcept>
#include <string>

namespace ufx {

/// Shapes that do not broadcast, a wrong `out` shape, a core dimension mismatch, a bad axis.
class shape_error : public std::invalid_argument {
public:
  using std::invalid_argument::invalid_argument;
};

/// A device target that cannot run here (no GPU, not compiled with CUDA), or a failed device call.
class device_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// A launch configuration the device cannot run (threads per block, shared memory, an empty grid),
/// named with the kernel, the configuration and the device's limit.
class launch_error : public device_error {
public:
  using device_error::device_error;
};

/// A raw kernel that went wrong while running on ufx::sim (or a CPU target): an index out of
/// range, a barrier not reached by every thread of a block, a shared-memory race, a host pointer
/// in device code. The message names the kernel, the block and the thread.
class kernel_error : public device_error {
public:
  using device_error::device_error;
};

/// A value that the operation cannot accept, e.g. an empty reduction without an identity.
class value_error : public std::invalid_argument {
public:
  using std::invalid_argument::invalid_argument;
};

/// An index out of an array's range in an indexing method (`f.at`, `f.reduceat`): NumPy's IndexError.
class index_error : public std::out_of_range {
public:
  using std::out_of_range::out_of_range;
};

} // namespace ufx
