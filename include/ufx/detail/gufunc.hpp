#pragma once
// The body of ufx::guvectorize: the five steps of a call for a function of core blocks.
//   1. adapt   each argument (detail/step/adapt.hpp);
//   2. shape   bind core dimensions, broadcast loop dimensions (detail/step/gufunc_shape.hpp);
//   3. place   pick the target (detail/step/run.hpp), stage operands into its memory (step/place.hpp, transfer.hpp);
//   4. run     the gufunc kernel over the loop dimensions (detail/body/gufunc.hpp, backend/*/gufunc.hpp);
//   5. return  the outputs in the container result_rule picks (detail/step/result.hpp), or into `out`.
#include <algorithm>
#include <memory>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/core/tuple.hpp"
#include "ufx/detail/step/adapt.hpp"
#include "ufx/detail/core/broadcast.hpp"
#include "ufx/detail/step/args.hpp"
#include "ufx/detail/step/run.hpp"
#include "ufx/detail/step/chunk.hpp"
#include "ufx/detail/step/elementwise.hpp"
#include "ufx/detail/step/place.hpp"
#include "ufx/detail/body/gufunc.hpp"
#include "ufx/detail/step/gufunc_shape.hpp"
#include "ufx/detail/core/gufunc_types.hpp"
#include "ufx/detail/step/input_casts.hpp"
#include "ufx/detail/core/loop.hpp"
#include "ufx/detail/step/result.hpp"
#include "ufx/detail/backends.hpp"
#include "ufx/detail/step/transfer.hpp"
#include "ufx/out.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

// ---- step 3: staging helpers particular to gufuncs

/// Operand k's loop strides (first R - c dimensions, right-aligned) and core strides (last c) into L and the kernel.
/// Returns whether its last c dimensions (its cores) are dense and row-major.
template <int CoreRank, int N, class View, class Kernel>
bool gufunc_set_strides(layout<N>& L, Kernel& kernel, int k, const View& v) {
  constexpr int R = View::rank, core_rank = CoreRank;
  constexpr int lr = R - core_rank;
  for (int d = 0; d < L.rank; ++d) L.stride[k][d] = 0;
  if constexpr (lr < 0) return false; // the shape step has thrown
  else {
    for (int j = 0; j < lr; ++j) L.stride[k][L.rank - lr + j] = v.extent(j) == 1 ? 0 : v.stride(j);
    for (int j = 0; j < core_rank; ++j) kernel.core_stride[k][j] = v.stride(lr + j);
    index_t s = 1;
    for (int j = R - 1; j >= lr; --j) {
      if (v.extent(j) != 1 && v.stride(j) != s) return false;
      s *= v.extent(j);
    }
    return true;
  }
}

template <class Sig, class Tag, class F, class Outs, class Ins, class Staged, std::size_t... A, std::size_t... B>
void gufunc_exec_impl(const Tag& tag, const F& f, const gufunc_shape& g, Ins& ins, Staged& staged,
                      std::index_sequence<A...>, std::index_sequence<B...>) {
  constexpr int NOut = sizeof...(A);
  constexpr int NIn = sizeof...(B);
  constexpr int N = NOut + NIn;
  // the target's accessors (acc_for: ufx::sim's tell ufx::profile the staged body's copies)
  using kernel_t = gufunc_body<Sig, F, NOut, acc_for_t<Tag, typename std::tuple_element_t<A, Outs>::element_type>...,
                               decltype(make_acc_for<Tag>(std::get<B>(ins), 0, 0))...>;
  kernel_t kernel{f, detail::make_tuple(acc_for_t<Tag, typename std::tuple_element_t<A, Outs>::element_type>::of(
                                            std::get<A>(staged).view.data(), static_cast<int>(A), NOut)...,
                                        make_acc_for<Tag>(std::get<B>(ins), NOut + static_cast<int>(B), NOut)...)};
  for (int d = 0; d < Sig::ndims; ++d) kernel.dim_size[d] = g.dim_size[d];

  layout<N> L = layout_of<N>(g.loop);
  bool dense = true;
  // each array operand's strides, and whether every one's cores are dense
  ((dense &= gufunc_set_strides<Sig::core_rank(NIn + static_cast<int>(A))>(L, kernel, static_cast<int>(A),
                                                                           std::get<A>(staged).view)),
   ...);
  (
      [&] {
        using Op = std::remove_cvref_t<decltype(std::get<B>(ins))>;
        constexpr int k = NOut + static_cast<int>(B);
        if constexpr (is_scalar_operand<Op>::value) L.scalar_mask |= 1u << k; // strides 0, as layout_of left them
        else dense &= gufunc_set_strides<Sig::core_rank(static_cast<int>(B))>(L, kernel, k, std::get<B>(ins).view);
      }(),
      ...);

  simplify(L);
  gufunc_hook<std::remove_cvref_t<decltype(tag)>>::run(tag, L, kernel, dense, g.work);
  staging<Tag>(tag).finish(ins, staged);
}

