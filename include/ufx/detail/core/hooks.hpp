#pragma once
// What a target provides: one class template per hook, specialised for the target's type in its folder
// (detail/backend/<name>/) and called qualified, as Kokkos specialises ParallelFor<F, Policy, Serial> per backend:
// `for_each_hook<Tag>::run(t, L, k)`. A target that lacks a hook a call needs is a compile error naming the class (an
// incomplete type), and no call depends on which overloads argument-dependent lookup happens to see.
//
// - for_each_hook: `run(t, layout, kernel)`, an elementwise kernel over a loop (core/loop.hpp's run_on);
// - gufunc_hook: `run(t, layout, kernel, dense, work)`, a gufunc's cores over its loop (detail/gufunc.hpp);
// - reduce_hook: `run(t, plan, kernel, out, fin, empty)`, a planned reduction (detail/reduce.hpp);
// - scan_hook: `run(t, plan, kernel, out)`, a planned scan (detail/reduce_scan.hpp);
// - launch_hook (device targets): `run(t, config, body, label)`, the launch seam, and `keep_until_run(t, keep)`, what a
//   call on a stream keeps until the stream has run it (device/, step/place.hpp);
// - raw_kernel_hook: `limits(t)`, `cooperative_blocks<Body>(t, config, static_shared)` and `run<Traits>(t, config,
//   body, label)`: a raw kernel's limits and launch (detail/kernel.hpp).
#include "ufx/config.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <class Tag>
struct for_each_hook;
template <class Tag>
struct gufunc_hook;
template <class Tag>
struct reduce_hook;
template <class Tag>
struct scan_hook;
template <class Tag>
struct launch_hook;
template <class Tag>
struct raw_kernel_hook;

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
