// ufx first, then Thrust: Thrust's device system is Thrust's default (CUDA), as without ufx. ufx
// once defined THRUST_DEVICE_SYSTEM_CPP for host compilers, which turned a later
// thrust::device_vector into host memory in this order and into CUDA memory in the other.
#include <ufx/ufx.hpp>

#include <thrust/detail/config.h>

static_assert(THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA,
              "including ufx before Thrust changed Thrust's device system");
