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
/// The output and the partials are the target's accessors (acc_for: ufx::sim's tell ufx::profile the stores).
template <class Kern, int N, class OutA, class PartA, class Fin>
struct lane_fn {
  using Acc = typename Kern::acc_type;
  layout<N> kept, red;
  Kern k;
  OutA out;
  Fin fin;
  PartA partial; // null: this is the last level, write the outputs
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
    if (partial.p) partial.at(i) = acc;
    else out.at(base[0]) = static_cast<acc_element<OutA>>(fin(acc));
  }
};

/// One device thread per output of an empty reduction.
template <int N, class OutA, class Res>
struct fill_fn {
  layout<N> kept;
  OutA out;
  Res value;
  UFX_HD void operator()(index_t i) const {
    index_t base[N];
    loop_offsets(kept, i, base);
    out.at(base[0]) = static_cast<acc_element<OutA>>(value);
  }
};

/// Lanes per output: about lane_threads in all, each with at least lane_min_run positions; a multiple of 32 where there
/// are 32 or more, so that a warp's lanes belong to one output and each of their loads of a dense row starts on a
/// 128-byte boundary (ufx::profile of a sum of 104,857 floats: 3,276 lanes read 4.48 sectors a request, 3,264 read 4).
inline index_t device_lanes(index_t outputs, index_t m) {
  constexpr index_t threads = device_reduce_policy::lane_threads, min_run = device_reduce_policy::lane_min_run;
  if (m < 2 * min_run) return 1;
  const index_t lanes = std::max<index_t>(1, std::min(threads / std::max<index_t>(outputs, 1), m / min_run));
  return lanes >= 32 ? lanes / 32 * 32 : lanes;
}

/// The partials' accessor on target Tag: operand 0 of the pass that writes them, input 0 (operand 1) of the next.
template <class Tag, class Acc>
using partial_acc = acc_for_t<Tag, Acc>;

template <class Tag, class Kern, int N, class OutA, class Fin>
void device_reduce(const Tag& tag, const memory_space& space, const reduce_plan<N>& plan, const Kern& k,
                   const OutA& out, const Fin& fin);

/// The next level: `partial`, `lanes` partial accumulators per output of `plan` as a dense (outputs, lanes) array, or
/// (lanes, outputs) when `inner`, reduced into the same outputs.
template <class Tag, class Kern, int N, class OutA, class Fin>
void reduce_partials(const Tag& tag, const memory_space& space, const reduce_plan<N>& plan, const Kern& k,
                     const typename Kern::acc_type* partial, index_t lanes, bool inner, const OutA& out,
                     const Fin& fin) {
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
  using in_acc = acc_for_t<Tag, const Acc>;
  using next_kernel = reduce_body<Acc, identity, decltype(k.op), in_acc>;
  const next_kernel k2{identity{}, k.op, detail::make_tuple(in_acc::of(partial, 1, 1))};
  device_reduce(tag, space, next, k2, out, fin);
}

template <class Tag, class Kern, int N, class OutA, class Fin>
void device_reduce(const Tag& tag, const memory_space& space, const reduce_plan<N>& plan, const Kern& k,
                   const OutA& out, const Fin& fin) {
  using Acc = typename Kern::acc_type;
  using lane_t = lane_fn<Kern, N, OutA, partial_acc<Tag, Acc>, Fin>;
  const index_t n_out = plan.outputs(), m = plan.count();
  const index_t lanes = device_lanes(n_out, m);
  const bool inner = plan.inner_kept;
  if (lanes == 1) {
    device_for_each(tag, n_out, lane_t{plan.kept, plan.red, k, out, fin, {}, 1, m, n_out, inner},
                    "ufx reduction kernel");
    return;
  }
  buffer<Acc> partial(space, n_out * lanes, tag.stream_handle); // on a stream: freed after the queued kernels
  device_for_each(
      tag, n_out * lanes,
      lane_t{plan.kept, plan.red, k, out, fin, partial_acc<Tag, Acc>::of(partial.data(), 0, 1), lanes, m, n_out, inner},
      "ufx reduction kernel");
  reduce_partials(tag, space, plan, k, partial.data(), lanes, inner, out, fin);
}

/// The tiled reduction (device/tiled_reduce.hpp) of a tileable kernel, when the plan splits into x- and y-side inputs
/// and has outputs enough; false when it does not apply (the lanes take it).
template <class Tag, class Kern, int N, class OutA, class Fin>
bool device_tiled_reduce(const Tag& tag, const memory_space& space, const reduce_plan<N>& plan, const Kern& k,
                         const OutA& out, const Fin& fin) {
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
                          tiled_reduce_body<Kern, N, OutA, partial_acc<Tag, Acc>, Fin, R>{
                              plan.kept, plan.red, k, out, fin, partial_acc<Tag, Acc>::of(partial.data(), 0, 1),
                              plan.outputs(), plan.count(), tp},
                          "ufx tiled reduction kernel");
  };
  constexpr int per = tile_outputs_per_thread<Kern>::value; // tp.per_thread is this or 1
  if (per > 1 && tp.per_thread == per) {
    testing().tiled_blocked_launches.fetch_add(1, std::memory_order_relaxed);
    run(std::integral_constant<int, per>{});
  } else run(std::integral_constant<int, 1>{});
  // the partials, (splits, outputs): each output's in split order, as (outputs, splits) held them (the same sums)
  if (splits > 1) reduce_partials(tag, space, plan, k, partial.data(), splits, true, out, fin);
  return true;
}

/// The row reduction (device/row_reduce.hpp) when each output reads a row; false when it does not apply.
template <class Tag, class Kern, int N, class OutA, class Fin>
bool device_row_reduce(const Tag& tag, const reduce_plan<N>& plan, const Kern& k, const OutA& out, const Fin& fin) {
  row_plan<Kern::N> rp;
  launch_config c;
  if (!plan_row_reduce(plan, k, rp, c)) return false;
  testing().row_reduce.count();
  launch_hook<Tag>::run(tag, c,
                        row_reduce_body<Kern, N, OutA, Fin>{plan.kept, k, out, fin, plan.outputs(), plan.count(), rp},
                        "ufx row reduction kernel");
  return true;
}

/// The whole reduction on a device target: nothing for no outputs, `empty` for an empty one. The output is operand 0
/// of each kernel, through the target's accessor.
template <class Tag, class Kern, int N, class OutE, class Fin, class Res>
void device_reduce_all(const Tag& tag, const memory_space& space, const reduce_plan<N>& plan, const Kern& k,
                       OutE* out_p, const Fin& fin, const Res& empty) {
  if (plan.outputs() == 0) return;
  using out_acc = acc_for_t<Tag, OutE>;
  const out_acc out = out_acc::of(out_p, 0, 1);
  if (plan.count() == 0) {
    device_for_each(tag, plan.outputs(), fill_fn<N, out_acc, Res>{plan.kept, out, empty}, "ufx reduction fill kernel");
    return;
  }
  if constexpr (tileable<Kern>::value) // only then is a tiled body compiled for the kernel
    if (device_tiled_reduce(tag, space, plan, k, out, fin)) return;
  if (device_row_reduce(tag, plan, k, out, fin)) return;
  device_reduce(tag, space, plan, k, out, fin);
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
