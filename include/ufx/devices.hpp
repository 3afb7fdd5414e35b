#pragma once
/// \file devices.hpp
/// Devices: list them, pick one, and size the emulated ones (Numba's `cuda.list_devices()`,
/// `cuda.select_device(i)`, `cuda.get_current_device()`).
///
///   for (const ufx::device_info& d : ufx::devices(ufx::cuda)) std::cout << d << '\n';
///   ufx::select_device(ufx::cuda, 1);          // this thread's current CUDA device
///   int i = ufx::current_device(ufx::sim);
///   ufx::configure_sim({.devices = 2, .memory = 64 << 20});   // two 64 MiB virtual devices
///
/// The sim's devices. `ufx::sim` emulates `UFX_SIM_DEVICES` devices (default 1) of
/// `UFX_SIM_MEMORY` bytes each (default: the machine's physical memory; suffixes KiB, MiB, GiB,
/// TiB or K, M, G, T), read when the sim starts; `configure_sim` sets the same from code while no
/// sim memory is allocated. An allocation beyond a device's memory throws `ufx::device_error`
/// ("out of device memory", with the requested and available sizes), on the sim as on CUDA.
///
/// Errors. `ufx::device_error` for a device ordinal that does not exist, a target that is not a
/// device, ufx::cuda where no GPU answers, and `configure_sim` while sim memory is in use.

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

#include "ufx/targets.hpp"

namespace ufx {

/// What a device is (cudaDeviceProp's fields that matter for ufx users).
struct device_info {
  std::string target;           ///< "ufx::cuda" or "ufx::sim"
  int ordinal = 0;              ///< device number within its target
  std::string name;             ///< e.g. "NVIDIA H100 80GB HBM3", "ufx::sim virtual device 0"
  int compute_major = 0;        ///< compute capability, major
  int compute_minor = 0;        ///< compute capability, minor
  std::size_t total_memory = 0; ///< bytes
  std::size_t free_memory = 0;  ///< bytes, when asked
  int multiprocessors = 0;      ///< streaming multiprocessors (sim: CPU threads)
  /// The most threads one block may have (the sim: 1024).
  int max_threads_per_block = 0;
  std::size_t shared_memory_per_block = 0; ///< bytes
  /// Threads per warp (32).
  int warp_size = 0;
};

/// One line: "ufx::cuda device 0: NVIDIA H100 80GB HBM3, compute 9.0, 132 SMs, 79.1 GiB (78.5 GiB free), ...".
std::ostream& operator<<(std::ostream& os, const device_info& d);

/// The devices of a device target (`ufx::cuda`: empty when no GPU answers; `ufx::sim`: its
/// virtual devices). A host target is an error.
std::vector<device_info> devices(const target& t);

/// The calling thread's current device of a device target (what `ufx::cuda` alone runs on).
int current_device(const target& t);

/// Makes device `i` the calling thread's current device of `t`'s kind.
void select_device(const target& t, int i);

/// Waits for the work queued on `t`'s device (`ufx::cuda`: calls without a stream return once
/// queued; cudaDeviceSynchronize), and throws device_error with the first failure of that work,
/// naming the calls queued since the last wait. Numba's `cuda.synchronize()`.
void synchronize(const target& t);

/// The sim's virtual devices: how many, and the memory of each in bytes (0: keep the current).
struct sim_config {
  /// The number of virtual devices (at least 1).
  int devices = 1;
  /// Each device's memory in bytes; 0 keeps the current size.
  std::size_t memory = 0;
};

/// Reconfigures ufx::sim's virtual devices. Throws ufx::device_error while any sim allocation is
/// alive, or for fewer than one device.
void configure_sim(const sim_config& c);

/// The sim's configuration now (from the environment, or the last configure_sim).
sim_config sim_configuration();

} // namespace ufx
