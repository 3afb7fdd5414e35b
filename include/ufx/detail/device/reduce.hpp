#pragma once
// The device targets' reduction (ufx::sim and ufx::cuda, through the launch seam). Inputs split into an x and a y side,
// with outputs enough, take tiled_reduce.hpp's block body; outputs that each read a row (every array input stepping by
// 1 or 0 along the one reduced axis), enough to fill the device or rows short enough for a block, take
// row_reduce.hpp's; else each output is split into interleaved lanes (neighbouring threads read neighbouring elements,
// and a few outputs still fill the device), each reducing its share pairwise (lane_reduce) into a partial, and the
// partials, a dense (outputs, lanes) array, are reduced the same way until one lane per output remains.
#include <algorithm>
#include <string>

#include "ufx/detail/device/reduce_policy.hpp"
#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/core/loop.hpp"
#include "ufx/detail/lib/runtime.hpp"
#include "ufx/detail/body/reduce.hpp"
#include "ufx/detail/core/reduce_plan.hpp"
#include "ufx/detail/core/testing.hpp"
#include "ufx/detail/device/elementwise.hpp"
#include "ufx/detail/device/thread.hpp"
#include "ufx/detail/device/row_reduce.hpp"
#include "ufx/detail/device/tiled_reduce.hpp"
#include "ufx/detail/step/transfer.hpp"
#include "ufx/errors.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// One device thread: lane t of output s. With `outputs_inner` (a kept dimension is innermost in memory, e.g. axis 0 of
/// a row-major matrix) neighbouring threads take neighbouring outputs (i = t * outputs + s), so their loads are
/// neighbours in memory; else neighbouring lanes of one output (i = s * lanes + t), which read neighbouring positions.
template <class Kern, int N, class OutE, class Fin>
struct lane_fn {
  using Acc = typename Kern::acc_type;
  layout<N> kept, red;
  Kern k;
  OutE* out;
  Fin fin;
  Acc* partial; // null: this is the last level, write the outputs
  index_t lanes, m, outputs;
  bool outputs_inner;

  UFX_HD void operator()(index_t i) const {
    index_t s, t;
    if (outputs_inner) {
      t = i / outputs;
      s = i - t * outputs;
    } else {
      s = i / lanes;
      t = i - s * lanes;
    }
    index_t base[N];
    loop_offsets(kept, s, base);
    const Acc acc = lane_reduce(k, red, base, t, lanes, m);
    if (partial) partial[i] = acc;
    else out[base[0]] = static_cast<OutE>(fin(acc));
  }
};

/// One device thread per output of an empty reduction.
template <int N, class OutE, class Res>
struct fill_fn {
  layout<N> kept;
  OutE* out;
  Res value;
  UFX_HD void operator()(index_t i) const {
    index_t base[N];
    loop_offsets(kept, i, base);
    out[base[0]] = static_cast<OutE>(value);
  }
};

/// Lanes per output: about lane_threads in all, each with at least lane_min_run positions.
inline index_t device_lanes(index_t outputs, index_t m) {
  constexpr index_t threads = device_reduce_policy::lane_threads, min_run = device_reduce_policy::lane_min_run;
  if (m < 2 * min_run) return 1;
  return std::max<index_t>(1, std::min(threads / std::max<index_t>(outputs, 1), m / min_run));
}

template <class Tag, class Kern, int N, class OutE, class Fin>
void device_reduce(const Tag& tag, const memory_space& space, const reduce_plan<N>& plan, const Kern& k, OutE* out,
                   const Fin& fin);

/// The next level: `partial`, `lanes` partial accumulators per output of `plan` as a dense (outputs, lanes) array, or
/// (lanes, outputs) when `inner`, reduced into the same outputs.
template <class Tag, class Kern, int N, class OutE, class Fin>
void reduce_partials(const Tag& tag, const memory_space& space, const reduce_plan<N>& plan, const Kern& k,
                     const typename Kern::acc_type* partial, index_t lanes, bool inner, OutE* out, const Fin& fin) {
  using Acc = typename Kern::acc_type;
  const index_t n_out = plan.outputs();
  reduce_plan<2> next;
  next.kept.rank = plan.kept.rank;
  index_t s = inner ? 1 : lanes;
  for (int d = plan.kept.rank - 1; d >= 0; --d) {
    next.kept.shape[d] = plan.kept.shape[d];
    next.kept.stride[0][d] = plan.kept.stride[0][d];
    next.kept.stride[1][d] = s;
    s *= plan.kept.shape[d];
  }
  next.red.rank = 1;
  next.red.shape[0] = lanes;
  next.red.stride[1][0] = inner ? n_out : 1;
  next.inner_kept = inner;
  // map `identity`, the first level's for a plain reduction: where the elements are Acc already, the two levels are one
  // kernel type (nvcc compiles one lane_fn, not two)
  using next_kernel = reduce_body<Acc, identity, decltype(k.op), array_acc<const Acc>>;
  const next_kernel k2{identity{}, k.op, detail::make_tuple(array_acc<const Acc>{partial})};
  device_reduce(tag, space, next, k2, out, fin);
}

