#pragma once
// The one place the targets' folders (detail/backend/<name>/) are included (with target::alternatives in targets.hpp, a
// target's registration). The shared code below the front doors (detail/cpu/, detail/device/, core/loop.hpp, ...) never
// includes a target's folder: it calls what a target provides through the hook classes of core/hooks.hpp
// (`for_each_hook<Tag>::run`, ...), which each folder specialises for its target; the specialisations are complete
// where a call is instantiated, in a translation unit that has included this header (every front door's body does).
#include "ufx/detail/backend/serial/backend.hpp"
#include "ufx/detail/backend/host/backend.hpp"
#include "ufx/detail/backend/sim/backend.hpp"
#include "ufx/detail/backend/cuda/backend.hpp"
