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
#include "ufx/config.hpp"
#include "ufx/creation.hpp"
#include "ufx/device_array.hpp"
#include "ufx/devices.hpp"
#include "ufx/errors.hpp"
#include "ufx/guvectorize.hpp"
#include "ufx/kernel.hpp"
#include "ufx/math.hpp"
#include "ufx/launch_config.hpp"
#include "ufx/lazy.hpp"
#include "ufx/ndarray.hpp"
#include "ufx/ndview.hpp"
#include "ufx/out.hpp"
#include "ufx/print.hpp"
#include "ufx/random.hpp"
#include "ufx/reduce.hpp"
#include "ufx/reducers.hpp"
#include "ufx/stream.hpp"
#include "ufx/targets.hpp"
#include "ufx/thread.hpp"
#include "ufx/vectorize.hpp"
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
