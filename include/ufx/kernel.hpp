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
///
/// Errors. A configuration the device cannot run (threads per block, shared memory, an empty
/// grid; forall of a negative count or with a block of 0; a cooperative grid larger than
/// max_cooperative_grid): ufx::launch_error, before anything is copied. A pointer argument to memory other than the
/// target's: ufx::kernel_error, at the launch. Arrays on two devices and no explicit target, or a target that cannot
/// run here (no GPU; the CPU targets without Boost.Context): ufx::device_error. On ufx::sim, ufx::serial and ufx::host
/// a failure while the kernel runs (a barrier not reached by every thread, a shared-memory race or uninitialised shared
/// read, a warp operation whose lanes do not meet, an index out of range: of a ufx::ndview argument on ufx::serial and
/// ufx::host only with UFX_BOUNDS_CHECK; on ufx::sim a global-memory race or a read of device memory nothing has
/// written; an exception from the body) is a ufx::kernel_error naming the kernel, the block and the thread
/// (docs/kernels.md, "What the sim checks"); a failed kernel's outputs are not copied back.
/// Mistakes in the body's parameters or in the arguments' types are compile-time errors.
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "ufx/atomic.hpp"
#include "ufx/block.hpp"
#include "ufx/detail/kernel.hpp"
#include "ufx/launch_config.hpp"
#include "ufx/thread.hpp"

namespace ufx {

/// The seed of the thread order of raw kernels on ufx::sim, ufx::serial and ufx::host (0: the fixed
/// order, threads and blocks by index). Any other seed runs, in each launch, the blocks and, at
/// each barrier and warp meeting, the ready threads of a block in an order drawn from it, the same
/// for the same seed and the same sequence of launches since it was set; a kernel whose result
/// depends on thread order shows it under some seeds. Set by the environment variable
/// UFX_SIM_SEED at start, or by set_sim_seed (which starts the seed's sequence again); an error
/// from a seeded run names its seed.
std::uint64_t sim_seed() noexcept;
/// Sets the seed of the thread order (see sim_seed; 0: the fixed order) and starts its sequence again.
void set_sim_seed(std::uint64_t seed) noexcept;

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
  /// A launch of kernel `k` (which must outlive it) with configuration `c`; an `empty` launch runs
  /// nothing (forall(0)).
  kernel_launch(const kernel_fn<F>& k, const launch_config& c, bool empty = false) : k_(&k), c_(c), empty_(empty) {}
  /// The same, holding the kernel `k` itself (moved in).
  kernel_launch(kernel_fn<F>&& k, const launch_config& c, bool empty = false)
      : k_(nullptr), own_(std::move(k)), c_(c), empty_(empty) {}

  /// Launches the kernel with `args...`: on the target given first, else where the array arguments
  /// live, else ufx::default_target(). Errors are the file head's (launch_error, kernel_error,
  /// device_error).
  template <class... A>
  void operator()(A&&... args) const {
    if constexpr (first_is_target<A...>()) {
      run_with([&](auto&& t, auto&&... rest) { fn().launch(&t, c_, empty_, std::forward<decltype(rest)>(rest)...); },
               std::forward<A>(args)...);
    } else {
      fn().launch(static_cast<const void*>(nullptr), c_, empty_, std::forward<A>(args)...);
    }
  }

  /// The launch configuration.
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
  /// The kernel of body `f`, named `name` in messages and profiler ranges (empty: no name).
  explicit kernel_fn(F f, std::string name = {}) : f_(std::move(f)), name_(std::move(name)) {}

  /// Launches with `c`: `k[{blocks, threads}]`, `k[{{bx, by}, {tx, ty}}]`, `k[{grid, block, shared_bytes}]`.
  /// On a temporary kernel the launch takes the kernel over (see kernel_launch).
  kernel_launch<F> operator[](const launch_config& c) const& { return kernel_launch<F>(*this, c); }
  /// The same on a temporary kernel: the launch holds the kernel.
  kernel_launch<F> operator[](const launch_config& c) && { return kernel_launch<F>(std::move(*this), c); }

