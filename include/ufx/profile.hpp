#pragma once
/// \file profile.hpp
/// `ufx::profile`: what a GPU's memory system would do with a kernel, counted exactly on ufx::sim.
///
/// The sim runs every thread of a raw kernel and sees each element access, so it counts what
/// Nsight Compute measures on a GPU: per warp-wide access (a request) the 32-byte sectors of
/// global memory it touches and the shared-memory wavefronts it needs (bank conflicts), and per
/// launch the bytes moved. A roofline estimate turns the counts into a time on a named GPU.
///
/// Example.
///   auto p = ufx::profile(ufx::sim, [&](auto t) { tiled[{grid, block}](t, A, B, C); });
///   std::cout << p;                                              // one table per kernel
///   double s = p.kernels[0].global_loads.sectors_per_request;    // 4 for 32 coalesced floats
///   std::cout << p.estimate(ufx::gpus::h200);                     // "about 41 us on NVIDIA H200 ..."
///
/// UFX_SIM_PROFILE=1 in the environment profiles every sim launch of the program and prints the
/// table to standard error at exit. Profiling is off otherwise and costs the sim nothing.
#include <cstddef>
#include <iosfwd>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ufx/devices.hpp"
#include "ufx/launch_config.hpp"
#include "ufx/targets.hpp"

namespace ufx {

/// Global-memory requests of one kind (loads, stores or atomics), as Nsight Compute counts them.
struct global_counts {
  /// Warp-wide accesses: one per access instruction a warp executes (its active lanes together).
  long long requests = 0;
  /// 32-byte sectors the requests touch (l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum for loads).
  long long sectors = 0;
  /// The fewest sectors that hold the distinct bytes each request asks for, summed.
  long long ideal_sectors = 0;
  /// Bytes the lanes ask for: active lanes x access width, summed.
  long long bytes_requested = 0;
  /// sectors / requests (4 for 32 lanes reading consecutive floats; 32 at a stride of 32 floats).
  double sectors_per_request = 0;
  /// ideal_sectors / requests.
  double ideal_sectors_per_request = 0;
};

/// Shared-memory requests of one kind: 32 banks of 4 bytes, one wavefront per pass over them.
struct shared_counts {
  /// Warp-wide accesses.
  long long requests = 0;
  /// Passes the banks need (lanes reading one word share it: a broadcast).
  long long wavefronts = 0;
  /// The fewest passes for the bytes asked for (1 per request of 4-byte elements).
  long long ideal_wavefronts = 0;
  /// wavefronts - ideal_wavefronts: the extra passes bank conflicts cost.
  long long bank_conflicts = 0;
  /// Bytes the lanes ask for.
  long long bytes_requested = 0;
  /// wavefronts / requests.
  double wavefronts_per_request = 0;
};

/// One array's accesses of one kind in a kernel: a row of the profile's table.
struct profile_row {
  /// What was accessed: "A: argument 1 (parameter 1)" or "shared array 0 (parameter 1)".
  std::string array;
  /// "load", "store" or "atomic".
  std::string kind;
  /// True for a ufx::shared array (then `transactions` are wavefronts), false for global memory (sectors).
  bool shared = false;
  /// Bytes each lane accesses.
  int access_bytes = 0;
  /// The access instructions in the compiled kernel that make up the row (a loop the compiler unrolls has several).
  int code_sites = 0;
  /// Warp-wide requests.
  long long requests = 0;
  /// Sectors (global) or wavefronts (shared).
  long long transactions = 0;
  /// The fewest for the bytes asked for.
  long long ideal = 0;
  /// Bytes the lanes ask for.
  long long bytes_requested = 0;
};

/// A GPU's figures from its data sheet, for a roofline estimate.
struct gpu_model {
  /// The GPU's name.
  const char* name = "";
  /// Memory bandwidth, bytes per second.
  double memory_bytes_per_second = 0;
  /// Streaming multiprocessors.
  int multiprocessors = 0;
  /// Boost clock, Hz.
  double clock_hz = 0;
  /// L2 cache, bytes.
  double l2_bytes = 0;
  /// 32-byte sectors each multiprocessor's L1 delivers per clock.
  int l1_sectors_per_clock = 4;
  /// Shared-memory wavefronts each multiprocessor serves per clock.
  int shared_wavefronts_per_clock = 1;
};

/// GPUs the estimate knows, from NVIDIA's data sheets.
namespace gpus {
/// NVIDIA H100 SXM5 80 GB: 3.35 TB/s of HBM3, 132 SMs at 1.98 GHz, 50 MB of L2.
inline constexpr gpu_model h100{"NVIDIA H100 SXM", 3.35e12, 132, 1.98e9, 50e6, 4, 1};
/// NVIDIA H200 141 GB: 4.8 TB/s of HBM3e, 132 SMs at 1.98 GHz, 50 MB of L2.
inline constexpr gpu_model h200{"NVIDIA H200", 4.8e12, 132, 1.98e9, 50e6, 4, 1};
} // namespace gpus

/// A roofline estimate: the time each part of the memory system needs for a launch's traffic; the largest bounds it.
struct gpu_estimate {
  /// The GPU.
  const char* gpu = "";
  /// The largest of the three times below: a lower bound on the kernel's time.
  double seconds = 0;
  /// Device memory: the distinct sectors the launch touches (each read or written once, the rest from L2) over the
  /// memory bandwidth. When they exceed the L2, the sectors requested, which the L2 no longer holds.
  double dram_seconds = 0;
  /// L1: every sector requested, at l1_sectors_per_clock per multiprocessor.
  double l1_seconds = 0;
  /// Shared memory: every wavefront, at shared_wavefronts_per_clock per multiprocessor.
  double shared_seconds = 0;
  /// Bytes to and from device memory in the estimate.
  double dram_bytes = 0;
  /// "device memory", "L1" or "shared memory": what takes longest.
  const char* bound = "";
  /// Bytes the lanes ask for over bytes the sectors moved: 1 when every request is coalesced.
  double efficiency = 0;
};

/// What one launch did.
struct kernel_profile {
  /// The kernel's name (`.named()`, else "ufx::kernel"), or the launch's for ufx's own kernels ("ufx elementwise
  /// kernel").
  std::string name;
  /// The device: "ufx::sim device 0".
  std::string device;
  /// The launch's grid.
  dim3 grid;
  /// The launch's block.
  dim3 block;
  /// Shared memory per block: the body's static arrays and the launch's dynamic bytes.
  std::size_t shared_bytes = 0;
  /// Blocks in the grid.
  long long blocks = 0;
  /// Threads in the grid.
  long long threads = 0;
  /// False for ufx's own kernels whose accesses are not traced yet (a reduction's passes over its partials, a gufunc's
  /// per-thread body, scans, copies): the counts are 0. ufx's elementwise kernel (vectorize, the ufuncs, lazy
  /// expressions), the loads of a reduction's first pass and the staged gufunc's copies are traced.
  bool traced = true;
  /// Global-memory loads through the kernel's array arguments.
  global_counts global_loads;
  /// Global-memory stores (an access through a mutable view that changed the element).
  global_counts global_stores;
  /// Global-memory atomics (ufx::atomic_add and the like on an argument's element).
  global_counts global_atomics;
  /// Shared-memory loads through its ufx::shared arrays.
  shared_counts shared_loads;
  /// Shared-memory stores.
  shared_counts shared_stores;
  /// Shared-memory atomics.
  shared_counts shared_atomics;
  /// Distinct 32-byte sectors of global memory the launch touched.
  long long distinct_sectors = 0;
  /// Warp-wide operations (shuffles, votes, syncwarp ...).
  long long warp_operations = 0;
  /// Those whose mask leaves out lanes the warp has.
  long long partial_warp_operations = 0;
  /// Per array and kind of access, in the order first met.
  std::vector<profile_row> rows;

