#pragma once
// ufx::cuda's folder: the device code paths of detail/device/ as CUDA kernels, and CUB where it is the best tool.
// Everything the target provides, for detail/backends.hpp to include.
#include "ufx/detail/target/cuda/device.hpp"
#include "ufx/detail/target/cuda/for_each.hpp"
#include "ufx/detail/target/cuda/gufunc.hpp"
#include "ufx/detail/target/cuda/kernel.hpp"
#include "ufx/detail/target/cuda/launch.hpp"
#include "ufx/detail/target/cuda/reduce.hpp"
#include "ufx/detail/target/cuda/scan.hpp"
