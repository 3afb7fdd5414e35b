#pragma once
/// \file targets.hpp
/// Where a kernel runs. A target is a value: a memory space plus a way to execute, with state.
///
/// | target        | memory                      | execution                              |
/// |---------------|-----------------------------|----------------------------------------|
/// | `ufx::serial` | host                        | one thread (reference semantics)       |
/// | `ufx::host`   | host                        | all cores (OpenMP)                     |
/// | `ufx::sim`    | an emulated device          | CPU, through the device code paths     |
/// | `ufx::cuda`   | a CUDA device               | CUDA kernels (nvcc-compiled callers)   |
///
/// Pass one as the first argument of a call: `f(ufx::host, x, y)`. Targets carry state:
///
///   ufx::cuda.device(1)      // CUDA device 1 (ufx::cuda alone: the calling thread's current device)
///   ufx::sim.device(1)       // virtual device 1 of the sim (UFX_SIM_DEVICES, ufx::configure_sim)
///   ufx::host.threads(4)     // at most 4 threads for this call
///
/// `ufx::target` holds any of them at run time; `ufx::default_target()` picks one.
///
/// Adding a target: a struct below with `name()`, `space()`, `is_device`, `runs_device_code` (and,
/// for a device, `runtime()`, the object in src/ that allocates, copies and synchronises its
/// memory), an entry in `target::alternatives`, and a folder `include/ufx/detail/backend/<name>/`
/// with its algorithms, included by detail/backends.hpp (docs/architecture.md).

#include <compare>
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

#include "ufx/config.hpp"

namespace ufx {

class stream;

namespace detail {
class device_runtime;
/// The runtimes of the device memory kinds (src/sim/runtime.cpp, src/cuda/runtime.cpp).
const device_runtime& sim_runtime() noexcept;
const device_runtime& cuda_runtime() noexcept;
/// The name of a runtime ("ufx::sim"), and its calling thread's current device.
std::string_view runtime_name(const device_runtime& rt) noexcept;
int runtime_current_device(const device_runtime& rt);
} // namespace detail

/// Where an array's elements live: host memory, or the memory of one device of a device runtime.
struct memory_space {
  /// Null for host memory; else the runtime that owns the memory (ufx::sim's, ufx::cuda's).
  const detail::device_runtime* runtime = nullptr;
  /// The device ordinal within that runtime (0 for host memory).
  int device = 0;

  /// Host memory.
  static const memory_space host;

  /// True for host memory.
  constexpr bool is_host() const noexcept { return runtime == nullptr; }
  /// True for a device's memory.
  constexpr bool is_device() const noexcept { return runtime != nullptr; }
  /// True for the same runtime and device.
  friend constexpr bool operator==(const memory_space&, const memory_space&) = default;
};
inline constexpr memory_space memory_space::host{};

/// "host", "ufx::sim device 0", "ufx::cuda device 1".
std::string to_string(const memory_space& s);

/// One thread: the reference every other target is tested against.
struct serial_t {
  /// False: the arrays are in host memory.
  static constexpr bool is_device = false;
  /// Whether the user's function runs as device code nvcc compiles (then a lambda needs UFX_HD).
  static constexpr bool runs_device_code = false;
  /// "ufx::serial".
  static constexpr std::string_view name() { return "ufx::serial"; }
  /// Host memory.
  constexpr memory_space space() const { return memory_space::host; }
  /// Always true: ufx::serial has no state.
  friend constexpr bool operator==(serial_t, serial_t) { return true; }
};

/// All cores (OpenMP). `threads(n)` bounds the threads one call uses.
struct host_t {
  /// False: the arrays are in host memory.
  static constexpr bool is_device = false;
  /// False: the user's function runs as host code.
  static constexpr bool runs_device_code = false;
  /// At most this many threads per call; 0: as many as OpenMP gives.
  int max_threads = 0;