  /// The roofline estimate of this launch on `gpu`.
  gpu_estimate estimate(const gpu_model& gpu) const;
};

/// The launches of a profiled run, in order.
struct profile_report {
  /// One per launch.
  std::vector<kernel_profile> kernels;
  /// The roofline estimate of all the launches, one after another, on `gpu`.
  gpu_estimate estimate(const gpu_model& gpu) const;
};

/// The profile's table: per kernel its launch, global and shared requests, and a row per array and kind.
std::ostream& operator<<(std::ostream& os, const profile_report& p);
/// One kernel's part of the table.
std::ostream& operator<<(std::ostream& os, const kernel_profile& k);
/// "about 41.2 us on NVIDIA H200: bound by device memory (...)".
std::ostream& operator<<(std::ostream& os, const gpu_estimate& e);

namespace detail {
/// Starts collecting the sim's launches (src/profile.cpp); one ufx::profile at a time in a process, else device_error.
void begin_sim_profile();
/// Stops collecting and returns the launches collected.
profile_report end_sim_profile();
} // namespace detail

/// Runs `fn(t)` with every launch on ufx::sim profiled, waits for the device's streams (ufx::synchronize), and returns
/// what the launches did. `t` is ufx::sim or a sim target on a stream (`ufx::sim.on(s)`); any other target is a
/// compile-time error.
template <class T, class Fn>
profile_report profile(const T& t, Fn&& fn) {
  static_assert(std::is_same_v<T, sim_t>, "ufx::profile: profiles ufx::sim's launches only (ufx::sim or "
                                          "ufx::sim.on(stream)); on a GPU, Nsight Compute measures the same counts");
  detail::begin_sim_profile();
  try {
    std::forward<Fn>(fn)(t);
    ufx::synchronize(t); // every stream of the sim device
  } catch (...) {
    detail::end_sim_profile();
    throw;
  }
  return detail::end_sim_profile();
}

} // namespace ufx
