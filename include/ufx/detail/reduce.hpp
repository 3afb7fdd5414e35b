#pragma once
// The body of ufx::reduce, reducer, transform_reduce, argmin / argmax: the five steps of a call for a reduction.
#include <algorithm>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <memory>
#include <utility>

#include "ufx/detail/device/reduce_policy.hpp"
#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/core/tuple.hpp"
#include "ufx/detail/step/adapt.hpp"
#include "ufx/detail/core/broadcast.hpp"
#include "ufx/detail/step/args.hpp"
#include "ufx/detail/step/chunk.hpp"
#include "ufx/detail/step/run.hpp"
#include "ufx/detail/step/elementwise.hpp"
#include "ufx/detail/step/input_casts.hpp"
#include "ufx/detail/step/place.hpp"
#include "ufx/detail/body/reduce.hpp"
#include "ufx/detail/step/reduce_dense.hpp"
#include "ufx/detail/core/reduce_ops.hpp"
#include "ufx/detail/step/reduce_setup.hpp"
#include "ufx/detail/core/reduce_plan.hpp"
#include "ufx/detail/step/result.hpp"
#include "ufx/detail/backends.hpp"
#include "ufx/errors.hpp"
#include "ufx/expression.hpp"
#include "ufx/out.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// Runs the body of `spec` over the inputs' accessors for target Tag (acc_for: ufx::sim's tell ufx::profile the
/// kernels' loads; the output is operand 0, the inputs 1, 2, ...), with the index operand when Indexed.
template <class Acc, class Tag, bool Indexed, class Run, class Spec, std::size_t... I, class... Ins>
void reduce_with_accessors(const Run& run, const Spec& spec, index_t index_base, std::index_sequence<I...>,
                           const Ins&... ins) {
  if constexpr (Indexed)
    run(spec_body<Acc>(spec, make_acc_for<Tag>(ins, 1 + static_cast<int>(I), 1)..., index_acc{index_base}));
  else run(spec_body<Acc>(spec, make_acc_for<Tag>(ins, 1 + static_cast<int>(I), 1)...));
}

/// Steps 3 and 4 on one target, for the whole loop at once: stage, plan, run, copy back. `index_base` is the flat or
/// axis index of the loop's first position (argmin / argmax over a chunk).
template <class Acc, class Tag, class Spec, class Fin, class Res, class OutOp, class... Ins>
void reduce_whole(const Tag& tag, const Spec& spec, const Fin& fin, const Res& empty, const OutOp& o, const dims& loop,
                  unsigned mask, index_t index_base, Ins... ins) {
  constexpr bool indexed = Spec::indexing != index_mode::none;
  constexpr int N = 1 + static_cast<int>(sizeof...(Ins)) + (indexed ? 1 : 0);
  if constexpr (!Tag::is_device && !indexed) {
    // a full reduction of dense host inputs: no plan (cpu_reduce_dense, the same tree)
    if (dense_full_reduction(o, loop, mask, ins...)) {
      *o.view.data() =
          static_cast<typename OutOp::value_type>(fin(cpu_full_reduction<Acc>(tag, spec, loop.size(), ins...)));
      return;
    }
  }
  if (reduced_shape(loop, mask, true).size() == 0) return; // no outputs
  // on a stream: queued (place.hpp); an input overlapping the result is copied now, after the stream's work
  const staging<Tag> st(tag);
  auto in_refs = std::forward_as_tuple(ins...);
  auto staged = std::get<0>(st.place_apart(std::make_tuple(o), in_refs, overlap_wait::any));

  layout<N> L = layout_of<N>(loop);
  set_output_strides(L, staged.view, mask);
  int primary = 0, k = 1;
  (
      [&](const auto& op) {
        set_input_strides(L, k, op);
        if (!primary && !is_scalar_operand<std::remove_cvref_t<decltype(op)>>::value) primary = k;
        ++k;
      }(ins),
      ...);
  if constexpr (indexed) { // the index operand: C-order positions, or the index along the one reduced axis
    index_t s = 1;
    for (int d = L.rank - 1; d >= 0; --d) {
      L.stride[N - 1][d] = Spec::indexing == index_mode::flat ? s : (mask & (1u << d)) ? 1 : 0;
      s *= L.shape[d];
    }
  }
  const reduce_plan<N> plan = make_reduce_plan(L, mask, primary ? primary : 1);

  auto run = [&](const auto& body) { reduce_hook<Tag>::run(tag, plan, body, staged.view.data(), fin, empty); };
  reduce_with_accessors<Acc, Tag, indexed>(run, spec, index_base, std::index_sequence_for<Ins...>{}, ins...);
  st.finish(in_refs, std::make_tuple(staged));
}

