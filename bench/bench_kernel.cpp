// Raw kernels (ufx::kernel) on the CPU targets: what the sim's GPU semantics cost.
// - barrier: one block of 256 threads passing K barriers, per (thread x barrier): the fiber switch;
// - tiled matmul 256 x 256 (the tutorial's 16 x 16 tiles) on ufx::sim, ufx::host and ufx::serial,
//   with the shared-array checks (operator()) and without them (through data()), beside the
//   grid(2) matmul kernel and a hand-written loop;
// - vector add as a kernel beside ufx::vectorize and a hand-written loop: the per-thread cost of
//   running an elementwise body as fibers (use vectorize for elementwise work).
#include <benchmark/benchmark.h>

#include <vector>

#include <ufx/ufx.hpp>

#include "bench_common.hpp"
#include "tutorial_kernels.hpp"

namespace {

using tutorial::TPB;

struct barriers_body {
  UFX_HD void operator()(const ufx::thread& t, int k, ufx::ndview<int, 1> out) const {
    int acc = 0;
    for (int i = 0; i < k; ++i) {
      acc += static_cast<int>(t.thread_idx().x);
      t.sync();
    }
    out(t.grid<1>()) = acc;
  }
};

template <bool Checked>
struct tiled_body {
  UFX_HD void operator()(const ufx::thread& t, ufx::shared<float[TPB][TPB]> sA, ufx::shared<float[TPB][TPB]> sB,
                         ufx::ndview<const float, 2> A, ufx::ndview<const float, 2> B, ufx::ndview<float, 2> C) const {
    auto [x, y] = t.grid<2>();
    const auto tx = t.thread_idx().x, ty = t.thread_idx().y;
    float* a = sA.data();
    float* b = sB.data();
    float tmp = 0;
    for (ufx::index_t i = 0; i < t.grid_dim().x; ++i) {
      const float va = (x < A.extent(0) && ty + i * TPB < A.extent(1)) ? A(x, ty + i * TPB) : 0.f;
      const float vb = (y < B.extent(1) && tx + i * TPB < B.extent(0)) ? B(tx + i * TPB, y) : 0.f;
      if constexpr (Checked) sA(tx, ty) = va, sB(tx, ty) = vb;
      else a[tx * TPB + ty] = va, b[tx * TPB + ty] = vb;
      t.sync();
      if constexpr (Checked)
        for (int j = 0; j < TPB; ++j) tmp += sA(tx, j) * sB(j, ty);
      else
        for (int j = 0; j < TPB; ++j) tmp += a[tx * TPB + j] * b[j * TPB + ty];
      t.sync();
    }
    if (x < C.extent(0) && y < C.extent(1)) C(x, y) = tmp;
  }
};

template <class Target>
void BM_barrier(benchmark::State& state) {
  const int k = static_cast<int>(state.range(0));
  std::vector<int> out(256);
  auto kern = ufx::kernel(barriers_body{}, "barriers");
  for (auto _ : state) {
    kern[{1, 256}](Target{}, k, out);
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["ns_per_thread_barrier"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * 256.0 * k, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_barrier<ufx::serial_t>)->Arg(1)->Arg(64)->Unit(benchmark::kMicrosecond);

struct matrices {
  int n;
  ufx::ndarray<float, 2> A, B, C;
  explicit matrices(int n_) : n(n_), A({n_, n_}), B({n_, n_}), C({n_, n_}) {
    const auto a = ufx_bench::random_vector(static_cast<std::size_t>(n * n), 1),
               b = ufx_bench::random_vector(static_cast<std::size_t>(n * n), 2);
    std::copy(a.begin(), a.end(), A.data());
    std::copy(b.begin(), b.end(), B.data());
  }
  ufx::launch_config tiles() const {
    const unsigned g = static_cast<unsigned>((n + TPB - 1) / TPB);
    return {{g, g}, {TPB, TPB}};
  }
};

template <class Target, bool Checked>
void BM_tiled_matmul(benchmark::State& state) {
  matrices m(static_cast<int>(state.range(0)));
  auto kern = ufx::kernel(tiled_body<Checked>{}, "tiled");
  for (auto _ : state) {
    kern[m.tiles()](Target{}, m.A, m.B, m.C);
    benchmark::DoNotOptimize(m.C.data());
  }
}
BENCHMARK(BM_tiled_matmul<ufx::sim_t, true>)->Arg(256)->Unit(benchmark::kMillisecond);
// the same launch under ufx::profile (issue 51: within 2x of the checked run)
void BM_tiled_matmul_profiled(benchmark::State& state) {
  matrices m(static_cast<int>(state.range(0)));
  auto kern = ufx::kernel(tiled_body<true>{}, "tiled");
  for (auto _ : state) {
    const ufx::profile_report p = ufx::profile(ufx::sim, [&](auto t) { kern[m.tiles()](t, m.A, m.B, m.C); });
    benchmark::DoNotOptimize(p.kernels.data());
  }
}
BENCHMARK(BM_tiled_matmul_profiled)->Arg(256)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_tiled_matmul<ufx::sim_t, false>)->Arg(256)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_tiled_matmul<ufx::host_t, true>)->Arg(256)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_tiled_matmul<ufx::serial_t, true>)->Arg(256)->Unit(benchmark::kMillisecond);

void BM_grid2_matmul_host(benchmark::State& state) {
  matrices m(static_cast<int>(state.range(0)));
  auto kern = ufx::kernel(tutorial::matmul{}, "matmul");
  for (auto _ : state) {
    kern[m.tiles()](ufx::host, m.A, m.B, m.C);
    benchmark::DoNotOptimize(m.C.data());
  }
}
BENCHMARK(BM_grid2_matmul_host)->Arg(256)->Unit(benchmark::kMillisecond);

void BM_matmul_loop(benchmark::State& state) {
  matrices m(static_cast<int>(state.range(0)));
  const int n = m.n;
  for (auto _ : state) {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        float s = 0;
        for (int k = 0; k < n; ++k) s += m.A(i, k) * m.B(k, j);
        m.C(i, j) = s;
      }
    benchmark::DoNotOptimize(m.C.data());
  }
}
BENCHMARK(BM_matmul_loop)->Arg(256)->Unit(benchmark::kMillisecond);

void BM_add_kernel_host(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto x = ufx_bench::random_vector(n, 1), y = ufx_bench::random_vector(n, 2);
  std::vector<float> out(n);
  auto kern = ufx::kernel(tutorial::vector_add{}, "add");
  for (auto _ : state) {
    kern.forall(static_cast<ufx::index_t>(n))(ufx::host, x, y, out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n * 12));
}
BENCHMARK(BM_add_kernel_host)->Arg(1 << 16)->Arg(1 << 20)->Unit(benchmark::kMicrosecond);

void BM_add_vectorize_host(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto x = ufx_bench::random_vector(n, 1), y = ufx_bench::random_vector(n, 2);
  std::vector<float> out(n);
  auto add = ufx::vectorize([](float a, float b) { return a + b; });
  for (auto _ : state) {
    add(ufx::host, x, y, ufx::out(out));
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n * 12));
}
BENCHMARK(BM_add_vectorize_host)->Arg(1 << 16)->Arg(1 << 20)->Unit(benchmark::kMicrosecond);

void BM_add_loop(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto x = ufx_bench::random_vector(n, 1), y = ufx_bench::random_vector(n, 2);
  std::vector<float> out(n);
  for (auto _ : state) {
    for (std::size_t i = 0; i < n; ++i) out[i] = x[i] + y[i];
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n * 12));
}
BENCHMARK(BM_add_loop)->Arg(1 << 16)->Arg(1 << 20)->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