  /// "ufx::host".
  static constexpr std::string_view name() { return "ufx::host"; }
  /// Host memory.
  constexpr memory_space space() const { return memory_space::host; }
  /// This target with at most `n` threads per call (n >= 1; n = 1 runs on the calling thread).
  constexpr host_t threads(int n) const {
    host_t t = *this;
    t.max_threads = n < 1 ? 1 : n;
    return t;
  }
  /// True for the same thread limit.
  friend constexpr bool operator==(host_t a, host_t b) { return a.max_threads == b.max_threads; }
};

namespace detail {
/// What the two device targets share: a device ordinal (unbound: the thread's current device)
/// and a stream (none: the call waits for its work before it returns).
template <class Self>
struct device_target {
  static constexpr bool is_device = true;
  /// The bound device ordinal, or -1: the calling thread's current device at the time of a call.
  int bound_device = -1;
  /// The stream calls on this target queue their work on (`on(s)`), or null.
  void* stream_handle = nullptr;
  /// Device bytes a call staging host data may use before it runs in chunks (`ufx::chunked`);
  /// 0: the device's free memory.
  std::size_t chunk_bytes = 0;

  /// This target on stream `s` (and its device): a call queues its work on `s` and returns
  /// (stream.hpp; docs/streams.md says what waits).
  Self on(const stream& s) const;
  bool has_stream() const noexcept { return stream_handle != nullptr; }

  /// This target on device `i`.
  constexpr Self device(int i) const {
    Self t = static_cast<const Self&>(*this);
    t.bound_device = i;
    return t;
  }
  /// The device a call on this target runs on now.
  int ordinal() const { return bound_device >= 0 ? bound_device : runtime_current_device(Self::runtime()); }
  memory_space space() const { return memory_space{&Self::runtime(), ordinal()}; }
  friend bool operator==(const Self& a, const Self& b) { return a.ordinal() == b.ordinal(); }
};
} // namespace detail

/// The emulated device: separate memory per virtual device, device code paths run on the CPU.
struct sim_t : detail::device_target<sim_t> {
  /// False: the user's function runs as host code, through the device code paths.
  static constexpr bool runs_device_code = false;
  /// "ufx::sim".
  static constexpr std::string_view name() { return "ufx::sim"; }
  /// The sim's device runtime (src/sim/runtime.cpp), which allocates, copies and synchronises.
  static const detail::device_runtime& runtime() noexcept { return detail::sim_runtime(); }
};

/// A CUDA GPU. Calls that launch kernels must be compiled by nvcc.
struct cuda_t : detail::device_target<cuda_t> {
  /// True: the user's function runs as device code nvcc compiles, so a lambda needs UFX_HD.
  static constexpr bool runs_device_code = true;
  /// "ufx::cuda".
  static constexpr std::string_view name() { return "ufx::cuda"; }
  /// CUDA's device runtime (src/cuda/runtime.cpp), which allocates, copies and synchronises.
  static const detail::device_runtime& runtime() noexcept { return detail::cuda_runtime(); }
};

/// Device target `t` with a budget of `bytes` of device memory for a call's staged host data: an
/// elementwise call on larger host arrays runs in chunks of its outermost dimension that fit
/// (without it, the budget is the device's free memory).
template <class T>
requires(T::is_device) constexpr T chunked(const T& t, std::size_t bytes) {
  T c = t;
  c.chunk_bytes = bytes;
  return c;
}

/// The serial target: one thread on the host.
inline constexpr serial_t serial{};
/// The host target: all cores.
inline constexpr host_t host{};
/// The sim target: the emulated device (the calling thread's current virtual device).
inline constexpr sim_t sim{};
/// The CUDA target: the calling thread's current GPU.
inline constexpr cuda_t cuda{};

/// Any target, chosen at run time.
class target {
public:
  /// Every target ufx has: the one list a new target joins.
  using alternatives = std::variant<serial_t, host_t, sim_t, cuda_t>;

  /// ufx::host.
  constexpr target() : v_(host_t{}) {}
  /// Holds the target `t` (ufx::serial, ufx::host, ufx::sim or ufx::cuda, with its state).
  template <class T>
  requires requires(alternatives v, T t) {
    v = t;
  } &&(!std::is_same_v<std::remove_cvref_t<T>, target>)constexpr target(const T& t) : v_(t) {}

