#pragma once
// The body of a ufx::kernel launch, the five steps of a call: each argument prepared for its
// parameter (detail/raw/args.hpp), the target chosen (explicit, else where the arrays live,
// else the default), the configuration checked against the device before anything moves, the
// arguments placed, the bound body launched (detail/raw/launch.hpp), and written arrays copied
// back (on a stream: queued where they can be, the call's temporaries kept for the queued work).
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

/// After a launch on a stream: a written array is copied back queued when its destination is
/// pinned host memory, else after waiting for the stream; staged copies are kept until the
/// stream has run the kernel.
template <class Tag, class P>
void finish_kernel_arg_queued(const Tag& tag, const P& p, std::vector<std::shared_ptr<void>>& keep) {
  if constexpr (requires { p.temp; }) {
    if (!p.temp) return;
    const auto& dst = p.op.view;
    const std::size_t bytes = static_cast<std::size_t>(dst.size()) * sizeof(*dst.data());
    if (p.op.space.is_host() && dst.is_contiguous() && is_pinned(dst.data(), bytes)) {
      tag.space().runtime->copy_async(p.op.space, dst.data(), tag.space(), p.view.data(), bytes, stream_of(tag));
      keep.push_back(p.temp);
    } else {
      stream_wait(tag);
      p.finish(tag.space());
    }
  } else if constexpr (requires { p.op.keep; }) {
    if (p.op.keep) keep.push_back(p.op.keep);
  }
}

/// Launches body `f` (parameters read by `Traits`) with configuration `c` on the explicit target
/// `given` (null: chosen from where the arrays live), the caller's arguments `a` bound to the
/// parameters after the thread and its shared arrays. `empty` (forall(0)): the arguments are
/// checked, nothing runs. `label` names the kernel in messages.
template <class Traits, class F, class T, std::size_t... J, class... A>
UFX_CALL_BOUNDARY void raw_kernel_call(const F& f, const std::string& label, const T* given, const launch_config& c,
                                       bool empty, std::index_sequence<J...>, A&&... a) {
  const call_scope scope("ufx::kernel");
  auto prepared = std::make_tuple(kernel_arg<typename Traits::template param<1 + Traits::n_shared + J>>(
      std::forward<A>(a), static_cast<int>(J) + 1)...);
  device_set seen;
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
    const memory_space space = tag.space();
    if (streamed(tag)) { // arrays of another device are an error; some host ones make the call wait
      bool wait = false;
      std::apply(
          [&](const auto&... p) {
            ((stream_check_device(tag, kernel_arg_operand(p)), wait = wait || waits_to_copy_in(kernel_arg_operand(p))),
             ...);
          },
          prepared);
      if (wait) stream_wait(tag);
    }
    std::apply([&](auto&... p) { (p.place(space, stream_of(tag)), ...); }, prepared);
    auto args = detail::make_tuple(as_passed<Tag>(std::get<J>(prepared).value())...);
    const kernel_body<F, Traits, decltype(args)> body{f, args};
    raw_kernel_hook<Tag>::template run<Traits>(static_cast<const Tag&>(tag), c, body, label);
    if constexpr (Tag::is_device) // only a device target has a stream
      if (streamed(tag)) {
        std::vector<std::shared_ptr<void>> keep;
        std::apply([&](const auto&... p) { (finish_kernel_arg_queued(tag, p, keep), ...); }, prepared);
        launch_hook<Tag>::keep_until_run(tag, stream_keep{std::move(keep)}); // the target's folder says how
        return;
      }
    std::apply([&](const auto&... p) { (p.finish(space), ...); }, prepared);
  });
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
