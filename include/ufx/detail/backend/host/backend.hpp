#pragma once
// ufx::host's folder: the CPU executors of detail/cpu/ across the target's threads. Everything the target provides, for
// detail/backends.hpp to include.
#include "ufx/detail/backend/host/for_each.hpp"
#include "ufx/detail/backend/host/gufunc.hpp"
#include "ufx/detail/backend/host/kernel.hpp"
#include "ufx/detail/backend/host/reduce.hpp"
#include "ufx/detail/backend/host/scan.hpp"
