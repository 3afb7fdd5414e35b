#pragma once
// The one place the targets' folders (backend/<name>/) are included (with target::alternatives in targets.hpp, a
// target's registration). The shared code below the front doors (cpu/, device/, core/loop.hpp, ...) never includes a
// target's folder: it calls core/hooks.hpp's hook classes, which each folder specialises, complete where a call is
// instantiated, in a translation unit that included this header (every front door's body does).
#include "ufx/detail/backend/serial/backend.hpp"
#include "ufx/detail/backend/host/backend.hpp"
#include "ufx/detail/backend/sim/backend.hpp"
#include "ufx/detail/backend/cuda/backend.hpp"
