#pragma once
// Step 4's first half, shared by every front door: which target runs the call (the explicit one,
// else where the data lives, else default_target()), where new results live, and the dispatch of
// a run-time target to the target's own type.
#include <optional>
#include <string>
#include <type_traits>

#include "ufx/detail/fail.hpp"
#include "ufx/errors.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// The device memory a call's array operands live in: the first device seen and, when operands
/// sit on two devices, the second.
struct device_set {
  std::optional<memory_space> first, second;
};

/// Notes where an operand lives (a scalar operand lives nowhere).
template <class Op>
void note_space(const Op& op, device_set& seen) {
  if constexpr (requires { op.space; }) {
    if (op.space.is_host()) return;
    if (!seen.first) seen.first = op.space;
    else if (*seen.first != op.space && !seen.second) seen.second = op.space;
  }
}

/// Notes where each operand of a tuple lives.
template <class Tuple>
void note_spaces(const Tuple& ops, device_set& seen) {
  std::apply([&](const auto&... op) { (note_space(op, seen), ...); }, ops);
}

/// Target for a call that names none: where the data lives, else default_target(). Operands on
/// two devices need an explicit target (they are staged to it).
inline target choose_target(const device_set& seen) {
  if (seen.second)
    fail<device_error>("operands live on two devices (" + to_string(*seen.first) + " and " + to_string(*seen.second) +
                       "); copy one of them, or name a target to run on (its operands are staged there)");
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
decltype(auto) with_target(const T* given, const device_set& seen, Fn&& fn) {
  if constexpr (target_tag<T>) return fn(*given);
  else if constexpr (std::is_same_v<T, target>) return given->visit(fn);
  else return choose_target(seen).visit(fn);
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
