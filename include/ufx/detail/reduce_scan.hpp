#pragma once
// The body of ufx::accumulate: the five steps of a call for an inclusive scan along one axis.
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ufx/detail/adapt.hpp"
#include "ufx/detail/broadcast.hpp"
#include "ufx/detail/args.hpp"
#include "ufx/detail/run.hpp"
#include "ufx/detail/elementwise.hpp"
#include "ufx/detail/reduce.hpp"
#include "ufx/detail/reduce_kernel.hpp"
#include "ufx/detail/reduce_plan.hpp"
#include "ufx/detail/result.hpp"
#include "ufx/detail/target/cuda/scan.hpp"
#include "ufx/detail/target/host/scan.hpp"
#include "ufx/detail/target/serial/scan.hpp"
#include "ufx/detail/target/sim/scan.hpp"
#include "ufx/errors.hpp"
#include "ufx/out.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <class Acc, class Tag, class Op, class OutOp, class InOp>
void scan_on_target(const Tag& given, const Op& op, const OutOp& o, InOp in, int axis) {
  const Tag tag = after_stream(given); // on a stream: after its queued work, to completion (for now)
  const memory_space space = tag.space();
  require_space(space);
  if (in.view.size() == 0) return;
  stage_input(in, space);
  auto staged = stage_output(o, space);
  layout<2> L;
  L.rank = InOp::rank;
  for (int d = 0; d < L.rank; ++d) L.shape[d] = in.view.extent(d);
  set_strides(L, 0, staged.view);
  set_strides(L, 1, in.view);
  // A destination that overlaps the input other than exactly (in place) reads from a copy.
  resolve_overlap<1>(L, 1, in, std::make_tuple(staged), std::index_sequence<0>{});
  // Extent-1 dimensions got stride 0 above; along the axis the stride still matters when len is 1
  // only for position 0, so it is harmless.
  const scan_plan<2> plan = make_scan_plan(L, axis);
  using kernel_t = reduce_kernel<Acc, identity, Op, array_acc<const typename InOp::value_type>>;
  const kernel_t k{identity{}, op, detail::make_tuple(array_acc<const typename InOp::value_type>{in.view.data()})};
  scan_on(tag, plan, k, staged.view.data());
  copy_back(staged, space);
}

template <int NA, class Op, class TargetT, class OutT, class X>
auto accumulate_run(const Op& op, const TargetT* given, OutT* out, const int* axes, const X& x) {
  const call_scope scope("ufx::accumulate");
  auto in = adapt_in(x);
  using In = decltype(in);
  constexpr int R = In::rank;
  static_assert(R > 0 && !is_scalar_operand<In>::value, "ufx::accumulate: accumulate an array, not a scalar");
  using Acc = typename reduce_types<identity, Op, typename In::value_type>::acc;

  device_set device;
  note_space(in, device);
  const dims shape(in.view.shape());
  const int zero = 0;
  const unsigned mask = reduced_mask(NA > 0 ? axes : &zero, 1, shape.rank);
  int axis = 0;
  while (!(mask & (1u << axis))) ++axis;

  auto on_target = [&](const auto& o) {
    with_target(given, device, [&](auto tag) { scan_on_target<Acc>(tag, op, o, in, axis); });
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
  return with_call_args(
      [&]<int NA, bool Keep>(auto tp, auto outp, const int* axes, const auto&... pos) -> decltype(auto) {
        check_accumulate_args<sizeof...(pos), NA, Keep>();
        const auto p = std::forward_as_tuple(pos...);
        return accumulate_run<NA>(std::get<1>(p), tp, outp, axes, std::get<0>(p));
      },
      a...);
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
