// Thrust first, then ufx: Thrust's default device system (CUDA) stays, and ufx compiles with it.
#include <thrust/detail/config.h>

#include <ufx/ufx.hpp>

#include <vector>

static_assert(THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA, "ufx changed Thrust's device system");

int ufx_thrust_first_uses_ufx() {
  const auto twice = ufx::vectorize([](int a) { return 2 * a; });
  return static_cast<int>(twice(ufx::serial, std::vector<int>{1, 2}).at(1));
}
