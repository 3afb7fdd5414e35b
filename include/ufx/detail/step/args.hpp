#pragma once
// Step 0 of every call, shared by every front door: split the arguments into (target?, positional..., ufx::axis?,
// ufx::keepdims?, ufx::casting::...?, ufx::out(...)?). The options may come in any order, each at most once; a front
// door that takes none rejects them at compile time.
#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ufx/detail/core/tuple.hpp"
#include "ufx/axis.hpp"
#include "ufx/casting.hpp"
#include "ufx/out.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {

/// Absent identity / init.
struct no_value {};

UFX_TU_NAMESPACE_BEGIN

/// The (target?, positional..., options..., out?) split of a call's argument types, the trailing axis / keepdims /
/// casting options taken off the positional arguments.
template <class... A>
struct call_args {
  static constexpr std::size_t n = sizeof...(A);
  template <std::size_t I>
  using arg = std::remove_cvref_t<std::tuple_element_t<I, std::tuple<A...>>>;
  static constexpr bool has_target = [] {
    if constexpr (n == 0) return false;
    else return any_target<arg<0>>;
  }();
  static constexpr bool has_out = [] {
    if constexpr (n == 0) return false;
    else return is_out<arg<n - 1>>::value;
  }();
  static constexpr std::size_t first = has_target ? 1 : 0;
  static constexpr std::size_t opt_end = n - (has_out ? 1 : 0); // one past the options

  template <std::size_t I>
  static constexpr bool is_option() {
    if constexpr (I >= opt_end || I < first) return false;
    else return is_axis_v<arg<I>> || is_keepdims_v<arg<I>> || is_casting_v<arg<I>>;
  }
  template <std::size_t K>
  static constexpr std::size_t trailing_options() {
    if constexpr (K < 3 && opt_end - first > K && is_option<opt_end - 1 - K>()) return trailing_options<K + 1>();
    else return K;
  }
  static constexpr std::size_t options = trailing_options<0>();
  static constexpr std::size_t last = opt_end - options; // one past the last positional argument
  static constexpr std::size_t positional = last - first;

  /// The options' counts: axes named, ufx::keepdims, ufx::axis options, casting rules.
  template <std::size_t... I>
  static constexpr std::array<int, 4> counts(std::index_sequence<I...>) {
    return {(0 + ... + axis_count<arg<last + I>>::value), (0 + ... + int{is_keepdims_v<arg<last + I>>}),
            (0 + ... + int{is_axis_v<arg<last + I>>}), (0 + ... + int{is_casting_v<arg<last + I>>})};
  }
  static constexpr std::array<int, 4> option_count = counts(std::make_index_sequence<options>{});
  /// The casting rule the call names (ufx::casting::safe when it names none).
  template <std::size_t I>
  static auto casting_rule() {
    if constexpr (I == options) return casting::safe_t{};
    else if constexpr (is_casting_v<arg<last + I>>) return arg<last + I>{};
    else return casting_rule<I + 1>();
  }
  static constexpr int n_axes = option_count[0];
  static constexpr bool keep = option_count[1] > 0;
  static_assert(option_count[1] <= 1, "ufx: ufx::keepdims given twice");
  static_assert(option_count[2] <= 1, "ufx: give all axes in one ufx::axis{...}, e.g. ufx::axis{0, 2}");
  static_assert(option_count[3] <= 1, "ufx: one casting rule a call");
  static constexpr bool has_casting = option_count[3] == 1;
  using rule = decltype(casting_rule<0>());

  /// The axes as ints (n_axes of them; none when the call names no axis).
  template <class Tuple>
  static void axes(const Tuple& t, int* out) {
    with_indices<options>([&]<std::size_t... I>(std::index_sequence<I...>) {
      (
          [&] {
            if constexpr (is_axis_v<arg<last + I>>)
              for (int k = 0; k < axis_count<arg<last + I>>::value; ++k) out[k] = std::get<last + I>(t).v[k];
          }(),
          ...);
    });
  }

  template <class Tuple>
  static auto target_ptr(const Tuple& t) {
    if constexpr (has_target) return &std::get<0>(t);
    else return static_cast<const void*>(nullptr);
  }
  template <class Tuple>
  static auto out_ptr(const Tuple& t) {
    if constexpr (has_out) return &std::get<n - 1>(t);
    else return static_cast<const void*>(nullptr);
  }
};

/// Splits `a...` (target?, positional..., axis?, keepdims?, casting?, out?) and calls `body.template operator()<NA,
/// Keep>(target_ptr, out_ptr, axes, positional...)`, or, for a front door that converts its operands' elements
/// (TakesCasting), `body.template operator()<NA, Keep, Rule>(...)` with the casting rule the call names.
template <bool TakesCasting = false, class Body, class... A>
decltype(auto) with_call_args(const Body& body, const A&... a) {
  using S = call_args<A...>;
  auto t = std::forward_as_tuple(a...);
  int axes[S::n_axes > 0 ? S::n_axes : 1] = {};
  S::axes(t, axes);
  auto* tp = S::target_ptr(t);
  auto* op = S::out_ptr(t);
  return with_indices<S::positional>([&]<std::size_t... I>(std::index_sequence<I...>)->decltype(auto) {
    if constexpr (TakesCasting)
      return body.template operator()<S::n_axes, S::keep, typename S::rule>(tp, op, static_cast<const int*>(axes),
                                                                            std::get<S::first + I>(t)...);
    else {
      static_assert(!S::has_casting, "ufx: this call converts no elements and takes no ufx::casting rule");
      return body.template operator()<S::n_axes, S::keep>(tp, op, static_cast<const int*>(axes),
                                                          std::get<S::first + I>(t)...);
    }
  });
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
