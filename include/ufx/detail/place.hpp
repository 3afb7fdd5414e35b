#pragma once
// Step 3 of a call, shared by every front door: put each operand where the target can use it.
// Inputs in another memory space are staged (copied once, packed row-major); outputs in another
// space get a temporary there and are copied back after the run; an input that overlaps an
// output is read from a copy (NumPy's answer is that of the untouched input).
#include <memory>
#include <tuple>
#include <utility>

#include "ufx/detail/adapt.hpp"
#include "ufx/detail/loop.hpp"
#include "ufx/detail/map_kernel.hpp"
#include "ufx/detail/transfer.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// Makes an array operand read from a fresh row-major copy of itself, in the same space.
template <class Op>
void read_from_copy(Op& op) {
  auto buf = std::make_shared<buffer<typename Op::value_type>>(op.space, op.view.size());
  ndview<typename Op::value_type, Op::rank> dst(buf->data(), op.view.shape());
  copy_within(op.space, dst, op.view);
  op.view = dst;
  op.keep = std::move(buf);
}

/// True when two views share any byte.
template <class A, class B>
bool overlaps(const A& a, const B& b) {
  if (a.size() == 0 || b.size() == 0) return false;
  const auto [alo, ahi] = byte_range(a);
  const auto [blo, bhi] = byte_range(b);
  return alo < bhi && blo < ahi;
}

/// Copies an array operand into a fresh row-major buffer in `space` (views the buffer afterwards).
template <class V, int R>
void stage(array_operand<const V, R>& op, const memory_space& space) {
  auto buf = std::make_shared<buffer<V>>(space, op.view.size());
  ndview<V, R> dst(buf->data(), op.view.shape());
  transfer(space, dst, op.space, op.view);
  op.view = ndview<const V, R>(dst);
  op.space = space;
  op.keep = std::move(buf);
}

/// An output as the kernel sees it: the final destination, or a temporary in the target's space.
template <class T, int R>
struct staged_output {
  array_operand<T, R> final_dst;
  ndview<T, R> view;
  std::shared_ptr<buffer<T>> temp;
};

template <class T, int R>
staged_output<T, R> stage_output(const array_operand<T, R>& o, const memory_space& space) {
  if (o.space == space) return {o, o.view, nullptr};
  auto buf = std::make_shared<buffer<T>>(space, o.view.size());
  return {o, ndview<T, R>(buf->data(), o.view.shape(), strides_like(o.view)), buf};
}

template <class Op>
auto make_acc(const Op& op) {
  if constexpr (is_scalar_operand<Op>::value) return scalar_acc<typename Op::value_type>{op.value};
  else return array_acc<typename Op::element_type>{op.view.data()};
}

/// True when input view `in` (operand `k` of the layout) must be read from a copy because it
/// overlaps output `j` without being exactly the same elements in the same order.
template <int N, class In, class Out>
bool needs_copy(const layout<N>& L, int k, const In& in, int j, const Out& out) {
  const auto [ilo, ihi] = byte_range(in);
  const auto [olo, ohi] = byte_range(out);
  if (!(ilo < ohi && olo < ihi)) return false;
  if (static_cast<const void*>(in.data()) != static_cast<const void*>(out.data()) || sizeof(*in.data()) != sizeof(*out.data()))
    return true;
  for (int d = 0; d < L.rank; ++d)
    if (L.stride[j][d] != L.stride[k][d]) return true;
  return false;
}

template <int NOut, int N, class Op, class Staged, std::size_t... J>
void resolve_overlap(layout<N>& L, int k, Op& op, const Staged& staged, std::index_sequence<J...>) {
  if constexpr (!is_scalar_operand<Op>::value) {
    const bool copy = (needs_copy(L, k, op.view, static_cast<int>(J), std::get<J>(staged).view) || ...);
    if (!copy) return;
    read_from_copy(op);
    set_strides(L, k, op.view);
  }
}

template <class Op>
void stage_input(Op& op, const memory_space& space) {
  if constexpr (!is_scalar_operand<Op>::value)
    if (op.space != space && op.view.size() > 0) stage(op, space);
}

template <int N, class Op>
void set_input_strides(layout<N>& L, int k, const Op& op) {
  if constexpr (is_scalar_operand<Op>::value) L.scalar_mask |= 1u << k;
  else set_strides(L, k, op.view);
}

template <class S>
void copy_back(const S& so, const memory_space& space) {
  if (!so.temp) return;
  using V = std::remove_cvref_t<decltype(*so.view.data())>;
  constexpr int R = std::remove_cvref_t<decltype(so.view)>::rank;
  transfer(so.final_dst.space, so.final_dst.view, space, ndview<const V, R>(so.view));
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
