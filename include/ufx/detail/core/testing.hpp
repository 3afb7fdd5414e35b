#pragma once
// The switches tests and benchmarks turn, in one registry, `ufx::detail::testing()`: a launch path reads its switch
// (`testing().row_reduce.on()`) and counts its launches here. As they start, calls take their usual paths; a switch
// turned off sends them to the path that was there before (the device reduction's lanes; a gufunc's thread per loop
// position), so tests compare the two and benchmarks measure them side by side.
#include <atomic>

namespace ufx::detail {

struct path_switch {
  std::atomic<bool> enabled{true}; ///< false: the calls that would take the path take the one before it
  std::atomic<long> launches{0};   ///< launches of the path so far
  bool on() const { return enabled.load(std::memory_order_relaxed); }
  void count() { launches.fetch_add(1, std::memory_order_relaxed); }
};

struct testing_switches {
  /// The device targets' tiled reduction (device/tiled_reduce.hpp); off: the lanes.
  path_switch tiled_reduce;
  /// 1: every thread of the tiled body owns one output (the body before outputs per thread, for before/after benchmarks
  /// and tests); 0: as planned (tile_outputs_per_thread where the outputs are many).
  std::atomic<int> tiled_outputs_per_thread{0};
  /// Tiled launches with more than one output per thread.
  std::atomic<long> tiled_blocked_launches{0};
  /// The device targets' row reduction (device/row_reduce.hpp); off: the lanes.
  path_switch row_reduce;
  /// The staged gufunc body (device/gufunc.hpp); off: one thread per loop position.
  path_switch gufunc_staging;
  /// A ready ufunc's f.at on a device by atomics (ufuncs/at_atomic.hpp); off: the ordered gufunc.
  path_switch at_atomics;
};

inline testing_switches& testing() {
  static testing_switches s;
  return s;
}

} // namespace ufx::detail
