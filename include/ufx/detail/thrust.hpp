#pragma once
// Thrust is the seam between device targets: the same algorithm call with a policy per target
// (thrust::cpp::par for ufx::sim, thrust::cuda::par for ufx::cuda). A host compiler sees Thrust's
// CPP device system, so no CUDA header is ever included outside nvcc.
#if !defined(__CUDACC__) && !defined(THRUST_DEVICE_SYSTEM)
#  define THRUST_DEVICE_SYSTEM THRUST_DEVICE_SYSTEM_CPP
#endif
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/system/cpp/execution_policy.h>
#if defined(__CUDACC__)
#  include <thrust/system/cuda/execution_policy.h>
#endif
