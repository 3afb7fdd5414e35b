#pragma once
// The body of ufx::accumulate: the five steps of a call for an inclusive scan along one axis.
#include <algorithm>
#include <bit>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/step/adapt.hpp"
#include "ufx/detail/core/broadcast.hpp"
#include "ufx/detail/step/args.hpp"
#include "ufx/detail/step/chunk.hpp"
#include "ufx/detail/step/run.hpp"
#include "ufx/detail/step/elementwise.hpp"
#include "ufx/detail/step/input_casts.hpp"
#include "ufx/detail/step/reduce_setup.hpp"
#include "ufx/detail/body/reduce.hpp"
#include "ufx/detail/core/reduce_plan.hpp"
#include "ufx/detail/step/result.hpp"
#include "ufx/detail/backends.hpp"
#include "ufx/errors.hpp"
#include "ufx/out.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// Steps 3 and 4 of accumulate on one target, for the whole input at once.
template <class Acc, class Tag, class Op, class OutOp, class InOp>
void scan_whole(const Tag& tag, const Op& op, const OutOp& o, InOp in, int axis) {
  // on a stream: as reduce_whole's
  const staging<Tag> st(tag);
  auto in_refs = std::tie(in);
  auto staged = std::get<0>(st.place(std::make_tuple(o), in_refs, overlap_wait::any));
  layout<2> L = layout_of<2>(dims(in.view.shape()));
  set_strides(L, 0, staged.view);
  set_strides(L, 1, in.view);
  // A destination that overlaps the input other than exactly (in place) reads from a copy.
  resolve_overlap(L, 1, in, std::make_tuple(staged), std::index_sequence<0>{});
  // extent-1 dimensions got stride 0 above: along the axis, harmless (len 1 reads position 0 only)
  const scan_plan<2> plan = make_scan_plan(L, axis);
  using kernel_t = reduce_body<Acc, identity, Op, array_acc<const typename InOp::value_type>>;
  const kernel_t k{identity{}, op, detail::make_tuple(array_acc<const typename InOp::value_type>{in.view.data()})};
  scan_hook<std::remove_cvref_t<decltype(tag)>>::run(tag, plan, k, staged.view.data());
  st.finish(in_refs, std::make_tuple(staged));
}

/// out = op(carry, out), element by element, with `carry` one row broadcast along dimension 0.
template <class T, class Op>
struct carry_fn {
  Op op;
  UFX_HD T operator()(const T& carry, const T& x) const { return static_cast<T>(UFX_USER_CALL(op, carry, x)); }
};

/// Folds row `carry` of a destination in memory `s` into its `rows` after it: the carry between chunks along axis 0.
template <class Op, class T, int R>
void fold_carry(const memory_space& s, const Op& op, const ndview<T, R>& rows, const T* carry) {
  layout<3> L = layout_of<3>(dims(rows.shape()));
  for (int k = 0; k < 3; ++k) set_strides(L, k, rows);
  L.stride[1][0] = 0;
  map_body<carry_fn<T, Op>, 1, array_acc<T>, array_acc<const T>, array_acc<const T>> k{
      carry_fn<T, Op>{op},
      detail::make_tuple(array_acc<T>{rows.data()}, array_acc<const T>{carry}, array_acc<const T>{rows.data()})};
  if (s.is_host()) return run_on(host, L, k);
  visit_for<Op>(target_for(s), [&](const auto& t) { run_on(t, L, k); });
}

/// accumulate on a device target whose host operands do not fit its memory (or chunk budget): chunks of dimension 0
/// through run_pipelined. Along another axis the chunks are independent; along axis 0, once all have run, each later
/// chunk gets the previous one's last row folded in, in order (op(carry, x): one pass's result for an associative op;
/// float sums may differ in the last bits, as with CUB's scan order). False when the call fits (it runs whole).
template <class Acc, class Tag, class Op, class OutOp, class InOp>
bool scan_chunked(const Tag& tag, const Op& op, const OutOp& o, const InOp& in, int axis) {
  using OutE = typename OutOp::value_type;
  const dims loop(in.view.shape());
  if (loop[0] <= 1 || overlaps(in.view, o.view)) return false;
  const auto per_elem_row = static_cast<std::size_t>(in.view.size() / loop[0]);
  const std::size_t out_per_row = o.space != tag.space() ? per_elem_row * sizeof(OutE) : 0;
  const std::size_t temps_per_row =
      per_elem_row * (sizeof(Acc) + sizeof(index_t)); // the device scan's keys and partials
  const full_leads<InOp> lead;
  const index_t rows = rows_per_chunk(tag, loop, lead, out_per_row + temps_per_row, 0, std::forward_as_tuple(in));
  if (rows >= loop[0]) return false;
  const chunk_split split(loop[0], rows);
  const auto per_chunk = static_cast<index_t>(split.per * static_cast<index_t>(per_elem_row));
  const std::size_t out_staging = o.space.is_host() ? chunk_ring<Tag>::template staging_size<OutE>(per_chunk) : 0;
  run_pipelined(tag, loop, split, std::make_tuple(in), lead, out_staging,
                static_cast<std::size_t>(per_chunk) * (sizeof(Acc) + sizeof(index_t)),
                [&](chunk_ring<Tag>& ring, int s, index_t, index_t b, index_t e, auto& chunk_in) {
                  scan_whole<Acc>(ring.on(s), op, ring.output(s, slice_rows(o, b, e)), std::get<0>(chunk_in), axis);
                });
  if (axis == 0)
    for (index_t b = split.per; b < loop[0]; b += split.per)
      fold_carry(o.space, op, slice_rows(o, b, std::min(loop[0], b + split.per)).view,
                 o.view.data() + (b - 1) * o.view.stride(0));
  return true;
}