/// The loop dimensions of each operand of a gufunc call (outputs first): its rank less its core rank.
template <class Sig, class Outs, class Ins>
struct gufunc_leads;
template <class Sig, class... O, class... I>
struct gufunc_leads<Sig, std::tuple<O...>, std::tuple<I...>> {
  int operator()(int k) const {
    constexpr int nout = sizeof...(O);
    constexpr int rank[] = {std::remove_cvref_t<O>::rank..., std::remove_cvref_t<I>::rank..., 0};
    return rank[k] - (k < nout ? Sig::core_rank(Sig::nin + k) : Sig::core_rank(k - nout));
  }
};

/// Steps 3 and 4: runs `f` over the loop on `tag`, reading `ins` and writing `outs` (array operands in any space).
/// Nothing is written unless every check has passed.
template <class Sig, class Tag, class F, class Outs, class Ins>
void gufunc_exec(const Tag& tag, const F& f, const gufunc_shape& g, Outs& outs, Ins& ins) {
  if (g.loop.size() == 0) return; // zero-size loop dimensions: fn is never called
  const memory_space space = tag.space();
  require_space(space);
  // host data larger than the device runs in chunks of the outermost loop dimension, each core whole
  run_chunked(
      tag, g.loop, outs, ins, gufunc_leads<Sig, Outs, Ins>{}, [&](const Tag& t, const dims& l, auto& o, auto& i) {
        gufunc_shape sub = g;
        sub.loop = l;
        // a core function may read any input element after writing its output core: any overlap reads from a copy
        auto staged = staging<Tag>(t).place_apart(o, i, overlap_wait::partial);
        gufunc_exec_impl<Sig, Tag, F, Outs>(t, f, sub, i, staged, std::make_index_sequence<std::tuple_size_v<Outs>>{},
                                            std::make_index_sequence<std::tuple_size_v<Ins>>{});
      });
}

// ---- step 5: result containers

/// The container of a result of element type T and rank R: result_rule's, except that a rank-0 result off the device is
/// a plain T (as NumPy returns a scalar) and a result of rank > 0 from scalar operands only is an ndarray.
template <class T, int R, class... Args>
struct gufunc_result {
  using rule = result_rule<T, R, Args...>;
  static constexpr bool scalar = R == 0 && !rule::any_device;
  using type = std::conditional_t<scalar, T, std::conditional_t<rule::arrays == 0, ndarray<T, R>, typename rule::type>>;

  static type make(const std::array<index_t, R>& shape, const memory_space& space) {
    if constexpr (scalar) return T{};
    else if constexpr (rule::arrays == 0) return ndarray<T, R>(shape);
    else return rule::make(dims(shape), space);
  }
};

template <class X>
auto result_operand(X& x) {
  if constexpr (scalar_like<X>) return array_operand<X, 0>{ndview<X, 0>(&x, {}), memory_space::host, {}};
  else return adapter<X>::out(x);
}

// ---- the call

/// Everything about a call that is known from the types: element types, ranks, the checks. Instantiated only when the
/// call passes as many inputs as the signature has.
template <class Sig, class F, class OutT, class... Args>
struct gufunc_call_info {
  static constexpr int NIn = Sig::nin;
  static constexpr int NOut = Sig::nout;
  template <int S>
  using in_value =
      typename decltype(adapt_in(std::declval<const std::tuple_element_t<S, std::tuple<Args...>>&>()))::value_type;

  static constexpr bool has_out = !std::is_void_v<OutT>;
  static constexpr int destinations = [] {
    if constexpr (has_out) return static_cast<int>(std::tuple_size_v<decltype(std::declval<OutT&>().dst)>);
    else return NOut;
  }();
  template <int J>
  static auto dst_type() {
    if constexpr (has_out)
      return std::type_identity<typename decltype(adapt_out(std::get<J>(std::declval<OutT&>().dst)))::value_type>{};
    else return std::type_identity<void>{};
  }
  template <int J>
  static auto out_type() {
    if constexpr (has_out && !fn_params<F>::known) return dst_type<J>();
    else
      return std::type_identity<typename gufunc_out_type<
          Sig, F, J, typename decltype(adapt_in(std::declval<const Args&>()))::value_type...>::type>{};
  }
  template <int J>
  using out_value = typename decltype(out_type<J>())::type;

  /// Loop rank of the call without `out`: the longest loop part of any input.
  static constexpr int loop_rank() {
    int r = 0, s = 0;
    ((r = std::max(r, decltype(adapt_in(std::declval<const Args&>()))::rank - Sig::core_rank(s++))), ...);
    return r;
  }

  static constexpr bool invocable() {
    return []<std::size_t... I, std::size_t... J>(std::index_sequence<I...>, std::index_sequence<J...>) {
      return std::is_invocable_v<const F&, gufunc_in_arg<Sig, static_cast<int>(I), in_value<static_cast<int>(I)>>...,
                                 gufunc_out_arg<Sig, NIn + static_cast<int>(J), out_value<static_cast<int>(J)>>...>;
    }
    (std::make_index_sequence<NIn>{}, std::make_index_sequence<NOut>{});
  }

