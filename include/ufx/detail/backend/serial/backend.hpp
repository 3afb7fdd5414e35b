#pragma once
// ufx::serial's folder: one thread walks every loop (the reference every target is tested against): the CPU hooks
// (backend/cpu/hooks.hpp) on the calling thread.
#include "ufx/detail/backend/cpu/hooks.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <>
struct for_each_hook<serial_t> : cpu_for_each_hook<serial_t> {};
template <>
struct gufunc_hook<serial_t> : cpu_gufunc_hook<serial_t> {};
template <>
struct reduce_hook<serial_t> : cpu_reduce_hook<serial_t> {};
template <>
struct scan_hook<serial_t> : cpu_scan_hook<serial_t> {};
template <>
struct raw_kernel_hook<serial_t> : cpu_raw_kernel_hook<serial_t> {};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