/// Steps 3 and 4 of accumulate on one target: a device target whose host operands do not fit its memory runs in chunks
/// (scan_chunked), else the whole input at once (scan_whole).
template <class Acc, class Tag, class Op, class OutOp, class InOp>
void scan_on_target(const Tag& tag, const Op& op, const OutOp& o, const InOp& in, int axis) {
  require_space(tag.space());
  if (in.view.size() == 0) return;
  if constexpr (Tag::is_device)
    if (scan_chunked<Acc>(tag, op, o, in, axis)) return;
  scan_whole<Acc>(tag, op, o, in, axis);
}

template <int NA, class Rule = casting::safe_t, class Op, class TargetT, class OutT, class X>
UFX_CALL_BOUNDARY auto accumulate_run(const Op& op, const TargetT* given, OutT* out, const int* axes, const X& x) {
  const call_scope scope("ufx::accumulate", axes, NA);
  auto in = adapt_in(x);
  using In = decltype(in);
  constexpr int R = In::rank;
  static_assert(R > 0 && !is_scalar_operand<In>::value, "ufx::accumulate: accumulate an array, not a scalar");
  static_assert(reduce_inputs_cast_ok<identity, Op, Rule, In>());
  using Acc = typename reduce_types<identity, Op, typename In::value_type>::scan_acc;

  device_set_of<reaches_device<OutT, X>> device;
  note_space(in, device);
  const dims shape(in.view.shape());
  const int zero = 0;
  const int axis = std::countr_zero(reduced_mask(NA > 0 ? axes : &zero, 1, shape.rank));

  auto on_target = [&](const auto& o) {
    with_target_for<Op>(given, device, [&](auto tag) { scan_on_target<Acc>(tag, op, o, in, axis); });
  };
  if constexpr (!std::is_void_v<OutT>) {
    static_assert(std::tuple_size_v<decltype(out->dst)> == 1, "ufx::out: a scan has one output; name one destination");
    auto o = adapt_out(std::get<0>(const_cast<std::remove_const_t<OutT>*>(out)->dst));
    static_assert(same_kind_castable<Acc, typename decltype(o)::value_type>(),
                  "ufx::out: the destination's element type cannot hold the scan's result without changing kind "
                  "(NumPy's same_kind rule: e.g. a float result into an integer destination)");
    check_output_shape(dims(o.view.shape()), shape, 0);
    note_space(o, device);
    on_target(o);
  } else {
    using rule = result_rule<Acc, R, X>;
    auto result = rule::make(shape, result_space(given, device));
    on_target(adapter<typename rule::type>::out(result));
    return result;
  }
}

/// The argument checks of ufx::accumulate, shared with the call on distributed operands (ufx/mpi.hpp).
template <std::size_t N, int NA, bool Keep>
constexpr void check_accumulate_args() {
  static_assert(N == 2, "ufx::accumulate: call it as accumulate(x, op), with an optional target "
                        "first and ufx::axis{k}, ufx::out(dst) last");
  static_assert(NA <= 1, "ufx::accumulate: name one axis (NumPy's accumulate runs along one)");
  static_assert(!Keep, "ufx::accumulate: keepdims does not apply to a scan (its result has the input's shape)");
}

/// `accumulate(x, op)` and its options (one axis at most; axis 0 when none is named).
template <class... A>
decltype(auto) accumulate_call(const A&... a) {
  return with_call_args<true>(
      [&]<int NA, bool Keep, class Rule>(auto tp, auto outp, const int* axes, const auto&... pos) -> decltype(auto) {
        check_accumulate_args<sizeof...(pos), NA, Keep>();
        const auto p = std::forward_as_tuple(pos...);
        return accumulate_run<NA, Rule>(as_operator(std::get<1>(p)), tp, outp, axes, std::get<0>(p));
      },
      a...);
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