  /// Calls `fn(t)` with the target as its own type.
  template <class Fn>
  decltype(auto) visit(Fn&& fn) const {
    return std::visit(std::forward<Fn>(fn), v_);
  }
  /// The held target's name ("ufx::host").
  std::string_view name() const {
    return visit([](const auto& t) { return t.name(); });
  }
  /// The held target's memory space (for a device target, its device now).
  memory_space space() const {
    return visit([](const auto& t) { return t.space(); });
  }
  /// True when the held target is a device target (ufx::sim, ufx::cuda).
  bool is_device() const {
    return visit([](const auto& t) { return std::remove_cvref_t<decltype(t)>::is_device; });
  }
  /// The target as type T, or null.
  template <class T>
  const T* get_if() const noexcept {
    return std::get_if<T>(&v_);
  }

  /// True when both hold the same kind of target and those compare equal (device targets: the
  /// same device).
  friend bool operator==(const target& a, const target& b) { return a.v_ == b.v_; }

private:
  alternatives v_;
};

/// `ufx::chunked` for a target chosen at run time: a device target gets the budget; a host target
/// (ufx::serial, ufx::host) stages nothing, so it has no budget to keep and comes back as it is.
/// (A typed host target stays an error: only the run-time type, whose kind a program cannot know
/// when it is written, takes this path.)
template <class T>
requires std::is_same_v<T, target> target chunked(const T& t, std::size_t bytes) {
  return t.visit([&](const auto& tag) -> target {
    if constexpr (std::remove_cvref_t<decltype(tag)>::is_device) return target(chunked(tag, bytes));
    else return target(tag);
  });
}

namespace detail {
template <class T, class V>
struct is_alternative;
template <class T, class... A>
struct is_alternative<T, std::variant<A...>> : std::bool_constant<(std::is_same_v<T, A> || ...)> {};
} // namespace detail

/// One of ufx's target types (serial_t, host_t, sim_t, cuda_t).
template <class T>
concept target_tag = detail::is_alternative<std::remove_cvref_t<T>, target::alternatives>::value;

/// A target type or a run-time `ufx::target`.
template <class T>
concept any_target = target_tag<T> || std::is_same_v<std::remove_cvref_t<T>, target>;

/// True for targets whose memory is a device's (ufx::sim, ufx::cuda).
template <class T>
inline constexpr bool is_device_target_v = std::remove_cvref_t<T>::is_device;

/// True when ufx's runtime was built with the CUDA toolkit and a CUDA device answers.
bool cuda_available() noexcept;

/// Why `cuda_available()` is false (empty when it is true).
std::string_view cuda_unavailable_reason() noexcept;

/// True when raw kernels (ufx::kernel) can run on ufx::serial, ufx::host and ufx::sim: ufx was
/// built with Boost.Context, whose fibers run a block's threads on the host. Without it such a
/// launch throws ufx::device_error saying so; ufx::cuda runs kernels either way.
bool host_kernels_available() noexcept;

UFX_TU_NAMESPACE_BEGIN
/// True for the target types default_target() can return in this translation unit: a call that
/// names no target and whose arguments' types hold host memory only compiles their paths alone.
template <class T>
inline constexpr bool is_default_target_type = std::is_same_v<T, host_t> || (UFX_CUDA_TU && std::is_same_v<T, cuda_t>);

/// The target a call without an explicit target runs on when no operand is on a device:
/// `ufx::cuda` when this translation unit is compiled by nvcc and a device answers, else `ufx::host`.
inline target default_target() {
#if UFX_CUDA_TU
  if (cuda_available()) return target(cuda);
#endif
  return target(host);
}
UFX_TU_NAMESPACE_END

/// The device `ufx::to_device(x)` uses: `ufx::cuda` when a device answers, else `ufx::sim`.
inline target default_device() { return cuda_available() ? target(cuda) : target(sim); }

namespace detail {
/// The device target whose memory is `s` (bound to its device); `s` must be device memory.
inline target target_for(const memory_space& s) {
  target found;
  bool hit = false;
  [&]<class... A>(std::variant<A...>*) {
    (
        [&] {
          if constexpr (A::is_device)
            if (!hit && &A::runtime() == s.runtime) {
              found = target(A{}.device(s.device));
              hit = true;
            }
        }(),
        ...);
  }(static_cast<target::alternatives*>(nullptr));
  return found;
}
} // namespace detail

} // namespace ufx
