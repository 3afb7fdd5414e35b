// The KeOps benchmark: a Gaussian-kernel sum r_i = sum_j exp(-|x_i - y_j|^2 / s) over n points x
// and m points y in 3-D (float32, points stored as structs), at n = m = 10^3, 10^4 and 10^5.
// ufx computes it as transform_reduce over an (n, 1) and an (m) operand broadcast to (n, m), reduced
// along axis 1, without materialising the (n, m) matrix. Peers: the hand-written OpenMP double loop
// (`parallel for` over x, an `omp simd` reduction over y) and, up to 10^4, the plain double loop on
// one thread beside ufx::serial; `sqdist` sums |x_i - y_j|^2 instead, a map without exp, where the
// loop's own overhead shows. NumPy materialising the (n, m) matrix is in peers_numpy.py --keops
// (`gauss/numpy/...`). `sim_tiled` / `sim_lanes`: ufx::sim with the points already on the device,
// through the tiled device path (a block's tile of y in shared memory, reused by its 256 outputs)
// (four outputs a thread at 10^4; `sim_tiled_one_output_per_thread`: one, as before) and through
// the per-thread lanes it replaces (ufx::detail::testing().tiled_reduce.enabled off):
// the sim runs the threads one by one on one host thread, so their ratio is the host cost of the
// two device bodies, not a GPU's. Counters: pairs/s (n * m per call). On a shared machine compare ratios from
// one run with interleaved repetitions:
//   bench_keops --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true
#include <benchmark/benchmark.h>
#include <omp.h>

#include <cmath>
#include <random>
#include <type_traits>
#include <vector>

#include <ufx/ufx.hpp>

namespace {

struct pt {
  float x, y, z;
};

std::vector<pt> random_points(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  std::vector<pt> v(n);
  for (auto& p : v) p = {d(gen), d(gen), d(gen)};
  return v;
}

struct gauss {
  float inv_s;
  UFX_HD float operator()(const pt& a, const pt& b) const {
    const float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
    return std::exp(-(dx * dx + dy * dy + dz * dz) * inv_s);
  }
};

/// |a - b|^2: a map with no exp, where the loop's own overhead (loads, strides) shows.
struct sqdist {
  UFX_HD float operator()(const pt& a, const pt& b) const {
    const float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
    return dx * dx + dy * dy + dz * dz;
  }
};

constexpr float inv_s = 1.f / 0.25f;

template <class Map>
Map make_map() {
  if constexpr (std::is_same_v<Map, gauss>) return gauss{inv_s};
  else return Map{};
}

template <class Map>
__attribute__((noinline)) void omp_loop(const pt* x, std::size_t n, const pt* y, std::size_t m, float* r) {
  const Map g = make_map<Map>();
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    const pt a = x[i];
    float s = 0;
#pragma omp simd reduction(+ : s)
    for (std::size_t j = 0; j < m; ++j) s += g(a, y[j]);
    r[i] = s;
  }
}

template <class Map>
__attribute__((noinline)) void serial_loop(const pt* x, std::size_t n, const pt* y, std::size_t m, float* r) {
  const Map g = make_map<Map>();
  for (std::size_t i = 0; i < n; ++i) {
    float s = 0;
    for (std::size_t j = 0; j < m; ++j) s += g(x[i], y[j]);
    r[i] = s;
  }
}

enum class how { serial_loop, omp_loop, ufx_serial, ufx_host, sim_tiled, sim_tiled_one, sim_lanes };