/// The chunks' partials of a reduction: `chunks` sets of `outputs` accumulators in pinned memory the streams copy into
/// (if not trivially copyable, ordinary memory: each chunk's copy waits). No std::vector: Acc may be bool.
template <class Acc>
class chunk_partials {
public:
  chunk_partials(index_t chunks, index_t outputs)
      : outputs_(outputs), bytes_(pinned ? n(chunks, outputs) * sizeof(Acc) : 64) {
    block_ = pinned_staging_take(bytes_);
    if constexpr (pinned) data_ = static_cast<Acc*>(block_);
    else plain_.reset(new Acc[n(chunks, outputs)]), data_ = plain_.get();
  }
  chunk_partials(const chunk_partials&) = delete;
  chunk_partials& operator=(const chunk_partials&) = delete;
  ~chunk_partials() { pinned_staging_give(block_, bytes_); }
  Acc* of(index_t c) const { return data_ + c * outputs_; }
  /// Combines the partials of chunks [lo, hi) pairwise into chunk lo's (a balanced tree over the chunks, as the
  /// pairwise sum splits its halves: the error grows with the log of their number).
  template <class Op>
  void combine(const Op& op, index_t lo, index_t hi) {
    if (hi - lo < 2) return;
    const index_t mid = lo + (hi - lo) / 2;
    combine(op, lo, mid);
    combine(op, mid, hi);
    Acc* a = of(lo);
    const Acc* b = of(mid);
    for (index_t j = 0; j < outputs_; ++j) a[j] = static_cast<Acc>(op(a[j], b[j]));
  }

private:
  static constexpr bool pinned = std::is_trivially_copyable_v<Acc>;
  static std::size_t n(index_t chunks, index_t outputs) { return static_cast<std::size_t>(chunks * outputs); }
  index_t outputs_;
  std::size_t bytes_;
  void* block_ = nullptr;
  std::unique_ptr<Acc[]> plain_;
  Acc* data_ = nullptr;
};

/// How a chunk's partial accumulators are finished: not at all (they are combined, then finished). An init_finish
/// without init whose result is the accumulator is that step, and is the whole call's own finishing type: the chunks
/// then run the kernels the call compiles anyway (nvcc compiles no second set).
template <class Fin, class Acc>
inline constexpr bool plain_finish = false;
template <class Acc, class Op>
inline constexpr bool plain_finish<init_finish<Acc, Op, Acc>, Acc> = true;
template <class Acc, class Fin>
auto unfinished(const Fin& fin) {
  if constexpr (plain_finish<Fin, Acc>) return Fin{fin.op, Acc{}, false};
  else return pass_through<Acc>{};
}

