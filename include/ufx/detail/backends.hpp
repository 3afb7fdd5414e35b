#pragma once
// The one place the targets' folders (detail/backend/<name>/) are included (with target::alternatives in targets.hpp, a
// target's registration). The shared code below the front doors (detail/cpu/, detail/device/,
// loop.hpp, transfer.hpp, ...) never includes a target's folder: it calls what a target provides
// (for_each, run_gufunc, reduce_on, scan_on, launch, keep_until_run, launch_body, kernel_limits) by overloads on
// the target's type, which argument-dependent lookup finds where a call is instantiated, in a
// translation unit that has included this header (every front door's body does).
#include "ufx/detail/backend/serial/backend.hpp"
#include "ufx/detail/backend/host/backend.hpp"
#include "ufx/detail/backend/sim/backend.hpp"
#include "ufx/detail/backend/cuda/backend.hpp"
