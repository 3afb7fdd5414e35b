// The ufunc methods and options, and the ready ufuncs (issue 49), beside hand-written loops, 2^24 float32 elements and
// a random bool mask (half true), one run. Rows:
//   reduce_where/hand             for i: if (m[i]) s += x[i]  (one float chain, as a plain C++ loop is)
//   reduce_where/hand_omp_simd    the same under `#pragma omp simd reduction(+ : s)` (vectorised, one thread)
//   reduce_where/ufx_serial       add.reduce(ufx::serial, x, ufx::where(m)): the map m ? x : 0 fused into the sum
//   reduce_where/ufx_host         the same on ufx::host
//   where_add/hand                for i: if (m[i]) z[i] = x[i] + y[i]
//   where_add/ufx_serial          add(ufx::serial, x, y, ufx::where(m), ufx::out(z)): z = m ? x + y : z
//   where_add/ufx_host            the same on ufx::host
//   add_at/hand                   for k: bins[idx[k]] += 1 (2^20 random int32 indices into 2^16 float bins)
//   add_at/ufx_serial             add.at(ufx::serial, bins, idx, 1.f): the indices checked and widened first, then
//                                 one in-order loop (NumPy's np.add.at(bins, idx, 1))
//   add_at/ufx_host               the same on ufx::host (one row: one thread, as NumPy's)
//   add_at/ufx_ready_serial       ufx::add.at(ufx::serial, bins, idx, 1.f): the ready ufunc (ufx/ufuncs.hpp)
//   ready_add/hand                for i: z[i] = x[i] + y[i]
//   ready_add/lambda_serial       ufx::vectorize([](float a, float b) { return a + b; })(ufx::serial, x, y, out(z))
//   ready_add/ufx_add_serial      ufx::add(ufx::serial, x, y, ufx::out(z)): the ready ufunc, the same kernel
//   chain5/hand                   for i: z[i] = (x[i] * 2 + y[i]) * x[i] - y[i] / 3 (five operations, one loop)
//   chain5/lambda_serial          the same expression as one ufx::vectorize lambda, ufx::serial
//   chain5/operators_serial       ufx::eval((lx * 2.f + ly) * lx - ly / 3.f, ufx::serial, ufx::out(z)): five ready
//                                 ufuncs by operators on lazy operands, fused into one pass
#include <benchmark/benchmark.h>

#include <cstddef>
#include <random>
#include <ufx/ufx.hpp>
#include <vector>

#include "bench_common.hpp"

namespace {

constexpr std::size_t n = std::size_t(1) << 24;

struct data {
  std::vector<float> x = ufx_bench::random_vector(n, 1), y = ufx_bench::random_vector(n, 2), z = std::vector<float>(n);
  ufx::ndarray<bool, 1> m{{static_cast<ufx::index_t>(n)}};
  data() {
    std::mt19937 gen(3);
    for (std::size_t i = 0; i < n; ++i) m.data()[i] = (gen() & 1u) != 0;
  }
};
const data& get() {
  static const data d;
  return d;
}

struct add_fn {
  float operator()(float a, float b) const { return a + b; }
};
const auto add = ufx::vectorize(add_fn{}).identity(0.f);

enum class how { hand, hand_omp_simd, ufx_serial, ufx_host, ready_serial, lambda_serial };

template <how H>
void bm_reduce_where(benchmark::State& state) {
  const data& d = get();
  const float* x = d.x.data();
  const bool* m = d.m.data();
  for (auto _ : state) {
    float s = 0.f;
    if constexpr (H == how::hand) {
      for (std::size_t i = 0; i < n; ++i)
        if (m[i]) s += x[i];
    } else if constexpr (H == how::hand_omp_simd) {
#pragma omp simd reduction(+ : s)
      for (std::size_t i = 0; i < n; ++i) s += m[i] ? x[i] : 0.f;
    } else if constexpr (H == how::ufx_serial) {
      s = add.reduce(ufx::serial, d.x, ufx::where(d.m));
    } else {
      s = add.reduce(ufx::host, d.x, ufx::where(d.m));
    }
    benchmark::DoNotOptimize(s);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n * (sizeof(float) + sizeof(bool))));
}

