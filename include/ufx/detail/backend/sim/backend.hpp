#pragma once
// ufx::sim's folder: the device code paths of detail/device/, run on the CPU against a virtual device. Everything the
// target provides, for detail/backends.hpp to include.
#include "ufx/detail/backend/sim/checks.hpp"
#include "ufx/detail/backend/sim/for_each.hpp"
#include "ufx/detail/backend/sim/gufunc.hpp"
#include "ufx/detail/backend/sim/kernel.hpp"
#include "ufx/detail/backend/sim/launch.hpp"
#include "ufx/detail/backend/sim/reduce.hpp"
#include "ufx/detail/backend/sim/scan.hpp"
