#pragma once
// Steps 3 and 4 for elementwise calls: stage operands into the target's memory space, resolve
// overlap between outputs and inputs, run the kernel on the target, and copy outputs back.
#include <memory>
#include <tuple>
#include <utility>

#include "ufx/detail/adapt.hpp"
#include "ufx/detail/broadcast.hpp"
#include "ufx/detail/loop.hpp"
#include "ufx/detail/map_kernel.hpp"
#include "ufx/detail/transfer.hpp"
#include "ufx/errors.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

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
    const memory_space space = op.space;
    auto buf = std::make_shared<buffer<typename Op::value_type>>(space, op.view.size());
    ndview<typename Op::value_type, Op::rank> dst(buf->data(), op.view.shape());
    copy_within(space, dst, op.view);
    op.view = dst;
    op.keep = std::move(buf);
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

template <class Tag, class F, class Outs, class Ins, class Staged, std::size_t... A, std::size_t... B>
void elementwise_impl(const Tag& tag, const F& f, const dims& loop, Ins& ins, Staged& staged, std::index_sequence<A...>,
                      std::index_sequence<B...>) {
  constexpr int NOut = sizeof...(A);
  constexpr int N = NOut + sizeof...(B);
  const memory_space space = tag.space();
  (stage_input(std::get<B>(ins), space), ...);

  layout<N> L;
  L.rank = loop.rank;
  for (int d = 0; d < loop.rank; ++d) L.shape[d] = loop[d];
  (set_strides(L, static_cast<int>(A), std::get<A>(staged).view), ...);
  (set_input_strides(L, NOut + static_cast<int>(B), std::get<B>(ins)), ...);
  (resolve_overlap<NOut>(L, NOut + static_cast<int>(B), std::get<B>(ins), staged, std::index_sequence<A...>{}), ...);

  using kernel_t = map_kernel<F, NOut, array_acc<typename std::tuple_element_t<A, Outs>::element_type>...,
                              decltype(make_acc(std::get<B>(ins)))...>;
  const kernel_t kernel{f, make_tuple(array_acc<typename std::tuple_element_t<A, Outs>::element_type>{std::get<A>(staged).view.data()}...,
                                      make_acc(std::get<B>(ins))...)};
  run_on(tag, L, kernel);
  (copy_back(std::get<A>(staged), space), ...);
}

/// Runs `f` over `loop` on `tag`, reading `ins` (operands in argument order) and writing `outs`
/// (array operands, in any space). Nothing is written unless every check has passed.
template <class Tag, class F, class Outs, class Ins>
void elementwise(const Tag& tag, const F& f, const dims& loop, Outs& outs, Ins& ins) {
  if (loop.size() == 0) return;
  const memory_space space = tag.space();
  require_space(space);
  auto staged = std::apply([&](auto&... o) { return std::make_tuple(stage_output(o, space)...); }, outs);
  elementwise_impl<Tag, F, Outs>(tag, f, loop, ins, staged, std::make_index_sequence<std::tuple_size_v<Outs>>{},
                                 std::make_index_sequence<std::tuple_size_v<Ins>>{});
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
