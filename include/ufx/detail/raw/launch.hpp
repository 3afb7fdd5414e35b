#pragma once
// Raw kernels, run side: the body every target runs (the user's function with its shared arrays and arguments), the CPU
// targets' launch limits and the entry of the host block runner (src/sim/block.cpp) that ufx::serial, ufx::host and
// ufx::sim run blocks on. Each target's `raw_kernel_hook` is in its folder (backend/<name>/kernel.hpp).
#include <array>
#include <string>

#include "ufx/detail/raw/blocks.hpp"
#include "ufx/detail/device/thread.hpp"
#include "ufx/detail/raw/args.hpp"
#include "ufx/detail/lib/runtime.hpp"

namespace ufx::detail {
int host_threads(); // cpu/executor.hpp: the host threads ufx::host uses
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

/// The launch limits of the CPU targets: those of a sim device, so a kernel that runs there runs on a GPU too (a
/// multiprocessor per host thread, for cooperative launches).
inline device_info host_kernel_limits(std::string_view target) {
  device_info d;
  d.target = std::string(target);
  d.max_threads_per_block = 1024;
  d.shared_memory_per_block = 48 << 10;
  d.warp_size = 32;
  d.multiprocessors = host_threads();
  return d;
}

template <class Body>
void run_thread_of(const void* body, const thread& t) {
  (*static_cast<const Body*>(body))(t);
}

/// How target Tag hands a kernel argument to the body: as it is, unless the target's folder specialises this (ufx::sim:
/// arrays that check their indices in every build).
template <class Tag>
struct kernel_arg_rule {
  template <class V>
  static V pass(const V& v) {
    return v;
  }
};
template <class Tag, class V>
V as_passed(const V& v) {
  return kernel_arg_rule<Tag>::pass(v);
}

/// Runs a kernel body's blocks on the host, `workers` at a time (`on_sim`: ufx::sim's launch).
template <class Traits, class Body>
void run_on_host(const launch_config& c, const Body& body, const std::string& label, std::string where, int workers,
                 bool on_sim = false) {
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
  l.on_sim = on_sim;
  // the array arguments, for the global-memory checks' messages (tracked views: ufx::sim)
  std::array<global_region, (Traits::n_args > 0 ? Traits::n_args : 1)> globals{};
  int n = 0;
  with_indices<static_cast<std::size_t>(Traits::n_args)>([&]<std::size_t... J>(std::index_sequence<J...>) {
    (
        [&] {
          const auto& a = get<J>(body.args);
          if constexpr (requires { a.is_tracked(); }) {
            using A = std::remove_cvref_t<decltype(a)>;
            global_region& g = globals[static_cast<std::size_t>(n++)];
            g.data = a.data();
            g.elem_size = sizeof(typename A::element_type);
            g.rank = A::rank;
            for (int k = 0; k < A::rank; ++k) g.extents[k] = a.extent(k), g.strides[k] = a.stride(k);
            g.argument = static_cast<int>(J) + 1;
            g.parameter = 1 + Traits::n_shared + static_cast<int>(J);
            g.read_only = std::is_const_v<typename A::element_type>;
            std::tie(g.lo, g.hi) = byte_range(a);
            l.track_global = l.track_global || a.is_tracked();
          }
        }(),
        ...);
  });
  l.globals = globals.data();
  l.global_count = n;
  run_blocks(l);
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
