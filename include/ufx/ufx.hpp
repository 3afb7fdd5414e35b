#pragma once
/// \file ufx.hpp
/// Umbrella header: everything in ufx. The adapters of other libraries' arrays are headers of their
/// own, as ufx/mpi.hpp and ufx/thrust.hpp are: `#include <ufx/eigen.hpp>` for Eigen objects,
/// `<ufx/mdspan.hpp>` for cuda::std::mdspan, `<ufx/dlpack.hpp>` for DLPack's tensors. ufx.hpp
/// includes them itself when the library's header came first (Eigen/Core, cuda/std/mdspan or
/// dlpack/dlpack.h included before ufx.hpp); it does not pull them in otherwise, as Eigen alone
/// costs more compile time (1.6 s with g++ 12) than all of ufx's headers (docs/performance.md,
/// "Compile times").
#include "ufx/adapter.hpp"
#include "ufx/atomic.hpp"
#include "ufx/block.hpp"
#include "ufx/casting.hpp"
#include "ufx/config.hpp"
#include "ufx/creation.hpp"
#include "ufx/device_array.hpp"
#include "ufx/devices.hpp"
#include "ufx/errors.hpp"
#include "ufx/expression.hpp"
#include "ufx/guvectorize.hpp"
#include "ufx/half.hpp"
#include "ufx/kernel.hpp"
#include "ufx/math.hpp"
#include "ufx/launch_config.hpp"
#include "ufx/lazy.hpp"
#include "ufx/ndarray.hpp"
#include "ufx/ndview.hpp"
#include "ufx/out.hpp"
#include "ufx/print.hpp"
#include "ufx/profile.hpp"
#include "ufx/random.hpp"
#include "ufx/reduce.hpp"
#include "ufx/reducers.hpp"
#include "ufx/stream.hpp"
#include "ufx/targets.hpp"
#include "ufx/thread.hpp"
#include "ufx/ufuncs.hpp"
#include "ufx/vectorize.hpp"
#include "ufx/version.hpp"
#include "ufx/views.hpp"
#if defined(EIGEN_WORLD_VERSION)
#  include "ufx/eigen.hpp"
#endif
#if defined(_CUDA_STD_MDSPAN)
#  include "ufx/mdspan.hpp"
#endif
#if defined(DLPACK_DLPACK_H_)
#  include "ufx/dlpack.hpp"
#endif

/// \namespace ufx
/// Everything a program uses: the front doors (`vectorize`, `guvectorize`, the reductions,
/// `kernel`), the targets (`serial`, `host`, `sim`, `cuda`), the array types and tools, and the
/// errors. `ufx::detail` holds the implementation; `ufx::mpi` the optional MPI component.

/// \mainpage ufx API reference
///
/// The contracts of ufx's public headers: each front door's arguments, results, errors and targets,
/// as its header states them. The guide, with examples that the test suite compiles and runs, is
/// the rest of this site (<a href="../index.html">home</a>).
///
/// | header | what it gives |
/// |---|---|
/// | vectorize.hpp | `ufx::vectorize`: a scalar function becomes a broadcasting elementwise kernel |
/// | guvectorize.hpp | `ufx::guvectorize<"(m,n),(n,p)->(m,p)">`: generalized kernels over core blocks |
/// | reduce.hpp | `reducer`, `reduce`, `transform_reduce`, `accumulate`, `argmin` / `argmax`, `sum`, ... |
/// | reducers.hpp | several reductions in one pass; `mean`, `var`, `std`, `minmax` |
/// | lazy.hpp | `ufx::lazy`, `ufx::eval`: chained calls without temporaries |
/// | kernel.hpp | `ufx::kernel`: raw kernels, as Numba's `@cuda.jit` |
/// | targets.hpp | `ufx::serial`, `ufx::host`, `ufx::sim`, `ufx::cuda`, `ufx::target` |
/// | ndview.hpp, ndarray.hpp, device_array.hpp | the array types, and moving data to and from devices |
/// | views.hpp, creation.hpp, random.hpp, print.hpp | views without copies, making and printing arrays |
/// | stream.hpp, devices.hpp | streams and events; devices and the sim's configuration |
/// | dlpack.hpp | DLPack exchange with CuPy, PyTorch, JAX and NumPy |
/// | nvtx.hpp | NVTX ranges for Nsight Systems |
/// | mpi.hpp | `ufx::mpi`: the same calls across MPI ranks |
/// | errors.hpp | `shape_error`, `device_error`, `launch_error`, `kernel_error`, `value_error` |
