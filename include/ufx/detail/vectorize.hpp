#pragma once
// The body of ufx::vectorize: the five steps of a call for an elementwise function.
#include <algorithm>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ufx/detail/step/adapt.hpp"
#include "ufx/detail/core/broadcast.hpp"
#include "ufx/detail/step/args.hpp"
#include "ufx/detail/step/run.hpp"
#include "ufx/detail/step/elementwise.hpp"
#include "ufx/detail/step/input_casts.hpp"
#include "ufx/detail/step/result.hpp"
#include "ufx/detail/core/tuple.hpp"
#include "ufx/out.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <class F, class... V>
struct vectorize_result {
  static_assert(std::is_invocable_v<const F&, const V&...>,
                "ufx::vectorize: the function cannot be called with the operands' element types "
                "(check the number of arguments and their types)");
  using type = std::invoke_result_t<const F&, const V&...>;
  static_assert(!std::is_void_v<type>, "ufx::vectorize: the function returns nothing: it must return its result "
                                       "(ufx::out(dst) writes the results into an existing container)");
  using outputs = typename result_tuple<type>::types;
  static constexpr std::size_t nout = std::tuple_size_v<outputs>;
};

template <class OutT, class Outputs, std::size_t... J>
constexpr bool out_types_ok(std::index_sequence<J...>) {
  return (same_kind_castable<std::tuple_element_t<J, Outputs>,
                             typename decltype(adapt_out(std::get<J>(std::declval<OutT&>().dst)))::value_type>() &&
          ...);
}

/// Step 2 with outputs: loop shape = broadcast of all operands; outputs must equal it.
template <class Ins, class Outs>
dims loop_shape(const Ins& ins, const Outs* outs) {
  constexpr std::size_t NIn = std::tuple_size_v<Ins>;
  dims shapes[NIn + std::tuple_size_v<Outs> + 1];
  std::size_t n = 0;
  operand_shapes(ins, shapes, n);
  if (!outs) return broadcast(std::span<const dims>(shapes, n));
  operand_shapes(*outs, shapes, n);
  const dims loop = broadcast(std::span<const dims>(shapes, n));
  for (std::size_t j = NIn; j < n; ++j) check_output_shape(shapes[j], loop, static_cast<int>(j - NIn));
  return loop;
}

/// Step 3 on the chosen target: `dense` calls (is_dense_call) take the dense path on CPU targets. Returns `auto`, as
/// with_target_for does, so nvcc instantiates it where called and a static_assert inside names the user's line.
template <class F, class TargetT, class Devices, class Outs, class Ins>
auto run_elementwise(const F& f, const TargetT* given, const Devices& device, Outs& outs, Ins& ins, const dims& loop,
                     bool dense) {
  return with_target_for<F>(given, device, [&](auto tag) {
    if constexpr (!decltype(tag)::is_device && std::tuple_size_v<Outs> == 1)
      if (dense) return elementwise_dense(tag, f, outs, ins, std::make_index_sequence<std::tuple_size_v<Ins>>{});
    elementwise(tag, f, loop, outs, ins);
  });
}

template <class F, class OutT, class TargetT, class Rule, class... Args>
UFX_CALL_BOUNDARY auto vectorize_run(const F& f, const TargetT* given, OutT* out, const Args&... args) {
  // an element that does not convert to its parameter: input_cast's message, and nothing more from the call below
  if constexpr (inputs_cast_ok<F, Rule, decltype(adapt_in(args))...>()) {
    const call_scope scope("ufx::vectorize");
    auto ins = std::make_tuple(adapt_in(args)...);
    using info = vectorize_result<F, typename decltype(adapt_in(args))::value_type...>;
    constexpr int R = std::max({0, decltype(adapt_in(args))::rank...});

    device_set_of<reaches_device<OutT, Args...>> device;
    note_spaces(ins, device);

    if constexpr (!std::is_void_v<OutT>) {
      constexpr std::size_t n_dst = std::tuple_size_v<decltype(out->dst)>;
      static_assert(n_dst == info::nout, "ufx::out: the number of destinations differs from the number of outputs the "
                                         "function returns");
      static_assert(out_types_ok<OutT, typename info::outputs>(std::make_index_sequence<n_dst>{}),
                    "ufx::out: a destination's element type cannot hold the function's result without changing kind "
                    "(NumPy's same_kind rule: e.g. a float result into an integer destination)");
      auto outs = std::apply([](auto&... d) { return std::make_tuple(adapt_out(d)...); }, out->dst);
      if (is_dense_call(outs, ins)) { // operands of one shape, dense, host: no broadcasting to do
        note_spaces(outs, device);
        return run_elementwise(f, given, device, outs, ins, dims(std::get<0>(outs).view.shape()), true);
      }
      const dims loop = loop_shape(ins, &outs);
      note_spaces(outs, device);
      run_elementwise(f, given, device, outs, ins, loop, false);
    } else {
      const dims loop = loop_shape(ins, static_cast<const std::tuple<>*>(nullptr));
      const memory_space where = result_space(given, device);
      auto results = with_indices<info::nout>([&]<std::size_t... J>(std::index_sequence<J...>) {
        return std::make_tuple(
            result_rule<std::tuple_element_t<J, typename info::outputs>, R, Args...>::make(loop, where)...);
      });
      auto outs = std::apply(
          [](auto&... r) {
            return std::make_tuple([](auto& x) {
              using X = std::remove_cvref_t<decltype(x)>;
              if constexpr (scalar_like<X>) return array_operand<X, 0>{ndview<X, 0>(&x, {}), memory_space::host, {}};
              else return adapter<X>::out(x);
            }(r)...);
          },
          results);
      run_elementwise(f, given, device, outs, ins, loop, is_dense_call(outs, ins));
      if constexpr (info::nout == 1) return std::move(std::get<0>(results));
      else return results;
    }
  }
}

/// `k(args...)`: splits the arguments (args.hpp) and runs the call.
template <class F, class... A>
decltype(auto) vectorize_call(const F& f, const A&... a) {
  return with_call_args<true>(
      [&]<int NA, bool Keep, class Rule>(auto tp, auto outp, const int*, const auto&... pos) -> decltype(auto) {
        static_assert(NA == 0 && !Keep, "ufx::vectorize: ufx::axis and ufx::keepdims belong to reductions; an "
                                        "elementwise call takes operands, a target first and ufx::out(...) last");
        static_assert(sizeof...(pos) > 0, "ufx::vectorize: call the kernel with at least one operand");
        using TargetT = std::remove_cvref_t<std::remove_pointer_t<decltype(tp)>>;
        using OutT = std::remove_cvref_t<std::remove_pointer_t<decltype(outp)>>;
        return vectorize_run<F, OutT, TargetT, Rule>(f, tp, const_cast<OutT*>(outp), pos...);
      },
      a...);
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