/// A reduction on a device target whose host operands do not fit its memory (or its chunk budget) runs in chunks of
/// loop dimension 0, through the chunk engine (run_pipelined). Kept there: each chunk writes its rows of the result.
/// Reduced there: each chunk reduces to partial accumulators (one set per chunk, on the host), combined pairwise over
/// the chunks and finished into the result. Returns false when the call fits (or cannot be split), to run whole.
template <class Acc, class Tag, class Spec, class Fin, class OutOp, class... Ins>
bool reduce_chunked(const Tag& tag, const Spec& spec, const Fin& fin, const OutOp& o, const dims& loop, unsigned mask,
                    const Ins&... ins) {
  constexpr int RO = OutOp::rank;
  using OutE = typename OutOp::value_type;
  if (loop.rank == 0 || loop[0] <= 1 || reduced_count(loop, mask) == 0) return false;
  const bool row_kept = !(mask & 1u);
  const index_t outputs = reduced_shape(loop, mask, true).size();
  const auto rows_total = static_cast<std::size_t>(loop[0]);
  // the device reduction's partials (its tuning: device/reduce_policy.hpp)
  const std::size_t partials_per_row =
      device_reduce_policy::partial_bytes_per_row(static_cast<std::size_t>(loop.size()) / rows_total * sizeof(Acc));
  const std::size_t out_per_row =
      row_kept && o.space != tag.space() ? static_cast<std::size_t>(outputs) / rows_total * sizeof(OutE) : 0;
  const std::size_t out_fixed = row_kept ? 0 : static_cast<std::size_t>(outputs) * sizeof(Acc);
  const full_leads<Ins...> lead;
  const index_t rows =
      rows_per_chunk(tag, loop, lead, partials_per_row + out_per_row, out_fixed, std::forward_as_tuple(ins...));
  if (rows >= loop[0] || partial_overlap(std::tie(o), std::tie(ins...), true))
    return false; // overlapping: read from a copy, whole

  // the index of position (b, 0, ...): flat (C order) or along the one reduced axis
  index_t index_row = 0;
  if constexpr (Spec::indexing == index_mode::flat) index_row = loop.size() / loop[0];
  else if constexpr (Spec::indexing == index_mode::along_axis) index_row = (mask & 1u) ? 1 : 0;

  const chunk_split split(loop[0], rows);
  const std::size_t out_staging =
      row_kept && o.space.is_host() ? chunk_ring<Tag>::template staging_size<OutE>(split.per * (outputs / loop[0])) : 0;
  // each slot's device memory beyond its staged inputs: the partials and the chunk's results
  const std::size_t device_extra = static_cast<std::size_t>(split.per) * partials_per_row + out_fixed;
  chunk_partials<Acc> parts(row_kept ? 1 : split.count, row_kept ? 1 : outputs); // none needed when kept
  run_pipelined(tag, loop, split, std::make_tuple(ins...), lead, out_staging, device_extra,
                [&](chunk_ring<Tag>& ring, int s, index_t c, index_t b, index_t e, auto& chunk_in) {
                  dims sub = loop;
                  sub[0] = e - b;
                  auto piece = [&](const auto& dst, const auto& f) {
                    std::apply(
                        [&](const auto&... op) {
                          reduce_whole<Acc>(ring.on(s), spec, f, std::invoke_result_t<decltype(f), const Acc&>{}, dst,
                                            sub, mask, b * index_row, op...);
                        },
                        chunk_in);
                  };
                  if (row_kept) piece(ring.output(s, slice_rows(o, b, e)), fin);
                  else piece(operand<Acc, RO>(ndview<Acc, RO>(parts.of(c), o.view.shape())), unfinished<Acc>(fin));
                });
  if (row_kept) return true;

  parts.combine(spec.op, 0, split.count);
  const std::unique_ptr<OutE[]> result(new OutE[static_cast<std::size_t>(outputs)]);
  for (index_t j = 0; j < outputs; ++j) result[j] = static_cast<OutE>(fin(parts.of(0)[j]));
  transfer(o.space, o.view, memory_space::host, ndview<const OutE, RO>(result.get(), o.view.shape()));
  return true;
}

/// Steps 3 and 4 on one target: in chunks where host operands do not fit a device (reduce_chunked); a long float sum on
/// a CPU target accumulated in double (wide_sum_min); else the whole loop at once (reduce_whole).
template <class Acc, class Tag, class Spec, class Fin, class Res, class OutOp, class... Ins>
void reduce_on_target(const Tag& tag, const Spec& spec, const Fin& fin, const Res& empty, const OutOp& o,
                      const dims& loop, unsigned mask, const Ins&... ins) {
  require_space(tag.space());
  if constexpr (Tag::is_device) {
    if (reduce_chunked<Acc>(tag, spec, fin, o, loop, mask, ins...)) return;
  } else if constexpr (wide_sum<Acc, Spec, Ins...>) {
    if (reduced_count(loop, mask) >= wide_sum_min)
      return reduce_whole<double>(tag, spec, wide_finish<Fin>{fin}, empty, o, loop, mask, 0, ins...);
  }
  reduce_whole<Acc>(tag, spec, fin, empty, o, loop, mask, 0, ins...);
}

