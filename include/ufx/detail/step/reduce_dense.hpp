#pragma once
// The CPU targets' shortcuts for a full reduction of dense host data (docs/architecture.md, "Small calls"): the tree
// cpu_reduction would build, without shapes or plan (the same bits), and long float sums in double (wide_sum_min).
#include <optional>
#include <tuple>
#include <type_traits>

#include "ufx/config.hpp"
#include "ufx/detail/step/adapt.hpp"
#include "ufx/detail/cpu/executor.hpp"
#include "ufx/detail/cpu/reduce.hpp"
#include "ufx/detail/step/elementwise.hpp"
#include "ufx/detail/body/reduce.hpp"
#include "ufx/detail/step/reduce_setup.hpp"
#include "ufx/detail/step/run.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// True for a full reduction with something to reduce, into one host element, of inputs that are all host memory,
/// C-contiguous and of the loop's shape (scalars aside), none overlapping the output.
template <class OutOp, class... Ins>
bool dense_full_reduction(const OutOp& o, const dims& loop, unsigned mask, const Ins&... ins) {
  if (mask != (1u << loop.rank) - 1 || loop.size() == 0 || o.view.size() != 1 || !o.space.is_host()) return false;
  return ([&] {
    if constexpr (is_scalar_operand<Ins>::value) return true;
    else return dense_host_operand(ins, loop.rank, loop.v) && !overlaps(ins.view, o.view);
  }() && ...);
}

/// The operands' common element count when every array operand is in host memory, C-contiguous, non-empty and of one
/// shape (scalars aside), else 0: a full reduction then needs no broadcasting, staging or plan (cpu_full_reduction).
template <class... Ins>
index_t dense_same_shape(const Ins&... ins) {
  index_t ext[max_rank] = {}; // the first array operand's extents (copied: ndview::shape() returns a value)
  int rank = -1;
  index_t n = 0;
  bool ok = true;
  (
      [&] {
        if constexpr (!is_scalar_operand<Ins>::value) {
          if (rank < 0) {
            rank = Ins::rank;
            for (int d = 0; d < Ins::rank; ++d) ext[d] = ins.view.extent(d);
            n = ins.view.size(); // 0: declined
          }
          ok = ok && dense_host_operand(ins, rank, ext);
        }
      }(),
      ...);
  return ok ? n : 0;
}

/// Float sums of at least this many elements per output (a full sum of 2^23 floats reads 32 MiB, past the last-level
/// caches) are accumulated in double on the CPU targets, rounded once at the end: within about half an ulp of the exact
/// sum, at no cost to time there, since converting two floats a cycle per core outruns their memory. Smaller sums stay
/// in float: in cache the conversions would make them 4x slower (docs/reduce.md, "Accuracy").
#ifndef UFX_WIDE_SUM_MIN
#  define UFX_WIDE_SUM_MIN (index_t{1} << 23)
#endif
inline constexpr index_t wide_sum_min = UFX_WIDE_SUM_MIN;

/// True for the reductions wide_sum_min applies to: ufx::plus with a float accumulator, over operands In... that are
/// not float16 or bfloat16 (their sums stay in float at every length: NumPy's rule, and no second rounding, double to
/// float to the 2-byte type).
template <class Acc, class Spec, class... In>
inline constexpr bool wide_sum =
    std::is_same_v<Acc, float>&& std::is_same_v<std::remove_cvref_t<decltype(Spec::op)>, plus>&& Spec::indexing ==
        index_mode::none &&
    !(half_type<typename In::value_type> || ...);

/// The finishing step of a float sum accumulated in double: rounds, then finishes as the float.
template <class Fin>
struct wide_finish {
  Fin fin;
  auto operator()(const double& a) const { return fin(static_cast<float>(a)); }
};

/// The body every target runs for `spec` over the operands' accessors `acc` (make_acc; argmin / argmax: index_acc
/// last), with the spec's identity (which CUB's device reduce starts from).
template <class Acc, class Spec, class... A>
reduce_body<Acc, decltype(Spec::map), decltype(Spec::op), A...> spec_body(const Spec& spec, A... acc) {
  reduce_body<Acc, decltype(Spec::map), decltype(Spec::op), A...> kern{spec.map, spec.op, detail::make_tuple(acc...)};
  if constexpr (Spec::has_identity && Spec::indexing == index_mode::none) {
    kern.identity = static_cast<Acc>(spec.identity);
    kern.has_identity = true;
  }
  return kern;
}

template <class Acc, class Tag, class Spec, class... Ins>
Acc cpu_full_reduction_as(const Tag& tag, const Spec& spec, index_t n, const Ins&... ins) {
  return cpu_reduce_dense(cpu_executor(tag), spec_body<Acc>(spec, make_acc(ins)...), n);
}

/// A full reduction of `n` positions of dense host inputs on a CPU target: the tree cpu_reduction builds, without a
/// plan (cpu_reduce_dense); a long float sum in double (wide_sum_min).
template <class Acc, class Tag, class Spec, class... Ins>
Acc cpu_full_reduction(const Tag& tag, const Spec& spec, index_t n, const Ins&... ins) {
  if constexpr (wide_sum<Acc, Spec, Ins...>) {
    if (n >= wide_sum_min) return static_cast<Acc>(cpu_full_reduction_as<double>(tag, spec, n, ins...));
  }
  return cpu_full_reduction_as<Acc>(tag, spec, n, ins...);
}

/// A full reduction to a value of dense host operands of one shape on a CPU target: straight to the tree (the fixed
/// cost of a small call is the shape and plan machinery of reduce_run). Empty when the call is not one.
template <class Acc, class Res, class Spec, class Fin, class TargetT, class Devices, class Ins>
std::optional<Res> reduce_dense_value(const Spec& spec, const Fin& fin, const TargetT* given, const Devices& device,
                                      const Ins& ins) {
  std::optional<Res> r;
  if (const index_t n = std::apply([](const auto&... op) { return dense_same_shape(op...); }, ins)) {
    with_target_for<decltype(spec.map), decltype(spec.op)>(given, device, [&](auto tag) {
      if constexpr (!decltype(tag)::is_device)
        std::apply([&](const auto&... op) { r = static_cast<Res>(fin(cpu_full_reduction<Acc>(tag, spec, n, op...))); },
                   ins);
    });
  }
  return r;
}

/// True when a full reduction to a value is dense by the types of its arguments alone: one array argument, of a
/// container whose elements are always in host memory and C-contiguous (`host_dense`: std::vector, std::array,
/// ufx::ndarray), scalars beside it, on a CPU target named statically or, naming none, in a translation unit whose
/// default target is ufx::host. Such a call compiles reduce_dense_value's path alone, not reduce_general's (issue #29).
template <class TargetT, class... Args>
inline constexpr bool dense_by_type = [] {
  constexpr bool cpu_target = [] {
    if constexpr (target_tag<TargetT>) return !std::remove_cvref_t<TargetT>::is_device;
    else return std::is_void_v<TargetT> && !UFX_CUDA_TU;
  }();
  constexpr int arrays = (0 + ... + (scalar_like<Args> ? 0 : 1));
  return cpu_target && arrays == 1 && (host_only_arg<Args>() && ...);
}();

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
