#pragma once
// ufx::cuda's folder: the device code paths of detail/device/ as CUDA kernels, and CUB where it is the best tool.
// Everything the target provides, for detail/backends.hpp to include.
#include "ufx/detail/backend/cuda/device.hpp"
#include "ufx/detail/backend/cuda/for_each.hpp"
#include "ufx/detail/backend/cuda/gufunc.hpp"
#include "ufx/detail/backend/cuda/kernel.hpp"
#include "ufx/detail/backend/cuda/launch.hpp"
#include "ufx/detail/backend/cuda/reduce.hpp"
#include "ufx/detail/backend/cuda/scan.hpp"
