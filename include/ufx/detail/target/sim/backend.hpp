#pragma once
// ufx::sim's folder: the device code paths of detail/device/, run on the CPU against a virtual device.
// Everything the target provides, for detail/backends.hpp to include.
#include "ufx/detail/target/sim/for_each.hpp"
#include "ufx/detail/target/sim/gufunc.hpp"
#include "ufx/detail/target/sim/kernel.hpp"
#include "ufx/detail/target/sim/launch.hpp"
#include "ufx/detail/target/sim/reduce.hpp"
#include "ufx/detail/target/sim/scan.hpp"
