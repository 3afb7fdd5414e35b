#pragma once
// Steps 3 and 4 for elementwise calls: place the operands (place.hpp), build the layout and the
// kernel, run it on the target, copy outputs back.
#include <memory>
#include <tuple>
#include <utility>

#include "ufx/detail/adapt.hpp"
#include "ufx/detail/broadcast.hpp"
#include "ufx/detail/chunk.hpp"
#include "ufx/detail/loop.hpp"
#include "ufx/detail/map_kernel.hpp"
#include "ufx/detail/place.hpp"
#include "ufx/detail/transfer.hpp"
#include "ufx/errors.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <class Tag, class F, class Outs, class Ins, class Staged, std::size_t... A, std::size_t... B>
void elementwise_impl(const Tag& tag, const F& f, const dims& loop, Ins& ins, Staged& staged, std::index_sequence<A...>,
                      std::index_sequence<B...>) {
  constexpr int NOut = sizeof...(A);
  constexpr int N = NOut + sizeof...(B);
  const memory_space space = tag.space();
  (stage_on(std::get<B>(ins), space, stream_of(tag)), ...);

  layout<N> L;
  L.rank = loop.rank;
  for (int d = 0; d < loop.rank; ++d) L.shape[d] = loop[d];
  (set_strides(L, static_cast<int>(A), std::get<A>(staged).view), ...);
  (set_input_strides(L, NOut + static_cast<int>(B), std::get<B>(ins)), ...);
  (resolve_overlap<NOut>(L, NOut + static_cast<int>(B), std::get<B>(ins), staged, std::index_sequence<A...>{}), ...);

  using kernel_t = map_kernel<F, NOut, array_acc<typename std::tuple_element_t<A, Outs>::element_type>...,
                              decltype(make_acc(std::get<B>(ins)))...>;
  const kernel_t kernel{f, detail::make_tuple(array_acc<typename std::tuple_element_t<A, Outs>::element_type>{std::get<A>(staged).view.data()}...,
                                      make_acc(std::get<B>(ins))...)};
  run_on(tag, L, kernel);
  finish_call(tag, ins, std::get<A>(staged)...);
}

/// Runs `f` over `loop` on `tag`, reading `ins` (operands in argument order) and writing `outs`
/// (array operands, in any space). Nothing is written unless every check has passed.
template <class Tag, class F, class Outs, class Ins>
void elementwise(const Tag& tag, const F& f, const dims& loop, Outs& outs, Ins& ins) {
  if (loop.size() == 0) return;
  const memory_space space = tag.space();
  require_space(space);
  // host data larger than the device runs in chunks of rows (chunk.hpp)
  run_chunked(tag, loop, outs, ins, elementwise_leads<Outs, Ins>{}, [&](const Tag& t, const dims& l, auto& o, auto& i) {
    stream_prepare_io(t, o, i);
    auto staged = std::apply([&](auto&... out) { return std::make_tuple(stage_output(out, space, stream_of(t))...); }, o);
    elementwise_impl<Tag, F, Outs>(t, f, l, i, staged, std::make_index_sequence<std::tuple_size_v<Outs>>{},
                                   std::make_index_sequence<std::tuple_size_v<Ins>>{});
  });
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