/// Step 2 of a reduction of operands Args (adapted: `ins`) along NA axes: the broadcast loop, the reduced axes' mask,
/// and the result's shape (`rshape`; `kshape` with keepdims or for Eigen operands, which keep 2-D shapes) and rank RR.
template <int NA, bool Keep, class... Args>
struct reduce_shapes {
  static constexpr int R = std::max({0, decltype(adapt_in(std::declval<const Args&>()))::rank...});
  // all_eigen reads the operands' kinds only: any element type asks it
  static constexpr bool keep = Keep || (NA > 0 && result_rule<float, 2, Args...>::all_eigen);
  static constexpr int RR = keep ? R : (NA == 0 ? 0 : std::max(0, R - NA));
  dims loop, rshape, kshape;
  unsigned mask = 0;

  template <class Ins>
  reduce_shapes(const Ins& ins, const int* axes) {
    dims shapes[sizeof...(Args)];
    std::size_t n_shapes = 0;
    operand_shapes(ins, shapes, n_shapes);
    loop = broadcast(std::span<const dims>(shapes, sizeof...(Args)));
    mask = NA > 0 ? reduced_mask(axes, NA, loop.rank) : (1u << loop.rank) - 1;
    rshape = reduced_shape(loop, mask, keep);
    kshape = reduced_shape(loop, mask, true);
  }
};

/// Steps 2 to 5 of a reduction, once adapted (reduce_run).
template <int NA, bool Keep, class types, class Spec, class Fin, class TargetT, class OutT, class Devices, class Ins,
          class... Args>
auto reduce_general(const Spec& spec, const Fin& fin, const TargetT* given, OutT* out, const int* axes, Devices device,
                    const Ins& ins, const Args&...) {
  using Acc = typename types::acc;
  using Res = typename types::result;
  // 2. shape
  using shapes = reduce_shapes<NA, Keep, Args...>;
  constexpr int RR = shapes::RR;
  const shapes sh(ins, axes);
  const dims &loop = sh.loop, &rshape = sh.rshape, &kshape = sh.kshape;
  const unsigned mask = sh.mask;
  const Res empty = types::empty_result(spec, fin, reduced_count(loop, mask) == 0);
  auto on_target = [&](const auto& o) {
    with_target_for<decltype(spec.map), decltype(spec.op)>(given, device, [&](auto tag) {
      std::apply([&](const auto&... op) { reduce_on_target<Acc>(tag, spec, fin, empty, o, loop, mask, op...); }, ins);
    });
  };

  // 3-5. place, run, return
  if constexpr (!std::is_void_v<OutT>) {
    static_assert(std::tuple_size_v<decltype(out->dst)> == 1,
                  "ufx::out: a reduction has one output; name one destination");
    auto o = adapt_out(std::get<0>(const_cast<std::remove_const_t<OutT>*>(out)->dst));
    static_assert(same_kind_castable<Res, typename decltype(o)::value_type>(),
                  "ufx::out: the destination's element type cannot hold the reduction's result without changing kind "
                  "(NumPy's same_kind rule: e.g. a float result into an integer destination)");
    check_reduce_output(dims(o.view.shape()), rshape, kshape);
    note_space(o, device);
    on_target(o);
  } else if constexpr (RR == 0) {
    Res r{};
    on_target(array_operand<Res, 0>{ndview<Res, 0>(&r, {}), memory_space::host, {}});
    return r;
  } else {
    using rule = result_rule<Res, RR, Args...>;
    auto result = rule::make(rshape, result_space(given, device));
    on_target(adapter<typename rule::type>::out(result));
    return result;
  }
}