  static constexpr bool out_types_same() {
    if constexpr (!has_out) return true;
    else
      return with_indices<NOut>([]<std::size_t... J>(std::index_sequence<J...>) {
        return (
            std::is_same_v<typename decltype(dst_type<static_cast<int>(J)>())::type, out_value<static_cast<int>(J)>> &&
            ...);
      });
  }

  /// Runs the checks in order, stopping at the first failure so one mistake gives one error.
  static constexpr bool check() {
    constexpr bool count_ok = out_count_check<Sig::literal, destinations, NOut>::ok;
    if constexpr (!count_ok) return false;
    else {
      constexpr bool call_ok = invocable_check<Sig::literal, invocable()>::ok;
      if constexpr (!call_ok) return false;
      else return out_type_check<Sig::literal, out_types_same()>::ok;
    }
  }
};

/// A gufunc's inputs for inputs_cast_ok: the '()' ones, into fn's value parameters (core inputs are views of the
/// arrays' own element type: nothing is converted); fn's output parameters follow.
template <class Sig>
struct gufunc_cast_inputs {
  static constexpr int extra_params = Sig::nout;
  static constexpr bool skip(int k) { return Sig::core_rank(k) != 0; }
};

template <class Sig, class F, class OutT, class TargetT, class Rule, class... Args>
UFX_CALL_BOUNDARY auto gufunc_run(const F& f, const TargetT* given, OutT* out, const Args&... args) {
  constexpr int NIn = Sig::nin, NOut = Sig::nout;
  if constexpr (!input_count_check<Sig::literal, sizeof...(Args), NIn>::ok) return;
  else if constexpr (!gufunc_call_info<Sig, F, OutT, Args...>::check()) return;
  else if constexpr (!inputs_cast_ok<F, Rule, decltype(adapt_in(args))...>(gufunc_cast_inputs<Sig>{})) return;
  else {
    const call_scope scope("ufx::guvectorize");
    using info = gufunc_call_info<Sig, F, OutT, Args...>;
    auto ins = std::make_tuple(adapt_in(args)...);

    device_set_of<reaches_device<OutT, Args...>> device;
    note_spaces(ins, device);

    dims shapes[NIn + NOut];
    std::size_t n_shapes = 0;
    operand_shapes(ins, shapes, n_shapes);

    if constexpr (info::has_out) {
      auto outs = std::apply([](auto&... d) { return std::make_tuple(adapt_out(d)...); }, out->dst);
      operand_shapes(outs, shapes, n_shapes);
      const gufunc_shape g = bind_gufunc_shape<Sig>(std::span<const dims>(shapes, NIn + NOut), true);
      note_spaces(outs, device);
      with_target_for<F>(given, device, [&](auto tag) { gufunc_exec<Sig>(tag, f, g, outs, ins); });
    } else {
      const gufunc_shape g = bind_gufunc_shape<Sig>(std::span<const dims>(shapes, NIn), false);
      const memory_space where = result_space(given, device);
      auto results = with_indices<NOut>([&]<std::size_t... J>(std::index_sequence<J...>) {
        return std::make_tuple([&] {
          constexpr int S = NIn + static_cast<int>(J);
          constexpr int R = info::loop_rank() + Sig::core_rank(S);
          using rt = gufunc_result<typename info::template out_value<static_cast<int>(J)>, R, Args...>;
          return rt::make(gufunc_output_shape<Sig, R>(g, S), where);
        }()...);
      });
      auto outs = std::apply([](auto&... r) { return std::make_tuple(result_operand(r)...); }, results);
      with_target_for<F>(given, device, [&](auto tag) { gufunc_exec<Sig>(tag, f, g, outs, ins); });
      if constexpr (NOut == 1) return std::move(std::get<0>(results));
      else return results;
    }
  }
}

/// Splits a call's arguments (args.hpp) and runs it.
template <class Sig, class F, class... A>
decltype(auto) gufunc_call(const F& f, const A&... a) {
  return with_call_args<true>(
      [&]<int NA, bool Keep, class Rule>(auto tp, auto outp, const int*, const auto&... pos) -> decltype(auto) {
        static_assert(NA == 0 && !Keep, "ufx::guvectorize: ufx::axis and ufx::keepdims belong to reductions; a gufunc "
                                        "call takes operands, a target first and ufx::out(...) last");
        using TargetT = std::remove_cvref_t<std::remove_pointer_t<decltype(tp)>>;
        using OutT = std::remove_cvref_t<std::remove_pointer_t<decltype(outp)>>;
        return gufunc_run<Sig, F, OutT, TargetT, Rule>(f, tp, const_cast<OutT*>(outp), pos...);
      },
      a...);
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
