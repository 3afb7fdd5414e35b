#pragma once
// Data larger than the device (docs/streams.md): an elementwise call on a device target whose host
// operands would not fit the device's free memory (or an explicit budget, `ufx::chunked(t, bytes)`)
// runs in chunks along its outermost loop dimension, each staged in, computed and copied back
// before the next. Operands that broadcast along that dimension are staged whole for each chunk.
#include <algorithm>
#include <cstddef>
#include <limits>
#include <string>
#include <tuple>

#include "ufx/detail/adapt.hpp"
#include "ufx/detail/broadcast.hpp"
#include "ufx/detail/fail.hpp"
#include "ufx/detail/place.hpp"
#include "ufx/detail/runtime.hpp"
#include "ufx/errors.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// Whether an operand with `lead` loop dimensions (its rank, or its rank less its core rank for a
/// gufunc) runs along loop dimension 0 of a loop of rank `loop_rank`: not when it broadcasts
/// along it (fewer loop dimensions, or extent 1 there).
template <class Op>
bool along_rows(const Op& op, int lead, int loop_rank) {
  if constexpr (is_scalar_operand<Op>::value) return false;
  else return lead == loop_rank && lead > 0 && op.view.extent(0) != 1;
}

/// Rows [b, e) of loop dimension 0 of an operand with `lead` loop dimensions; an operand that
/// broadcasts along it is whole.
template <class Op>
Op slice_rows(const Op& op, int lead, int loop_rank, index_t b, index_t e) {
  if constexpr (is_scalar_operand<Op>::value) {
    return op;
  } else {
    if (!along_rows(op, lead, loop_rank)) return op;
    auto shape = op.view.shape();
    const auto strides = op.view.strides();
    shape[0] = e - b;
    Op s = op;
    s.view = decltype(op.view)(op.view.data() + b * strides[0], shape, strides);
    return s;
  }
}

/// Device bytes an operand takes when staged to `space`: per row of loop dimension 0 (sliced
/// operands), or for every chunk (operands that broadcast along it).
template <class Op>
void add_staged_bytes(const Op& op, int lead, const memory_space& space, int loop_rank, index_t rows, std::size_t& per_row,
                      std::size_t& fixed) {
  if constexpr (!is_scalar_operand<Op>::value) {
    if (op.space == space || op.view.size() == 0) return;
    const auto bytes = static_cast<std::size_t>(op.view.size()) * sizeof(typename Op::value_type);
    if (along_rows(op, lead, loop_rank)) per_row += bytes / static_cast<std::size_t>(rows);
    else fixed += bytes;
  }
}

/// Rows of loop dimension 0 per chunk for a call staging `per_row` bytes a row plus `fixed`, on
/// `tag`; the whole loop when it fits. Throws value_error when one row does not fit the budget.
template <class Tag>
index_t chunk_rows(const Tag& tag, index_t rows, std::size_t per_row, std::size_t fixed) {
  if (per_row == 0) return rows;
  const std::size_t need = per_row * static_cast<std::size_t>(rows) + fixed;
  std::size_t budget = tag.chunk_bytes;
  const bool automatic = budget == 0;
  if (automatic) {
    const device_info d = tag.space().runtime->info(tag.ordinal());
    budget = d.free_memory - d.free_memory / 8; // a margin for the call's other allocations
    if (need <= budget) return rows;
  }
  if (per_row + fixed > budget)
    fail<value_error>("one chunk of the outermost loop dimension needs " + std::to_string(per_row + fixed) +
                      " bytes of device memory (" + std::to_string(per_row) + " per row, " + std::to_string(fixed) +
                      " for operands that broadcast along it), more than the " +
                      (automatic ? "device's free memory (" + std::to_string(budget) + " bytes usable)"
                                 : "chunk budget of " + std::to_string(budget) + " bytes"));
  return std::min<index_t>(rows, static_cast<index_t>((budget - fixed) / per_row));
}

/// Calls `run(loop, outs, ins)` once, or once per chunk of rows of loop dimension 0 when the
/// operands staged to a device target do not fit its memory (or the target's chunk budget).
/// `lead(k)` is the number of loop dimensions of operand k (outputs first, then inputs): its rank
/// for elementwise calls, its rank less its core rank for gufuncs (whose cores stay whole).
template <class Tag, class Outs, class Ins, class Lead, class Run>
void run_chunked(const Tag& tag, const dims& loop, Outs& outs, Ins& ins, const Lead& lead, Run&& run) {
  if constexpr (Tag::is_device) {
    constexpr int NOut = static_cast<int>(std::tuple_size_v<Outs>);
    if (loop.rank > 0 && loop[0] > 1) {
      const memory_space space = tag.space();
      std::size_t per_row = 0, fixed = 0;
      int k = 0;
      auto count = [&](const auto& op) { add_staged_bytes(op, lead(k++), space, loop.rank, loop[0], per_row, fixed); };
      std::apply([&](const auto&... o) { (count(o), ...); }, outs);
      std::apply([&](const auto&... i) { (count(i), ...); }, ins);
      const index_t rows = chunk_rows(tag, loop[0], per_row, fixed);
      if (rows < loop[0] && !partial_overlap(outs, ins)) {
        for (index_t b = 0; b < loop[0]; b += rows) {
          const index_t e = std::min(loop[0], b + rows);
          dims sub = loop;
          sub[0] = e - b;
          auto so = [&]<std::size_t... J>(std::index_sequence<J...>) {
            return std::make_tuple(slice_rows(std::get<J>(outs), lead(static_cast<int>(J)), loop.rank, b, e)...);
          }(std::make_index_sequence<NOut>{});
          auto si = [&]<std::size_t... J>(std::index_sequence<J...>) {
            return std::make_tuple(slice_rows(std::get<J>(ins), lead(NOut + static_cast<int>(J)), loop.rank, b, e)...);
          }(std::make_index_sequence<std::tuple_size_v<Ins>>{});
          run(sub, so, si);
        }
        return;
      }
    }
  }
  run(loop, outs, ins);
}

/// The loop dimensions of each operand of an elementwise call: all of its dimensions.
template <class Outs, class Ins>
struct elementwise_leads;
template <class... O, class... I>
struct elementwise_leads<std::tuple<O...>, std::tuple<I...>> {
  static constexpr int rank[] = {std::remove_cvref_t<O>::rank..., std::remove_cvref_t<I>::rank..., 0};
  int operator()(int k) const { return rank[k]; }
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