template <int NA, bool Keep, class Rule = casting::safe_t, class Spec, class TargetT, class OutT, class... Args>
UFX_CALL_BOUNDARY auto reduce_run(const Spec& spec, const TargetT* given, OutT* out, const int* axes,
                                  const Args&... args) {
  const call_scope scope(spec.who, axes, NA);
  // 1. adapt
  auto ins = std::make_tuple(adapt_in(args)...);
  static_assert(reduce_inputs_cast_ok<decltype(spec.map), decltype(spec.op), Rule, decltype(adapt_in(args))...>());
  constexpr int R = std::max({0, decltype(adapt_in(args))::rank...});
  static_assert(R > 0, "ufx::reduce: reduce at least one array (scalars alone have nothing to reduce)");
  using types = reduce_call_types<Spec, decltype(adapt_in(args))...>;
  using Acc = typename types::acc;
  using Res = typename types::result;
  const typename types::finish fin = types::make_finish(spec);
  device_set_of<reaches_device<OutT, Args...>> device;
  note_spaces(ins, device);
  constexpr bool to_value = std::is_void_v<OutT> && NA == 0 && !Keep && !types::indexed;
  if constexpr (to_value)
    if (const auto r = reduce_dense_value<Acc, Res>(spec, fin, given, device, ins)) return *r;
  // a full reduction to a value of one host container, dense by its type: declined only when empty, its path alone
  if constexpr (to_value && dense_by_type<TargetT, Args...>) return types::empty_result(spec, fin, true);
  else return reduce_general<NA, Keep, types>(spec, fin, given, out, axes, device, ins, args...);
}

/// Each reduction front door's checks of N positional arguments and NA axes, shared with ufx/mpi.hpp's calls.
template <std::size_t N>
constexpr void check_reducer_args() {
  static_assert(N == 1 || N == 2, "ufx::reducer: call it as r(x), r(x, init), r(target, x, ...), with optional "
                                  "ufx::axis{...}, ufx::keepdims and ufx::out(dst) after them");
}
template <std::size_t N>
constexpr void check_reduce_args() {
  static_assert(N == 3, "ufx::reduce: call it as reduce(x, op, identity), with an optional target "
                        "first and ufx::axis{...}, ufx::keepdims, ufx::out(dst) last");
}
template <std::size_t N>
constexpr void check_transform_reduce_args() {
  static_assert(N >= 4, "ufx::transform_reduce: call it as transform_reduce(x, ..., map, op, identity), with an "
                        "optional target first and ufx::axis{...}, ufx::keepdims, ufx::out(dst) last");
}
template <std::size_t N, int NA>
constexpr void check_arg_args() {
  static_assert(N == 1, "ufx::argmin / argmax: call it as argmin(x), with an optional target first "
                        "and ufx::axis{k}, ufx::keepdims, ufx::out(dst) last");
  static_assert(NA <= 1, "ufx::argmin / argmax: name one axis at most (NumPy's axis is an int here)");
}

/// A reducer call's Numba `init`: its second positional argument (of the tuple `p`), or no_value.
template <class P>
auto init_of(const P& p) {
  if constexpr (std::tuple_size_v<P> < 2) return no_value{};
  else return std::get<1>(p);
}

/// `run(map, operands...)` for a reduction of `x`: identity (Arg: arg_map, argmin / argmax's (value, index) pairs) over
/// x; for an expression (ufx::lazy), its function (Arg: fused_arg_map) over its leaves, in the same pass without a
/// temporary the size of the expression.
template <bool Arg = false, class Run, class... X>
decltype(auto) with_reduced(const Run& run, const X&... x) {
  if constexpr (any_lazy<X...>) {
    auto p = lazy_part(x...);
    const auto e = make_expression(std::move(p.first), std::move(p.second));
    const auto map = [&] {
      if constexpr (Arg) return fused_arg_map<std::remove_cvref_t<decltype(e.tree())>>{e.tree()};
      else return e.function();
    }();
    return std::apply([&](const auto&... l) -> decltype(auto) { return run(map, l...); }, e.leaves());
  } else {
    return run(std::conditional_t<Arg, arg_map, identity>{}, x...);
  }
}

