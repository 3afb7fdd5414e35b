#pragma once
// Raw kernels, run side: the body every target runs (the user's function with its shared arrays
// and arguments), and its launch on each target: ufx::cuda through a __global__ of ufx's own that
// declares the shared memory; ufx::sim, ufx::serial and ufx::host through the host block runner
// (src/sim_blocks.cpp), on the device's or the host's memory.
#include <string>

#include "ufx/detail/blocks.hpp"
#include "ufx/detail/cpu/executor.hpp"
#include "ufx/detail/device/thread.hpp"
#include "ufx/detail/kernel_args.hpp"
#include "ufx/detail/runtime.hpp"
#include "ufx/detail/target/cuda/device.hpp"
#include "ufx/detail/target/cuda/launch.hpp"
#include "ufx/detail/target/sim/launch.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// The user's function, bound to its arguments; one call runs one thread.
template <class F, class Traits, class Args>
struct kernel_body {
  static constexpr std::size_t static_bytes = Traits::static_bytes;
  F f;
  Args args;

  template <std::size_t... S, std::size_t... J>
  UFX_HD void call(const thread& t, std::index_sequence<S...>, std::index_sequence<J...>) const {
    UFX_USER_CALL(f, t, Traits::template make_shared<S>(t)..., get<J>(args)...);
  }
  UFX_HD void operator()(const thread& t) const {
    call(t, std::make_index_sequence<static_cast<std::size_t>(Traits::n_shared)>{},
         std::make_index_sequence<static_cast<std::size_t>(Traits::n_args)>{});
  }
};

/// The launch limits of the CPU targets: those of a sim device, so a kernel that runs there runs on
/// a GPU too.
inline device_info host_kernel_limits(std::string_view target) {
  device_info d;
  d.target = std::string(target);
  d.max_threads_per_block = 1024;
  d.shared_memory_per_block = 48 << 10;
  d.warp_size = 32;
  return d;
}

template <class Body>
void run_thread_of(const void* body, const thread& t) {
  (*static_cast<const Body*>(body))(t);
}

/// A kernel argument as target Tag hands it to the body: ufx::sim checks the indices of its
/// arrays in every build (ndview::index_checked); ufx::serial and ufx::host as UFX_BOUNDS_CHECK
/// says, since they run a kernel fast on host memory.
template <class Tag, class V>
V as_passed(const V& v) {
  if constexpr (std::is_same_v<Tag, sim_t> && requires { v.index_checked(); }) return v.index_checked();
  else return v;
}

/// Runs a kernel body's blocks on the host, `workers` at a time.
template <class Traits, class Body>
void run_on_host(const launch_config& c, const Body& body, const std::string& label, std::string where, int workers) {
  constexpr std::size_t static_bytes = (Traits::static_bytes + 15) / 16 * 16; // the dynamic region is 16-aligned
  const auto regions = Traits::regions(static_bytes, c.shared_bytes);
  block_launch l;
  l.config = c;
  l.static_bytes = static_bytes;
  l.regions = regions.data();
  l.region_count = Traits::n_shared;
  l.label = label.c_str();
  l.where = std::move(where);
  l.body = &body;
  l.run_thread = &run_thread_of<Body>;
  l.workers = workers;
  run_blocks(l);
}

/// The device limits a launch on `t` is checked against.
template <class Tag>
device_info kernel_limits(const Tag& t) {
  if constexpr (std::is_same_v<Tag, sim_t>) return sim_device_info(t);
#if UFX_CUDA_TU
  else if constexpr (std::is_same_v<Tag, cuda_t>) return cuda_device_info(t.ordinal());
#endif
  else return host_kernel_limits(Tag::name());
}

template <class Traits, class Body>
void launch_body(const serial_t&, const launch_config& c, const Body& body, const std::string& label) {
  run_on_host<Traits>(c, body, label, "ufx::serial", 1);
}
template <class Traits, class Body>
void launch_body(const host_t& t, const launch_config& c, const Body& body, const std::string& label) {
  run_on_host<Traits>(c, body, label, "ufx::host", cpu_executor(t).threads());
}
template <class Traits, class Body>
void launch_body(const sim_t& t, const launch_config& c, const Body& body, const std::string& label) {
  if (t.has_stream()) { // the stream's worker runs the blocks after its earlier work
    sim_enqueue(t.stream_handle, [c, body, label, where = to_string(t.space())] {
      run_on_host<Traits>(c, body, label, where, host_threads());
    });
    return;
  }
  run_on_host<Traits>(c, body, label, to_string(t.space()), host_threads());
}

#if UFX_CUDA_TU
template <class Body>
__global__ void kernel_entry(Body body, std::size_t dynamic_bytes) {
  __shared__ __align__(16) unsigned char ufx_static_shared[Body::static_bytes > 0 ? Body::static_bytes : 1];
  extern __shared__ __align__(16) unsigned char ufx_dynamic_shared[];
  body(thread_access::make_device(ufx_static_shared, ufx_dynamic_shared, dynamic_bytes));
}
#endif

template <class Traits, class Body>
void launch_body(const cuda_t& t, const launch_config& c, const Body& body, const std::string& label) {
#if UFX_CUDA_TU
  const cuda_scope scope(t);
  kernel_entry<<<::dim3(c.grid.x, c.grid.y, c.grid.z), ::dim3(c.block.x, c.block.y, c.block.z), c.shared_bytes,
                 static_cast<cudaStream_t>(t.stream_handle)>>>(body, c.shared_bytes);
  cuda_check(cudaGetLastError(), label.c_str());
  if (t.has_stream()) return; // failures surface at the stream's synchronize
  try {
    synchronize(scope.space());
  } catch (const device_error& e) {
    throw kernel_error(label + " on " + to_string(scope.space()) + ": " + e.what());
  }
#else
  (void)c, (void)body, (void)label;
  cuda_not_compiled(t);
#endif
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
