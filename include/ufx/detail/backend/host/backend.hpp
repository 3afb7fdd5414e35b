#pragma once
// ufx::host's folder: cpu/'s executors across the target's threads. Everything the target provides, for backends.hpp.
#include "ufx/detail/backend/host/for_each.hpp"
#include "ufx/detail/backend/host/gufunc.hpp"
#include "ufx/detail/backend/host/kernel.hpp"
#include "ufx/detail/backend/host/reduce.hpp"
#include "ufx/detail/backend/host/scan.hpp"
