#pragma once
/// \file ufx.hpp
/// Umbrella header: everything in ufx. Eigen support is included when Eigen is on the include path.
#include "ufx/adapter.hpp"
#include "ufx/atomic.hpp"
#include "ufx/config.hpp"
#include "ufx/creation.hpp"
#include "ufx/device_array.hpp"
#include "ufx/devices.hpp"
#include "ufx/errors.hpp"
#include "ufx/guvectorize.hpp"
#include "ufx/kernel.hpp"
#include "ufx/math.hpp"
#include "ufx/launch_config.hpp"
#include "ufx/ndarray.hpp"
#include "ufx/ndview.hpp"
#include "ufx/out.hpp"
#include "ufx/print.hpp"
#include "ufx/random.hpp"
#include "ufx/reduce.hpp"
#include "ufx/stream.hpp"
#include "ufx/targets.hpp"
#include "ufx/thread.hpp"
#include "ufx/vectorize.hpp"
#include "ufx/views.hpp"
#if __has_include(<Eigen/Core>)
#  include "ufx/eigen.hpp"
#endif
#if __has_include(<cuda/std/mdspan>)
#  include "ufx/mdspan.hpp"
#endif
