// The host work of one call, counted in instructions by callgrind (check_call_cost.py runs this program under
// valgrind --tool=callgrind --collect-atstart=no): what ufx does on the calling thread to queue a call on a device
// stream, and to queue a graph's replay. The sim's stream is held by a gate while the calls are counted, so its worker
// runs nothing of them until the count is taken: the count is the front door, the steps, the launch checks and the
// queueing, the code a ufx::cuda call runs before cudaLaunchKernel. Instruction counts do not depend on the machine's
// load, so a change that adds host work to every call fails here without a GPU and without timing.
#include <ufx/ufx.hpp>

#include <valgrind/callgrind.h>

#include "tutorial_kernels.hpp"

#include <cstdio>
#include <cstdlib>
#include <future>
#include <vector>

namespace {

struct add_f {
  UFX_HD float operator()(float a, float b) const { return a + b; }
};

struct scale_body {
  UFX_HD void operator()(const ufx::thread& t, float k, ufx::ndview<float, 1> a) const {
    const auto i = t.grid<1>();
    if (i < a.extent(0)) a(i) *= k;
  }
};

constexpr int calls = 200;

/// Counts `calls` runs of `fn` as the dump named `name`, while a task that waits holds stream `s`.
template <class Fn>
void count(const char* name, const ufx::stream& s, Fn&& fn) {
  std::promise<void> open;
  auto opened = open.get_future().share();
  ufx::detail::sim_enqueue(s.native_handle(), [opened] { opened.wait(); });
  CALLGRIND_ZERO_STATS;
  CALLGRIND_TOGGLE_COLLECT;
  for (int i = 0; i < calls; ++i) fn();
  CALLGRIND_TOGGLE_COLLECT;
  CALLGRIND_DUMP_STATS_AT(name);
  open.set_value();
  s.synchronize();
}

/// Counts one run of `fn` as the dump named `name` (ufx::profile's cost: a launch run on the calling thread).
template <class Fn>
void count_once(const char* name, Fn&& fn) {
  CALLGRIND_ZERO_STATS;
  CALLGRIND_TOGGLE_COLLECT;
  fn();
  CALLGRIND_TOGGLE_COLLECT;
  CALLGRIND_DUMP_STATS_AT(name);
}

} // namespace

int main() {
  const int n = 1024;
  ufx::stream s(ufx::sim);
  const auto t = ufx::sim.on(s);
  auto add = ufx::vectorize(add_f{});
  auto scale = ufx::kernel(scale_body{}, "scale");
  auto x = ufx::to_device(std::vector<float>(n, 1.f), ufx::sim),
       y = ufx::to_device(std::vector<float>(n, 2.f), ufx::sim);
  ufx::device_array<float, 1> z({n}, ufx::sim);
  ufx::device_array<float, 0> total({}, ufx::sim);
  auto step = [&](auto st) {
    for (int k = 0; k < 5; ++k) {
      add(st, x, y, ufx::out(z));
      add(st, z, 1.f, ufx::out(z));
    }
  };
  ufx::graph g = ufx::capture(s, step);
  // warm: first calls load what later ones reuse
  for (int k = 0; k < 3; ++k) {
    add(t, x, y, ufx::out(z));
    ufx::sum(t, z, ufx::out(total));
    if (ufx::host_kernels_available()) scale.forall(n)(t, 1.f, z);
    g.launch();
  }
  s.synchronize();

  count("add", s, [&] { add(t, x, y, ufx::out(z)); });
  count("sum", s, [&] { ufx::sum(t, z, ufx::out(total)); });
  if (ufx::host_kernels_available()) count("kernel", s, [&] { scale.forall(n)(t, 1.f, z); });
  count("graph_replay_10", s, [&] { g.launch(); });
  count("calls_10", s, [&] { step(t); });
  if (ufx::host_kernels_available()) { // ufx::profile's cost: the tiled matmul of 64^2, checked and profiled
    const int m = 64;
    ufx::ndarray<float, 2> a({m, m}, 1.f), b({m, m}, 2.f);
    for (int i = 0; i < m * m; ++i) a.data()[i] = static_cast<float>(i % 7);
    auto A = ufx::to_device(a, ufx::sim), B = ufx::to_device(b, ufx::sim);
    ufx::device_array<float, 2> C({m, m}, ufx::sim), D({m, m}, ufx::sim);
    auto tiled = ufx::kernel(tutorial::tiled_matmul{}, "tiled");
    const ufx::launch_config c{{m / tutorial::TPB, m / tutorial::TPB}, {tutorial::TPB, tutorial::TPB}};
    count_once("matmul_checked", [&] { tiled[c](ufx::sim, A, B, C); });
    count_once("matmul_profiled", [&] {
      const ufx::profile_report p = ufx::profile(ufx::sim, [&](auto st) { tiled[c](st, A, B, D); });
      if (p.kernels.size() != 1) std::abort();
    });
  }
  std::printf("%d\n", calls);
  return z.to_host()(0) == 4.f ? 0 : 1;
}
