#pragma once
// Step 4's first half, shared by every front door: which target runs the call (the explicit one, else where the data
// lives, else default_target()), where new results live, and a run-time target's dispatch to its own type.
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>

#include "ufx/detail/core/fail.hpp"
#include "ufx/detail/lib/runtime.hpp"
#include "ufx/errors.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// Where a call's array operands live: the first device seen and, on two devices, the second. `Device` is false when
/// the call's argument types hold host memory only (adapt.hpp's host_only_arg, from the adapters' host_dense): such a
/// call naming no target runs on default_target(), whose path alone is compiled (issue #29).
template <bool Device = true>
struct device_set_of {
  std::optional<memory_space> first, second;
};

template <class Op, bool D>
void note_space(const Op& op, device_set_of<D>& seen) {
  if constexpr (requires { op.space; }) {
    if (op.space.is_host()) return;
    if (!seen.first) seen.first = op.space;
    else if (*seen.first != op.space && !seen.second) seen.second = op.space;
  }
}

template <class Tuple, bool D>
void note_spaces(const Tuple& ops, device_set_of<D>& seen) {
  std::apply([&](const auto&... op) { (note_space(op, seen), ...); }, ops);
}

/// Target for a call naming none: where the data lives, else default_target(); data on two devices needs a named one.
template <bool D>
target choose_target(const device_set_of<D>& seen) {
  if (seen.second)
    fail<device_error>("operands live on two devices (" + to_string(*seen.first) + " and " + to_string(*seen.second) +
                       "); copy one of them, or name a target to run on (its operands are staged there)");
  if (seen.first) return target_for(*seen.first);
  return default_target();
}

/// Where a call's new results live: on the explicit target's device, else where the data lives (a host target reading
/// device arrays still returns device arrays), else on the host.
template <class T, bool D>
memory_space result_space(const T* given, const device_set_of<D>& seen) {
  if constexpr (any_target<T>) {
    if (given->space().is_device()) return given->space();
  }
  return seen.first.value_or(memory_space::host);
}

/// The compiler's spelling of T, inside its spelling of this function.
template <class T>
constexpr std::string_view spelled_type() {
  return __PRETTY_FUNCTION__;
}

/// True when F, in a translation unit compiled by nvcc, is a lambda without `UFX_HD` (`__host__ __device__`), which
/// ufx::cuda cannot call (a wrapper of ufx's naming the users' functions it holds as `user_functions`, a std::tuple:
/// when one of them is). nvcc's traits recognise the annotated ("extended") lambdas; that F is a lambda at all is read
/// from the name the compiler gives its type (g++ "<lambda(", nvcc's front end "lambda [", clang "(lambda at"): C++ has
/// no trait for closure types. A `[] UFX_HD` lambda at namespace or class scope is one too: nvcc drops the annotation
/// there silently (an extended lambda must be defined inside a function) and spells both `lambda [](float)->float`, so
/// the messages name both causes. A functor whose operator() lacks UFX_HD is left to nvcc's error at UFX_USER_CALL.
template <class F>
constexpr bool host_only_lambda() {
#if UFX_CUDA_TU
  using G = std::remove_cvref_t<F>;
  if constexpr (requires { typename G::user_functions; }) // ufx's own wrapper of users' functions
    return []<class... U>(std::tuple<U...>*) {
      return (host_only_lambda<U>() || ...);
    }(static_cast<typename G::user_functions*>(nullptr));
  else if constexpr (__nv_is_extended_host_device_lambda_closure_type(G) ||
                     __nv_is_extended_device_lambda_closure_type(G))
    return false;
  else {
    constexpr std::string_view n = spelled_type<G>();
    return n.find("<lambda(") != n.npos || n.find("lambda [") != n.npos || n.find("(lambda at") != n.npos;
  }
#else
  return false;
#endif
}

template <class... F>
inline constexpr bool any_host_only_lambda = (host_only_lambda<F>() || ...);

/// True for a target whose calls run the user's function as device code (ufx::cuda).
template <class T>
inline constexpr bool runs_device_code = requires {
  requires std::remove_cvref_t<T>::runs_device_code;
};

[[noreturn]] inline void fail_host_only_lambda() {
  fail<device_error>("the function is a lambda without UFX_HD, which ufx::cuda cannot call: write it "
                     "[] UFX_HD (...) { ... } (nvcc's __host__ __device__) inside a function, or run the call on a "
                     "host target. A lambda at namespace scope has no UFX_HD even when written with it (nvcc drops "
                     "it there: an extended lambda must be defined inside a function): define it inside the "
                     "function that uses it, or write a functor whose operator() is UFX_HD");
}