  /// Numba's `kernel.forall(n)`: a 1-D configuration with at least n threads (blocks of 256, or
  /// fewer threads when n is smaller); forall(0) launches nothing.
  kernel_launch<F> forall(index_t n, unsigned block = 256) const& {
    return kernel_launch<F>(*this, forall_config(n, block), n == 0);
  }
  /// The same on a temporary kernel: the launch holds the kernel.
  kernel_launch<F> forall(index_t n, unsigned block = 256) && {
    const launch_config c = forall_config(n, block);
    return kernel_launch<F>(std::move(*this), c, n == 0);
  }

  /// Numba's `max_cooperative_grid_blocks`: the most blocks of `block` threads (with `shared_bytes`
  /// of dynamic shared memory) that a cooperative launch of this kernel may have on `target` (its
  /// current device), every block resident at once. ufx::cuda asks CUDA's occupancy calculator; the
  /// sim and the CPU targets hold, per multiprocessor (a host thread), what a GPU of compute
  /// capability 9.0 holds: 2048 threads, 32 blocks, 228 KiB of shared memory.
  template <class T>
  requires any_target<T>
  long long max_cooperative_grid(const dim3& block, std::size_t shared_bytes, const T& target) const {
    return cooperative_limit(block, shared_bytes, target,
                             std::make_index_sequence<static_cast<std::size_t>(traits::n_args)>{});
  }
  /// The same on ufx::default_target().
  long long max_cooperative_grid(const dim3& block, std::size_t shared_bytes = 0) const {
    return default_target().visit([&](const auto& tag) -> long long {
      if constexpr (is_default_target_type<std::remove_cvref_t<decltype(tag)>>)
        return max_cooperative_grid(block, shared_bytes, tag);
      else
        throw device_error("ufx::max_cooperative_grid: the default target is " + std::string(tag.name()) +
                           ", which this translation unit does not compile as a default");
    });
  }

  /// "kernel 'name'" (or "ufx::kernel" for a kernel without a name): how messages name it.
  std::string label() const { return name_.empty() ? std::string("ufx::kernel") : "kernel '" + name_ + "'"; }
  /// The kernel's name (empty when it has none).
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

  template <class T, std::size_t... J>
  long long cooperative_limit(const dim3& block, std::size_t shared_bytes, const T& target,
                              std::index_sequence<J...>) const {
    // the body as a launch binds it: each argument as its parameter's type
    using args_t = detail::tuple<typename traits::template param<1 + traits::n_shared + J>...>;
    using body_t = detail::kernel_body<F, traits, args_t>;
    const launch_config c{dim3(1), block, shared_bytes, true};
    const auto on = [&](const auto& tag) {
      return detail::raw_kernel_hook<std::remove_cvref_t<decltype(tag)>>::template cooperative_blocks<body_t>(
          tag, c, traits::static_bytes);
    };
    if constexpr (target_tag<T>) return on(target);
    else return target.visit(on);
  }

  template <class T, class... A>
  void launch(const T* given, const launch_config& c, bool empty, A&&... a) const {
    static_assert(sizeof...(A) == traits::n_args, "ufx::kernel: the launch passes a different number of arguments "
                                                  "than the body takes after the thread and its ufx::shared arrays");
    const detail::label_scope named(name_.empty() ? nullptr : name_.c_str());
    if constexpr (sizeof...(A) == traits::n_args)
      detail::raw_kernel_call<traits>(f_, label(), given, c, empty, std::make_index_sequence<sizeof...(A)>{},
                                      std::forward<A>(a)...);
  }

  F f_;
  std::string name_;
};

/// Numba's `kernel.max_cooperative_grid_blocks(blockdim, dynsmemsize)`: the most blocks a
/// cooperative launch of `k` with `block` threads per block may have (kernel_fn::max_cooperative_grid).
template <class F, class... T>
long long max_cooperative_grid(const kernel_fn<F>& k, const dim3& block, std::size_t shared_bytes = 0,
                               const T&... target) {
  static_assert(sizeof...(T) <= 1, "ufx::max_cooperative_grid: at most one target after the shared bytes");
  return k.max_cooperative_grid(block, shared_bytes, target...);
}

/// Makes a raw kernel of `f`, whose first parameter is `const ufx::thread&`. `name` names it in
/// error messages ("kernel 'add'").
template <class F>
kernel_fn<F> kernel(F f, std::string name = {}) {
  return kernel_fn<F>(std::move(f), std::move(name));
}

UFX_TU_NAMESPACE_END
} // namespace ufx
