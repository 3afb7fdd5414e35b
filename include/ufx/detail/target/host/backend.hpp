#pragma once
// ufx::host's folder: the CPU executors of detail/cpu/ across the target's threads.
// Everything the target provides, for detail/backends.hpp to include.
#include "ufx/detail/target/host/for_each.hpp"
#include "ufx/detail/target/host/gufunc.hpp"
#include "ufx/detail/target/host/kernel.hpp"
#include "ufx/detail/target/host/reduce.hpp"
#include "ufx/detail/target/host/scan.hpp"
