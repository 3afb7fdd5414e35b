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

/// Space of the array operands already on a device; throws when they disagree.
inline void note_space(memory_space s, std::optional<memory_space>& device, const char* who) {
  if (s == memory_space::host) return;
  if (device && *device != s)
    throw device_error(std::string(who) + ": operands live in different device spaces (" + std::string(name(*device)) +
                       " and " + std::string(name(s)) + "); copy one of them first");
  device = s;
}

/// Target for the call: the explicit one, else where the data lives, else default_target().
inline target choose_target(std::optional<target> explicit_target, std::optional<memory_space> device) {
  if (explicit_target) return *explicit_target;
  if (device) return *device == memory_space::cuda ? target(cuda) : target(sim);
  return default_target();
}

/// Calls `fn(tag)` with the tag object for a run-time target.
template <class Fn>
decltype(auto) dispatch(target t, Fn&& fn) {
  switch (t.kind) {
  case target_kind::serial: return fn(serial);
  case target_kind::host: return fn(host);
  case target_kind::sim: return fn(sim);
  case target_kind::cuda: break;
  }
  return fn(cuda);
}

/// Calls `fn(tag)` for the call's target: a tag given statically is used as is (only that
/// target is instantiated); a run-time `ufx::target`, or none, is resolved at run time.
template <class T, class Fn>
decltype(auto) with_target(const T* given, std::optional<memory_space> device, Fn&& fn) {
  if constexpr (target_tag<T>) return fn(*given);
  else if constexpr (std::is_same_v<T, target>) return dispatch(*given, fn);
  else return dispatch(choose_target(std::nullopt, device), fn);
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
