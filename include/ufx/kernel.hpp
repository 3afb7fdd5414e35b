#pragma once
/// \file kernel.hpp
/// `ufx::kernel`: raw kernels in the style of Numba's `@cuda.jit` (docs/kernels.md).
///
///   auto add = ufx::kernel([] UFX_HD (const ufx::thread& t, ufx::ndview<const float, 1> x,
///                                     ufx::ndview<const float, 1> y, ufx::ndview<float, 1> out) {
///     const ufx::index_t i = t.grid<1>();               // cuda.grid(1)
///     if (i < out.extent(0)) out(i) = x(i) + y(i);
///   }, "add");
///   add[{blocks, 128}](x, y, out);                      // kern[blocks, threads](x, y, out)
///   add[{blocks, 128}](ufx::sim, dx, dy, dout);         // an explicit target first
///   add.forall(n)(x, y, out);                           // a configuration covering n threads
///
/// The body's parameters say what happens to each argument: an array bound to
/// `ufx::ndview<const T, R>` is copied to the target's memory when it lives elsewhere; one bound to
/// `ufx::ndview<T, R>` is copied there and back after the kernel; device arrays on the target pass
/// without copies; scalars and plain structs pass by value. `ufx::shared<T[N]...>` parameters right
/// after the thread are the block's shared arrays (the caller passes none).
///
/// Targets: the explicit one, else where the array arguments live, else ufx::default_target().
/// ufx::cuda runs the body as a CUDA kernel; ufx::sim runs it on the CPU like a GPU (each block's
/// threads as fibers with a real barrier, blocks in parallel) and checks what a GPU silently
/// corrupts; ufx::serial and ufx::host run it the same way on host memory (one block at a time, or
/// blocks on all cores).
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>
#include <memory>
#include <optional>

#include "ufx/atomic.hpp"
#include "ufx/detail/backends.hpp"
#include "ufx/detail/fail.hpp"
#include "ufx/detail/kernel_launch.hpp"
#include "ufx/detail/place.hpp"
#include "ufx/detail/run.hpp"
#include "ufx/launch_config.hpp"
#include "ufx/thread.hpp"

namespace ufx {
UFX_TU_NAMESPACE_BEGIN

template <class F>
class kernel_fn;

/// A kernel with its launch configuration: call it with the arguments (target first, optional).
/// Configured from a named kernel (`k[c]`) it refers to that kernel, which must outlive it, as
/// Numba's configured kernel refers to its dispatcher; configured from a temporary
/// (`ufx::kernel(f)[c]`, `make_kernel().forall(n)`) it holds the kernel itself, so a launch kept
/// in a variable never refers to a kernel that is gone.
template <class F>
class kernel_launch {
public:
  kernel_launch(const kernel_fn<F>& k, const launch_config& c, bool empty = false) : k_(&k), c_(c), empty_(empty) {}
  kernel_launch(kernel_fn<F>&& k, const launch_config& c, bool empty = false)
      : k_(nullptr), own_(std::move(k)), c_(c), empty_(empty) {}

  template <class... A>
  void operator()(A&&... args) const {
    if constexpr (first_is_target<A...>()) {
      run_with([&](auto&& t, auto&&... rest) { fn().launch(&t, c_, empty_, std::forward<decltype(rest)>(rest)...); },
               std::forward<A>(args)...);
    } else {
      fn().launch(static_cast<const void*>(nullptr), c_, empty_, std::forward<A>(args)...);
    }
  }

  const launch_config& config() const { return c_; }
  /// Whether this launch holds its kernel (configured from a temporary) rather than referring to it.
  bool owns_kernel() const { return own_.has_value(); }

private:
  template <class... A>
  static constexpr bool first_is_target() {
    if constexpr (sizeof...(A) == 0) return false;
    else return any_target<std::tuple_element_t<0, std::tuple<A...>>>;
  }
  template <class Fn, class T, class... A>
  static void run_with(Fn&& fn, T&& t, A&&... rest) {
    fn(t, std::forward<A>(rest)...);
  }
  // the kernel: the referred one, else the held one (a copy of a launch holds its own copy)
  const kernel_fn<F>& fn() const { return own_ ? *own_ : *k_; }
  const kernel_fn<F>* k_;
  std::optional<kernel_fn<F>> own_;
  launch_config c_;
  bool empty_;
};

/// A raw kernel: `k[config](args...)` launches it.
template <class F>
class kernel_fn {
  using traits = detail::kernel_traits<F>;

public:
  explicit kernel_fn(F f, std::string name = {}) : f_(std::move(f)), name_(std::move(name)) {}

  /// Launches with `c`: `k[{blocks, threads}]`, `k[{{bx, by}, {tx, ty}}]`, `k[{grid, block, shared_bytes}]`.
  /// On a temporary kernel the launch takes the kernel over (see kernel_launch).
  kernel_launch<F> operator[](const launch_config& c) const& { return kernel_launch<F>(*this, c); }
  kernel_launch<F> operator[](const launch_config& c) && { return kernel_launch<F>(std::move(*this), c); }

  /// Numba's `kernel.forall(n)`: a 1-D configuration with at least n threads (blocks of 256, or
  /// fewer threads when n is smaller); forall(0) launches nothing.
  kernel_launch<F> forall(index_t n, unsigned block = 256) const& {
    return kernel_launch<F>(*this, forall_config(n, block), n == 0);
  }
  kernel_launch<F> forall(index_t n, unsigned block = 256) && {
    const launch_config c = forall_config(n, block);
    return kernel_launch<F>(std::move(*this), c, n == 0);
  }

