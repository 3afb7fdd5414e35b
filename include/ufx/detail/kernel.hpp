#pragma once
// The body of a ufx::kernel launch, the five steps of a call: each argument prepared for its parameter (raw/args.hpp),
// the target chosen (explicit, else where the arrays live, else the default), the configuration checked against the
// device before anything moves, the arguments placed, the bound body launched (raw/launch.hpp), and written arrays
// copied back (on a stream: queued where they can be, the call's temporaries kept for the queued work).
#include <cstddef>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/backends.hpp"
#include "ufx/detail/core/fail.hpp"
#include "ufx/detail/raw/args.hpp"
#include "ufx/detail/raw/launch.hpp"
#include "ufx/detail/step/place.hpp"
#include "ufx/detail/step/run.hpp"
#include "ufx/launch_config.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// The operand behind a prepared argument (a value has none: an empty struct).
template <class P>
decltype(auto) kernel_arg_operand(const P& p) {
  if constexpr (is_value_arg<P>::value) return std::tuple<>{};
  else return (p.op);
}

/// The staged place of a prepared argument the kernel writes (a tuple of it), or an empty tuple.
template <class P>
auto kernel_arg_staged(const P& p) {
  if constexpr (requires { p.staged; }) return std::tie(p.staged);
  else return std::tuple<>{};
}

/// Launches body `f` (parameters read by `Traits`) with configuration `c` on the explicit target `given` (null: chosen
/// from where the arrays live), the caller's arguments `a` bound to the parameters after the thread and its shared
/// arrays. `empty` (forall(0)): the arguments are checked, nothing runs. `label` names the kernel in messages.
template <class Traits, class F, class T, std::size_t... J, class... A>
UFX_CALL_BOUNDARY void raw_kernel_call(const F& f, const std::string& label, const T* given, const launch_config& c,
                                       bool empty, std::index_sequence<J...>, A&&... a) {
  const call_scope scope("ufx::kernel");
  auto prepared = std::make_tuple(kernel_arg<typename Traits::template param<1 + Traits::n_shared + J>>(
      std::forward<A>(a), static_cast<int>(J) + 1)...);
  device_set_of<> seen;
  std::apply([&](const auto&... p) { (note_space(kernel_arg_operand(p), seen), ...); }, prepared);
  if (empty) return;
  with_target_for<F>(given, seen, [&](const auto& tag) {
    using Tag = std::remove_cvref_t<decltype(tag)>;
    // the configuration first: nothing is copied for a launch the device refuses
    check_launch(c, raw_kernel_hook<Tag>::limits(tag), label.c_str(), Traits::static_bytes);
    if (c.cooperative) {
      using args_t = decltype(detail::make_tuple(as_passed<Tag>(std::get<J>(prepared).value())...));
      check_cooperative(c,
                        raw_kernel_hook<Tag>::template cooperative_blocks<kernel_body<F, Traits, args_t>>(
                            tag, c, Traits::static_bytes),
                        raw_kernel_hook<Tag>::limits(tag), label.c_str());
    }
    // step 3 as every call's (place.hpp): on a stream, arrays of another device are an error and host arrays copied in
    // at the call make it wait; every array argument is copied in
    const staging<Tag> st(tag);
    const auto operands = [&] {
      return std::apply([](const auto&... p) { return std::make_tuple(kernel_arg_operand(p)...); }, prepared);
    };
    st.prepare(std::tuple<>{}, operands(), overlap_wait::never);
    std::apply([&](auto&... p) { (p.place(st), ...); }, prepared);
    auto args = detail::make_tuple(as_passed<Tag>(std::get<J>(prepared).value())...);
    const kernel_body<F, Traits, decltype(args)> body{f, args};
    raw_kernel_hook<Tag>::template run<Traits>(static_cast<const Tag&>(tag), c, body, label);
    // written arrays copied back (queued on a stream where they can be), staged copies (the placed operands' keep) kept
    // for the queued kernel; not noted as written: the sim follows a kernel's writes itself
    st.finish(operands(),
              std::apply([](const auto&... p) { return std::tuple_cat(kernel_arg_staged(p)...); }, prepared), false);
  });
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