template <how H>
void bm_where_add(benchmark::State& state) {
  data& d = const_cast<data&>(get());
  for (auto _ : state) {
    if constexpr (H == how::hand) {
      const float *x = d.x.data(), *y = d.y.data();
      const bool* m = d.m.data();
      float* z = d.z.data();
      for (std::size_t i = 0; i < n; ++i)
        if (m[i]) z[i] = x[i] + y[i];
    } else if constexpr (H == how::ufx_serial) {
      add(ufx::serial, d.x, d.y, ufx::where(d.m), ufx::out(d.z));
    } else {
      add(ufx::host, d.x, d.y, ufx::where(d.m), ufx::out(d.z));
    }
    benchmark::DoNotOptimize(d.z.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n * (4 * sizeof(float) + sizeof(bool))));
}

constexpr std::size_t n_idx = std::size_t(1) << 20, n_bins = std::size_t(1) << 16;

template <how H>
void bm_add_at(benchmark::State& state) {
  std::vector<int> idx(n_idx);
  std::mt19937 gen(4);
  for (auto& i : idx) i = static_cast<int>(gen() % n_bins);
  std::vector<float> bins(n_bins, 0.f);
  for (auto _ : state) {
    if constexpr (H == how::hand) {
      for (std::size_t k = 0; k < n_idx; ++k) bins[static_cast<std::size_t>(idx[k])] += 1.f;
    } else if constexpr (H == how::ufx_serial) {
      add.at(ufx::serial, bins, idx, 1.f);
    } else if constexpr (H == how::ready_serial) {
      ufx::add.at(ufx::serial, bins, idx, 1.f);
    } else {
      add.at(ufx::host, bins, idx, 1.f);
    }
    benchmark::DoNotOptimize(bins.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n_idx));
}

template <how H>
void bm_ready_add(benchmark::State& state) {
  data& d = const_cast<data&>(get());
  const auto lambda = ufx::vectorize([](float a, float b) { return a + b; });
  for (auto _ : state) {
    if constexpr (H == how::hand) {
      const float *x = d.x.data(), *y = d.y.data();
      float* z = d.z.data();
      for (std::size_t i = 0; i < n; ++i) z[i] = x[i] + y[i];
    } else if constexpr (H == how::lambda_serial) {
      lambda(ufx::serial, d.x, d.y, ufx::out(d.z));
    } else {
      ufx::add(ufx::serial, d.x, d.y, ufx::out(d.z));
    }
    benchmark::DoNotOptimize(d.z.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n * 3 * sizeof(float)));
}

template <how H>
void bm_chain5(benchmark::State& state) {
  data& d = const_cast<data&>(get());
  const auto lambda = ufx::vectorize([](float a, float b) { return (a * 2.f + b) * a - b / 3.f; });
  const auto lx = ufx::lazy(d.x), ly = ufx::lazy(d.y);
  for (auto _ : state) {
    if constexpr (H == how::hand) {
      const float *x = d.x.data(), *y = d.y.data();
      float* z = d.z.data();
      for (std::size_t i = 0; i < n; ++i) z[i] = (x[i] * 2.f + y[i]) * x[i] - y[i] / 3.f;
    } else if constexpr (H == how::lambda_serial) {
      lambda(ufx::serial, d.x, d.y, ufx::out(d.z));
    } else {
      ufx::eval((lx * 2.f + ly) * lx - ly / 3.f, ufx::serial, ufx::out(d.z));
    }
    benchmark::DoNotOptimize(d.z.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n * 3 * sizeof(float)));
}

} // namespace

BENCHMARK(bm_reduce_where<how::hand>)->Name("reduce_where/hand")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_reduce_where<how::hand_omp_simd>)
    ->Name("reduce_where/hand_omp_simd")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(bm_reduce_where<how::ufx_serial>)
    ->Name("reduce_where/ufx_serial")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(bm_reduce_where<how::ufx_host>)->Name("reduce_where/ufx_host")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_where_add<how::hand>)->Name("where_add/hand")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_where_add<how::ufx_serial>)->Name("where_add/ufx_serial")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_where_add<how::ufx_host>)->Name("where_add/ufx_host")->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK(bm_add_at<how::hand>)->Name("add_at/hand")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_add_at<how::ufx_serial>)->Name("add_at/ufx_serial")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_add_at<how::ufx_host>)->Name("add_at/ufx_host")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_add_at<how::ready_serial>)->Name("add_at/ufx_ready_serial")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_ready_add<how::hand>)->Name("ready_add/hand")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_ready_add<how::lambda_serial>)
    ->Name("ready_add/lambda_serial")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(bm_ready_add<how::ready_serial>)
    ->Name("ready_add/ufx_add_serial")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(bm_chain5<how::hand>)->Name("chain5/hand")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_chain5<how::lambda_serial>)->Name("chain5/lambda_serial")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_chain5<how::ready_serial>)->Name("chain5/operators_serial")->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
