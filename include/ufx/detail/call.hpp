#pragma once
// Shared by every front door: split a call's arguments into (target?, operands..., out?), and
// choose where it runs (step 3's first half).
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ufx/detail/adapt.hpp"
#include "ufx/errors.hpp"
#include "ufx/out.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

template <class... A>
struct call_shape {
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
  static constexpr std::size_t last = n - (has_out ? 1 : 0); // one past the last operand
  static constexpr std::size_t operands = last - first;
};

/// The device memory a call's array operands live in: the first device seen and, when operands
/// sit on two devices, the second.
struct device_set {
  std::optional<memory_space> first, second;
  explicit operator bool() const { return first.has_value(); }
};

/// Notes where an operand lives.
inline void note_space(const memory_space& s, device_set& seen, const char* /*who*/) {
  if (s.is_host()) return;
  if (!seen.first) seen.first = s;
  else if (*seen.first != s && !seen.second) seen.second = s;
}

/// Target for the call: the explicit one, else where the data lives, else default_target().
/// Operands on two devices need an explicit target (they are staged to it).
inline target choose_target(const std::optional<target>& explicit_target, const device_set& seen, const char* who) {
  if (explicit_target) return *explicit_target;
  if (seen.second)
    throw device_error(std::string(who) + ": operands live on two devices (" + to_string(*seen.first) + " and " +
                       to_string(*seen.second) + "); copy one of them, or name a target to run on (its operands are "
                       "staged there)");
  if (seen.first) return target_for(*seen.first);
  return default_target();
}

/// Where a call's new results live: on the explicit target's device, else where the data lives
/// (a host target reading device arrays still returns device arrays), else on the host.
template <class T>
memory_space result_space(const T* given, const device_set& seen) {
  if constexpr (any_target<T>) {
    if (given->space().is_device()) return given->space();
  }
  return seen.first.value_or(memory_space::host);
}

/// Calls `fn(tag)` for the call's target: a target type given statically is used as is (only
/// that target is instantiated); a run-time `ufx::target`, or none, is resolved at run time.
template <class T, class Fn>
decltype(auto) with_target(const T* given, const device_set& seen, Fn&& fn, const char* who = "ufx") {
  if constexpr (target_tag<T>) return fn(*given);
  else if constexpr (std::is_same_v<T, target>) return given->visit(fn);
  else return choose_target(std::nullopt, seen, who).visit(fn);
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