  /// "kernel 'name'" (or "ufx::kernel" for a kernel without a name): how messages name it.
  std::string label() const { return name_.empty() ? std::string("ufx::kernel") : "kernel '" + name_ + "'"; }
  const std::string& name() const { return name_; }

private:
  friend class kernel_launch<F>;

  launch_config forall_config(index_t n, unsigned block) const {
    if (n < 0) throw launch_error(label() + ": forall(" + std::to_string(n) + "): the thread count is negative");
    if (block == 0) throw launch_error(label() + ": forall: the block size is 0");
    const index_t threads = n < static_cast<index_t>(block) ? (n > 0 ? n : 1) : static_cast<index_t>(block);
    const index_t blocks = (n + threads - 1) / threads;
    return launch_config{dim3(static_cast<unsigned>(blocks > 0 ? blocks : 1)), dim3(static_cast<unsigned>(threads))};
  }

  template <class T, class... A>
  void launch(const T* given, const launch_config& c, bool empty, A&&... a) const {
    static_assert(sizeof...(A) == traits::n_args, "ufx::kernel: the launch passes a different number of arguments "
                                                  "than the body takes after the thread and its ufx::shared arrays");
    if constexpr (sizeof...(A) == traits::n_args) launch_args(given, c, empty, std::make_index_sequence<sizeof...(A)>{}, std::forward<A>(a)...);
  }

  template <class T, std::size_t... J, class... A>
  UFX_CALL_BOUNDARY void launch_args(const T* given, const launch_config& c, bool empty, std::index_sequence<J...>, A&&... a) const {
    const detail::call_scope scope("ufx::kernel");
    const std::string lbl = label();
    auto prepared = std::make_tuple(detail::kernel_arg<typename traits::template param<1 + traits::n_shared + J>>(
        std::forward<A>(a), static_cast<int>(J) + 1)...);
    detail::device_set seen;
    std::apply([&](const auto&... p) { (note(p, seen), ...); }, prepared);
    if (empty) return;
    detail::with_target_for<F>(given, seen, [&](const auto& tag) {
      using Tag = std::remove_cvref_t<decltype(tag)>;
      // the configuration first: nothing is copied for a launch the device refuses
      detail::check_launch(c, detail::kernel_limits(tag), lbl.c_str(), traits::static_bytes);
      const memory_space space = tag.space();
      if (detail::streamed(tag)) { // arrays of another device are an error; some host ones make the call wait
        bool wait = false;
        std::apply([&](const auto&... p) {
          ((detail::stream_check_device(tag, arg_operand(p)), wait = wait || detail::waits_to_copy_in(arg_operand(p))), ...);
        }, prepared);
        if (wait) detail::stream_wait(tag);
      }
      std::apply([&](auto&... p) { (p.place(space, detail::stream_of(tag)), ...); }, prepared);
      auto args = detail::make_tuple(detail::as_passed<Tag>(std::get<J>(prepared).value())...);
      const detail::kernel_body<F, traits, decltype(args)> body{f_, args};
      detail::launch_body<traits>(static_cast<const Tag&>(tag), c, body, lbl);
      if constexpr (Tag::is_device) // only a device target has a stream
        if (detail::streamed(tag)) {
          std::vector<std::shared_ptr<void>> keep;
          std::apply([&](const auto&... p) { (finish_queued(tag, p, keep), ...); }, prepared);
          if constexpr (std::is_same_v<Tag, sim_t>)
            if (!keep.empty()) detail::sim_enqueue(tag.stream_handle, [k = std::move(keep)] {});
          return;
        }
      std::apply([&](const auto&... p) { (p.finish(space), ...); }, prepared);
    });
  }

  /// The operand behind a prepared argument (a value has none: an empty struct).
  template <class P>
  static auto arg_operand(const P& p) {
    if constexpr (detail::is_value_arg<P>::value) return std::tuple<>{};
    else return p.op;
  }

  /// After a launch on a stream: a written array is copied back queued when its destination is
  /// pinned host memory, else after waiting for the stream; staged copies are kept until the
  /// stream has run the kernel.
  template <class Tag, class P>
  static void finish_queued(const Tag& tag, const P& p, std::vector<std::shared_ptr<void>>& keep) {
    if constexpr (requires { p.temp; }) {
      if (!p.temp) return;
      const auto& dst = p.op.view;
      const std::size_t bytes = static_cast<std::size_t>(dst.size()) * sizeof(*dst.data());
      if (p.op.space.is_host() && dst.is_contiguous() && detail::is_pinned(dst.data(), bytes)) {
        tag.space().runtime->copy_async(p.op.space, dst.data(), tag.space(), p.view.data(), bytes, detail::stream_of(tag));
        keep.push_back(p.temp);
      } else {
        detail::stream_wait(tag);
        p.finish(tag.space());
      }
    } else if constexpr (requires { p.op.keep; }) {
      if (p.op.keep) keep.push_back(p.op.keep);
    }
  }

  template <class P>
  static void note(const P& p, detail::device_set& seen) {
    if constexpr (!detail::is_value_arg<P>::value) {
      const memory_space& s = p.space();
      if (s.is_host()) return;
      if (!seen.first) seen.first = s;
      else if (*seen.first != s && !seen.second) seen.second = s;
    }
  }

  F f_;
  std::string name_;
};

/// Makes a raw kernel of `f`, whose first parameter is `const ufx::thread&`. `name` names it in
/// error messages ("kernel 'add'").
template <class F>
kernel_fn<F> kernel(F f, std::string name = {}) {
  return kernel_fn<F>(std::move(f), std::move(name));
}

UFX_TU_NAMESPACE_END
} // namespace ufx
