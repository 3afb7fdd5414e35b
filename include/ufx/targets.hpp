#pragma once
/// \file targets.hpp
/// Where a kernel runs. A target is a memory space plus a way to execute:
///
/// | target        | memory                     | execution                              |
/// |---------------|----------------------------|----------------------------------------|
/// | `ufx::serial` | host                       | one thread (reference semantics)       |
/// | `ufx::host`   | host                       | all cores (OpenMP)                     |
/// | `ufx::sim`    | emulated device allocations| CPU, through the device code paths     |
/// | `ufx::cuda`   | CUDA device                | CUDA kernels (nvcc-compiled callers)   |
///
/// The tags are values you pass as the first argument of a call: `f(ufx::host, x, y)`.
/// `ufx::target` holds any of them at run time; `ufx::default_target()` picks one.

#include <string_view>
#include <type_traits>

#include "ufx/config.hpp"

namespace ufx {

/// Where an array's elements live.
enum class memory_space { host, sim, cuda };

enum class target_kind { serial, host, sim, cuda };

struct serial_t {
  static constexpr target_kind kind = target_kind::serial;
  static constexpr memory_space space = memory_space::host;
};
struct host_t {
  static constexpr target_kind kind = target_kind::host;
  static constexpr memory_space space = memory_space::host;
};
struct sim_t {
  static constexpr target_kind kind = target_kind::sim;
  static constexpr memory_space space = memory_space::sim;
};
struct cuda_t {
  static constexpr target_kind kind = target_kind::cuda;
  static constexpr memory_space space = memory_space::cuda;
};

inline constexpr serial_t serial{};
inline constexpr host_t host{};
inline constexpr sim_t sim{};
inline constexpr cuda_t cuda{};

/// Any target, chosen at run time.
struct target {
  target_kind kind = target_kind::host;
  constexpr target() = default;
  constexpr target(target_kind k) : kind(k) {}
  constexpr target(serial_t) : kind(target_kind::serial) {}
  constexpr target(host_t) : kind(target_kind::host) {}
  constexpr target(sim_t) : kind(target_kind::sim) {}
  constexpr target(cuda_t) : kind(target_kind::cuda) {}
  constexpr memory_space space() const {
    return kind == target_kind::sim    ? memory_space::sim
           : kind == target_kind::cuda ? memory_space::cuda
                                       : memory_space::host;
  }
  friend constexpr bool operator==(target a, target b) { return a.kind == b.kind; }
};

template <class T>
concept target_tag = std::is_same_v<T, serial_t> || std::is_same_v<T, host_t> || std::is_same_v<T, sim_t> ||
                     std::is_same_v<T, cuda_t>;

template <class T>
concept any_target = target_tag<T> || std::is_same_v<T, target>;

constexpr std::string_view name(target_kind k) {
  switch (k) {
  case target_kind::serial: return "ufx::serial";
  case target_kind::host: return "ufx::host";
  case target_kind::sim: return "ufx::sim";
  case target_kind::cuda: return "ufx::cuda";
  }
  return "?";
}
constexpr std::string_view name(memory_space s) {
  switch (s) {
  case memory_space::host: return "host";
  case memory_space::sim: return "ufx::sim";
  case memory_space::cuda: return "ufx::cuda";
  }
  return "?";
}

/// True when ufx's runtime was built with the CUDA toolkit and a CUDA device answers.
bool cuda_available() noexcept;

/// Why `cuda_available()` is false (empty when it is true).
std::string_view cuda_unavailable_reason() noexcept;

UFX_TU_NAMESPACE_BEGIN
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

} // namespace ufx
