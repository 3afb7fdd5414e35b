#pragma once
// ufx::host's folder: the CPU hooks (backend/cpu/hooks.hpp) across the target's threads.
#include "ufx/detail/backend/cpu/hooks.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <>
struct for_each_hook<host_t> : cpu_for_each_hook<host_t> {};
template <>
struct gufunc_hook<host_t> : cpu_gufunc_hook<host_t> {};
template <>
struct reduce_hook<host_t> : cpu_reduce_hook<host_t> {};
template <>
struct scan_hook<host_t> : cpu_scan_hook<host_t> {};
template <>
struct raw_kernel_hook<host_t> : cpu_raw_kernel_hook<host_t> {};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