/// `sum(x)`, `sum(x, init)` and their options, for a reducer with operator `op` and identity `id`.
template <class Op, class Id, class... A>
decltype(auto) reducer_call(const Op& op, const Id& id, const A&... a) {
  return with_call_args<true>(
      [&]<int NA, bool Keep, class Rule>(auto tp, auto outp, const int* axes, const auto&... pos) -> decltype(auto) {
        constexpr std::size_t n = sizeof...(pos);
        if constexpr (any_lazy<decltype(pos)...>)
          static_assert(n == 1 || n == 2, "ufx: reduce an expression as r(e) or r(e, init), with a target first and "
                                          "ufx::axis{...}, ufx::keepdims, ufx::out(dst) last");
        else check_reducer_args<n>();
        const auto p = std::forward_as_tuple(pos...);
        static_assert(n == 1 || scalar_like<decltype(init_of(p))>,
                      "ufx::reducer: the second argument is Numba's `init`, a scalar; reduce one array "
                      "at a time (ufx::transform_reduce maps several)");
        return with_reduced(
            [&](const auto& map, const auto&... xs) -> decltype(auto) {
              return reduce_run<NA, Keep, Rule>(make_spec(map, op, id, init_of(p), "ufx::reducer", no_identity_message),
                                                tp, outp, axes, xs...);
            },
            std::get<0>(p));
      },
      a...);
}

template <class... A>
decltype(auto) reduce_call(const A&... a) {
  return with_call_args<true>(
      [&]<int NA, bool Keep, class Rule>(auto tp, auto outp, const int* axes, const auto&... pos) -> decltype(auto) {
        check_reduce_args<sizeof...(pos)>();
        const auto p = std::forward_as_tuple(pos...);
        return with_reduced(
            [&](const auto& map, const auto&... xs) -> decltype(auto) {
              return reduce_run<NA, Keep, Rule>(
                  make_spec(map, as_operator(std::get<1>(p)), std::get<2>(p), no_value{}, "ufx::reduce", ""), tp, outp,
                  axes, xs...);
            },
            std::get<0>(p));
      },
      a...);
}

/// `transform_reduce(x, y, ..., map, op, identity)` and its options.
template <class... A>
decltype(auto) transform_reduce_call(const A&... a) {
  return with_call_args<true>(
      [&]<int NA, bool Keep, class Rule>(auto tp, auto outp, const int* axes, const auto&... pos) -> decltype(auto) {
        constexpr std::size_t n = sizeof...(pos);
        check_transform_reduce_args<n>();
        const auto p = std::forward_as_tuple(pos...);
        const auto spec = make_spec(as_function(std::get<n - 3>(p)), as_operator(std::get<n - 2>(p)),
                                    std::get<n - 1>(p), no_value{}, "ufx::transform_reduce", "");
        return with_indices<n - 3>([&]<std::size_t... I>(std::index_sequence<I...>)->decltype(auto) {
          return reduce_run<NA, Keep, Rule>(spec, tp, outp, axes, std::get<I>(p)...);
        });
      },
      a...);
}

template <bool Max, class... A>
decltype(auto) arg_call(const A&... a) {
  return with_call_args(
      [&]<int NA, bool Keep>(auto tp, auto outp, const int* axes, const auto&... pos) -> decltype(auto) {
        check_arg_args<sizeof...(pos), NA>();
        return with_reduced<true>(
            [&](const auto& map, const auto&... xs) -> decltype(auto) {
              const char* who = Max ? "ufx::argmax" : "ufx::argmin";
              return reduce_run<NA, Keep>(make_spec<arg_indexing<NA>>(map, arg_better<Max>{}, no_value{}, no_value{},
                                                                      who, arg_empty_message<Max>),
                                          tp, outp, axes, xs...);
            },
            pos...);
      },
      a...);
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
