#pragma once
// ufx::serial's folder: one thread walks every loop (the reference every target is tested against). Everything the
// target provides, for detail/backends.hpp to include.
#include "ufx/detail/backend/serial/for_each.hpp"
#include "ufx/detail/backend/serial/gufunc.hpp"
#include "ufx/detail/backend/serial/kernel.hpp"
#include "ufx/detail/backend/serial/reduce.hpp"
#include "ufx/detail/backend/serial/scan.hpp"