template <class Map, how H>
void bm_gauss(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto xs = random_points(n, 1), ys = random_points(n, 2);
  const ufx::ndview<const pt, 2> x(xs.data(), {static_cast<ufx::index_t>(n), 1}); // (n, 1)
  const Map f = make_map<Map>();
  std::vector<float> r(n);
  constexpr bool on_sim = H == how::sim_tiled || H == how::sim_tiled_one || H == how::sim_lanes;
  const auto dx = ufx::to_device(on_sim ? x : ufx::ndview<const pt, 2>(xs.data(), {1, 1}), ufx::sim);
  const auto dy = ufx::to_device(on_sim ? ys : std::vector<pt>(1), ufx::sim);
  ufx::device_array<float, 1> dr({on_sim ? static_cast<ufx::index_t>(n) : 1}, ufx::sim);
  ufx::detail::testing().tiled_reduce.enabled = H != how::sim_lanes;
  ufx::detail::testing().tiled_outputs_per_thread = H == how::sim_tiled_one ? 1 : 0;
  for (auto _ : state) {
    if constexpr (H == how::serial_loop) serial_loop<Map>(xs.data(), n, ys.data(), n, r.data());
    else if constexpr (H == how::omp_loop) omp_loop<Map>(xs.data(), n, ys.data(), n, r.data());
    else if constexpr (H == how::ufx_serial)
      ufx::transform_reduce(ufx::serial, x, ys, f, ufx::plus{}, 0.f, ufx::axis{1}, ufx::out(r));
    else if constexpr (H == how::ufx_host)
      ufx::transform_reduce(ufx::host, x, ys, f, ufx::plus{}, 0.f, ufx::axis{1}, ufx::out(r));
    else ufx::transform_reduce(dx, dy, f, ufx::plus{}, 0.f, ufx::axis{1}, ufx::out(dr));
    benchmark::DoNotOptimize(r.data());
    benchmark::ClobberMemory();
  }
  ufx::detail::testing().tiled_reduce.enabled = true;
  ufx::detail::testing().tiled_outputs_per_thread = 0;
  state.counters["pairs/s"] = benchmark::Counter(static_cast<double>(n) * static_cast<double>(n),
                                                 benchmark::Counter::kIsIterationInvariantRate);
}

// 10^5 is 10^10 pairs a call: one iteration each (seconds on two cores).
void small(benchmark::internal::Benchmark* b) { b->Arg(1000)->Arg(10000)->UseRealTime(); }
void large(benchmark::internal::Benchmark* b) { b->Arg(100000)->Iterations(1)->UseRealTime(); }

} // namespace

BENCHMARK(bm_gauss<gauss, how::serial_loop>)->Name("gauss/serial_loop")->Apply(small);
BENCHMARK(bm_gauss<gauss, how::ufx_serial>)->Name("gauss/ufx_serial")->Apply(small);
BENCHMARK(bm_gauss<gauss, how::omp_loop>)->Name("gauss/omp_loop")->Apply(small);
BENCHMARK(bm_gauss<gauss, how::ufx_host>)->Name("gauss/ufx_host")->Apply(small);
BENCHMARK(bm_gauss<gauss, how::omp_loop>)->Name("gauss/omp_loop")->Apply(large);
BENCHMARK(bm_gauss<gauss, how::ufx_host>)->Name("gauss/ufx_host")->Apply(large);
BENCHMARK(bm_gauss<gauss, how::sim_tiled>)->Name("gauss/sim_tiled")->Apply(small);
BENCHMARK(bm_gauss<gauss, how::sim_tiled_one>)->Name("gauss/sim_tiled_one_output_per_thread")->Apply(small);
BENCHMARK(bm_gauss<gauss, how::sim_lanes>)->Name("gauss/sim_lanes")->Apply(small);
BENCHMARK(bm_gauss<sqdist, how::serial_loop>)->Name("sqdist/serial_loop")->Apply(small);
BENCHMARK(bm_gauss<sqdist, how::ufx_serial>)->Name("sqdist/ufx_serial")->Apply(small);
BENCHMARK(bm_gauss<sqdist, how::omp_loop>)->Name("sqdist/omp_loop")->Apply(small);
BENCHMARK(bm_gauss<sqdist, how::ufx_host>)->Name("sqdist/ufx_host")->Apply(small);
BENCHMARK(bm_gauss<sqdist, how::sim_tiled>)->Name("sqdist/sim_tiled")->Apply(small);
BENCHMARK(bm_gauss<sqdist, how::sim_tiled_one>)->Name("sqdist/sim_tiled_one_output_per_thread")->Apply(small);
BENCHMARK(bm_gauss<sqdist, how::sim_lanes>)->Name("sqdist/sim_lanes")->Apply(small);

BENCHMARK_MAIN();