/// Whether this translation unit can run calls on target type T: one whose calls run device code (runs_device_code:
/// ufx::cuda) needs nvcc. A call that reaches it elsewhere throws (not_launchable) before anything is staged, and its
/// path for that target is not compiled; device-side copies go through the host instead (transfer.hpp).
template <class T>
inline constexpr bool launches_here = UFX_CUDA_TU || !runs_device_code<T>;

/// For a target this translation unit cannot run (launches_here): the device must exist, then the error says use nvcc.
template <class T>
[[noreturn]] void not_launchable(const T& t) {
  require_space(t.space());
  fail<device_error>(std::string(t.name()) +
                     ": this call was compiled by a host compiler; compile its translation unit with nvcc (CMake "
                     "language CUDA, --extended-lambda) to run kernels on " +
                     std::string(t.name()));
}

template <class Tag, class Fn>
void run_here(const Tag& tag, Fn& fn) {
  if constexpr (!launches_here<Tag>) not_launchable(tag);
  else if constexpr (Tag::is_device) {
    // the calling thread's current device, asked once (ufx::cuda: cudaGetDevice), not at every step's tag.space()
    if (tag.bound_device < 0) fn(tag.device(tag.ordinal()));
    else fn(tag);
  } else fn(tag);
}

/// True for the target types a call naming none can run on: default_target()'s and, when its arguments' types can hold
/// device memory, the device targets (ufx::serial is reached only by naming it).
template <bool Device, class T>
inline constexpr bool chosen_without_target = is_default_target_type<std::remove_cvref_t<T>> ||
                                              (Device && std::remove_cvref_t<T>::is_device);

[[noreturn]] inline void fail_unreachable_target(std::string_view name) {
  fail<device_error>("internal error: a call chose " + std::string(name) +
                     ", which the types of its arguments cannot reach; please report it");
}

/// Visits `t` with `fn` (returning void). When one of the functions F is a host-only lambda (see host_only_lambda),
/// ufx::cuda is not instantiated: that alternative throws device_error naming UFX_HD.
template <class... F, class Fn>
void visit_for(const target& t, Fn&& fn) {
  t.visit([&](const auto& tag) {
    if constexpr (any_host_only_lambda<F...> && runs_device_code<decltype(tag)>) fail_host_only_lambda();
    else run_here(tag, fn);
  });
}

/// Calls `fn(tag)` (returning void) with the call's target as its own type: the explicit one (a target type: only that
/// target is instantiated; a run-time `ufx::target`: every target), else where the data lives, else default_target()
/// (only the targets chosen_without_target allows). A host-only lambda (host_only_lambda) never reaches ufx::cuda:
/// named statically, a compile error that says to mark it UFX_HD; a run-time ufx::target holding ufx::cuda, or operands
/// on a CUDA device, throw device_error saying so; and a call that names no target runs on the host where it would have
/// run on ufx::cuda (the default target of an nvcc-compiled translation unit).
template <class... F, class T, bool Device, class Fn>
auto with_target_for(const T* given, const device_set_of<Device>& seen, Fn&& fn) {
  constexpr bool host_only = any_host_only_lambda<F...>;
  if constexpr (host_only && runs_device_code<T>)
    static_assert(!runs_device_code<T>,
                  "ufx::cuda cannot call a lambda without UFX_HD: write it [] UFX_HD (...) { ... } "
                  "(nvcc's __host__ __device__; ufx::ufx compiles .cu files with --extended-lambda), "
                  "or run the call on a host target. A lambda at namespace scope has no UFX_HD even "
                  "when written with it (nvcc drops it there: an extended lambda must be defined "
                  "inside a function): define it inside the function that uses it, or write a "
                  "functor whose operator() is UFX_HD");
  else if constexpr (target_tag<T>) run_here(*given, fn);
  else if constexpr (std::is_same_v<T, target>) visit_for<F...>(*given, fn);
  else {
    target chosen = choose_target(seen);
    if constexpr (host_only)
      if (!seen.first && chosen.visit([](const auto& t) { return runs_device_code<decltype(t)>; })) chosen = host;
    chosen.visit([&](const auto& tag) {
      if constexpr (!chosen_without_target<Device, decltype(tag)>) fail_unreachable_target(tag.name());
      else if constexpr (host_only && runs_device_code<decltype(tag)>) fail_host_only_lambda();
      else run_here(tag, fn);
    });
  }
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