template <class Tag, class Kern, int N, class OutE, class Fin>
void device_reduce(const Tag& tag, const memory_space& space, const reduce_plan<N>& plan, const Kern& k, OutE* out,
                   const Fin& fin) {
  using Acc = typename Kern::acc_type;
  const index_t n_out = plan.outputs(), m = plan.count();
  const index_t lanes = device_lanes(n_out, m);
  const bool inner = plan.inner_kept;
  if (lanes == 1) {
    device_for_each(tag, n_out,
                    lane_fn<Kern, N, OutE, Fin>{plan.kept, plan.red, k, out, fin, nullptr, 1, m, n_out, inner},
                    "ufx reduction kernel");
    return;
  }
  buffer<Acc> partial(space, n_out * lanes, tag.stream_handle); // on a stream: freed after the queued kernels
  device_for_each(tag, n_out * lanes,
                  lane_fn<Kern, N, OutE, Fin>{plan.kept, plan.red, k, out, fin, partial.data(), lanes, m, n_out, inner},
                  "ufx reduction kernel");
  reduce_partials(tag, space, plan, k, partial.data(), lanes, inner, out, fin);
}

/// The tiled reduction (device/tiled_reduce.hpp) of a tileable kernel, when the plan splits into x- and y-side inputs
/// and has outputs enough; false when it does not apply (the lanes take it).
template <class Tag, class Kern, int N, class OutE, class Fin>
bool device_tiled_reduce(const Tag& tag, const memory_space& space, const reduce_plan<N>& plan, const Kern& k,
                         OutE* out, const Fin& fin) {
  using Acc = typename Kern::acc_type;
  tile_plan<N - 1> tp;
  launch_config c;
  if (!plan_tiled_reduce(plan, k, tp, c)) return false;
  testing().tiled_reduce.count();
  const index_t splits = c.grid.y;
  buffer<Acc> partial; // one split writes the outputs; on a stream, freed after the queued kernels
  if (splits > 1) partial = buffer<Acc>(space, plan.outputs() * splits, tag.stream_handle);
  auto run = [&]<int R>(std::integral_constant<int, R>) {
    launch_hook<Tag>::run(tag, c,
                          tiled_reduce_body<Kern, N, OutE, Fin, R>{plan.kept, plan.red, k, out, fin, partial.data(),
                                                                   plan.outputs(), plan.count(), tp},
                          "ufx tiled reduction kernel");
  };
  constexpr int per = tile_outputs_per_thread<Kern>::value; // tp.per_thread is this or 1
  if (per > 1 && tp.per_thread == per) {
    testing().tiled_blocked_launches.fetch_add(1, std::memory_order_relaxed);
    run(std::integral_constant<int, per>{});
  } else run(std::integral_constant<int, 1>{});
  if (splits > 1) reduce_partials(tag, space, plan, k, partial.data(), splits, false, out, fin);
  return true;
}

/// The row reduction (device/row_reduce.hpp) when each output reads a row; false when it does not apply.
template <class Tag, class Kern, int N, class OutE, class Fin>
bool device_row_reduce(const Tag& tag, const reduce_plan<N>& plan, const Kern& k, OutE* out, const Fin& fin) {
  row_plan<Kern::N> rp;
  launch_config c;
  if (!plan_row_reduce(plan, k, rp, c)) return false;
  testing().row_reduce.count();
  launch_hook<Tag>::run(tag, c,
                        row_reduce_body<Kern, N, OutE, Fin>{plan.kept, k, out, fin, plan.outputs(), plan.count(), rp},
                        "ufx row reduction kernel");
  return true;
}

/// The whole reduction on a device target: nothing for no outputs, `empty` for an empty one.
template <class Tag, class Kern, int N, class OutE, class Fin, class Res>
void device_reduce_all(const Tag& tag, const memory_space& space, const reduce_plan<N>& plan, const Kern& k, OutE* out,
                       const Fin& fin, const Res& empty) {
  if (plan.outputs() == 0) return;
  if (plan.count() == 0) {
    device_for_each(tag, plan.outputs(), fill_fn<N, OutE, Res>{plan.kept, out, empty}, "ufx reduction fill kernel");
    return;
  }
  if constexpr (tileable<Kern>::value) // only then is a tiled body compiled for the kernel
    if (device_tiled_reduce(tag, space, plan, k, out, fin)) return;
  if (device_row_reduce(tag, plan, k, out, fin)) return;
  device_reduce(tag, space, plan, k, out, fin);
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
