#pragma once
// Steps 3 and 4 of elementwise calls: operands placed (place.hpp), the kernel built and run, outputs copied back.
#include <memory>
#include <tuple>
#include <utility>

#include "ufx/detail/step/adapt.hpp"
#include "ufx/detail/backends.hpp"
#include "ufx/detail/core/broadcast.hpp"
#include "ufx/detail/step/chunk.hpp"
#include "ufx/detail/cpu/executor.hpp"
#include "ufx/detail/core/loop.hpp"
#include "ufx/detail/body/map.hpp"
#include "ufx/detail/step/place.hpp"
#include "ufx/detail/step/transfer.hpp"
#include "ufx/errors.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <class Tag, class F, class Outs, class Ins, class Staged, std::size_t... A, std::size_t... B>
void elementwise_impl(const Tag& tag, const F& f, const dims& loop, Ins& ins, Staged& staged, std::index_sequence<A...>,
                      std::index_sequence<B...>) {
  constexpr int NOut = sizeof...(A);
  constexpr int N = NOut + sizeof...(B);
  layout<N> L = layout_of<N>(loop);
  (set_strides(L, static_cast<int>(A), std::get<A>(staged).view), ...);
  (set_input_strides(L, NOut + static_cast<int>(B), std::get<B>(ins)), ...);
  (resolve_overlap(L, NOut + static_cast<int>(B), std::get<B>(ins), staged, std::index_sequence<A...>{}), ...);

  // the target's accessors (acc_for: ufx::sim's tell ufx::profile each access)
  using kernel_t = map_body<F, NOut, acc_for_t<Tag, typename std::tuple_element_t<A, Outs>::element_type>...,
                            decltype(make_acc_for<Tag>(std::get<B>(ins), 0, 0))...>;
  const kernel_t kernel{f,
                        detail::make_tuple(acc_for_t<Tag, typename std::tuple_element_t<A, Outs>::element_type>::of(
                                               std::get<A>(staged).view.data(), static_cast<int>(A), NOut)...,
                                           make_acc_for<Tag>(std::get<B>(ins), NOut + static_cast<int>(B), NOut)...)};
  run_on(tag, L, kernel);
  staging<Tag>(tag).finish(ins, staged);
}

/// True for an array operand in host memory, C-contiguous and of shape `extent` (rank `rank`): what the CPU targets'
/// dense shortcuts (elementwise_dense here, cpu_reduce_dense for reductions) take.
template <class Op>
bool dense_host_operand(const Op& op, int rank, const index_t* extent) {
  if (Op::rank != rank || !op.space.is_host() || !op.view.is_contiguous()) return false;
  for (int d = 0; d < rank; ++d)
    if (op.view.extent(d) != extent[d]) return false;
  return true;
}

/// The dense path of an elementwise call (small calls pay for the general machinery: broadcasting, staging, the overlap
/// resolution, a layout): one destination and every array operand dense in host memory with the destination's shape,
/// each input either apart from the destination or exactly it (in place). Scalars are held by value.
template <class Outs, class Ins>
bool is_dense_call(const Outs& outs, const Ins& ins) {
  if constexpr (std::tuple_size_v<Outs> != 1) return false;
  else {
    const auto& out = std::get<0>(outs);
    using Out = std::remove_cvref_t<decltype(out)>;
    const auto shape = out.view.shape();
    if (!dense_host_operand(out, Out::rank, shape.data())) return false;
    return std::apply(
        [&](const auto&... in) {
          return ([&] {
            using In = std::remove_cvref_t<decltype(in)>;
            if constexpr (is_scalar_operand<In>::value) return true;
            else {
              if (!dense_host_operand(in, Out::rank, shape.data())) return false;
              if (static_cast<const void*>(in.view.data()) == static_cast<const void*>(out.view.data()))
                return sizeof(typename In::value_type) == sizeof(typename Out::value_type); // in place
              return !overlaps(in.view, out.view);
            }
          }() && ...);
        },
        ins);
  }
}

/// Runs a call is_dense_call accepted on a CPU target: one unit-stride row of n elements (ufx::host: in blocks).
template <class Tag, class F, class Outs, class Ins, std::size_t... B>
void elementwise_dense(const Tag& tag, const F& f, Outs& outs, const Ins& ins, std::index_sequence<B...>) {
  auto& out = std::get<0>(outs);
  using OutE = typename std::remove_cvref_t<decltype(out)>::element_type;
  constexpr int N = 1 + static_cast<int>(sizeof...(B));
  using kernel_t = map_body<F, 1, array_acc<OutE>, decltype(make_acc(std::get<B>(ins)))...>;
  const kernel_t k{f, detail::make_tuple(array_acc<OutE>{out.view.data()}, make_acc(std::get<B>(ins))...)};
  const index_t n = out.view.size();
  auto rows = [&](index_t b, index_t e) {
    index_t off[N], str[N];
    for (int j = 0; j < N; ++j) off[j] = b, str[j] = 1;
    k.row(off, str, e - b, true);
  };
  cpu_executor(tag).blocks(n, rows);
}

/// Runs `f` over `loop` on `tag`, reading `ins` (operands in argument order) and writing `outs` (array operands, in any
/// space). Nothing is written unless every check has passed.
template <class Tag, class F, class Outs, class Ins>
void elementwise(const Tag& tag, const F& f, const dims& loop, Outs& outs, Ins& ins) {
  if (loop.size() == 0) return;
  const memory_space space = tag.space();
  require_space(space);
  // host data larger than the device runs in chunks of rows (chunk.hpp)
  run_chunked(tag, loop, outs, ins, elementwise_leads<Outs, Ins>{}, [&](const Tag& t, const dims& l, auto& o, auto& i) {
    auto staged = staging<Tag>(t).place(o, i, overlap_wait::partial);
    elementwise_impl<Tag, F, Outs>(t, f, l, i, staged, std::make_index_sequence<std::tuple_size_v<Outs>>{},
                                   std::make_index_sequence<std::tuple_size_v<Ins>>{});
  });
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
