// The ufunc methods and options (issue 49) beside hand-written loops, 2^24 float32 elements and a random bool mask
// (half true), one run. Rows:
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

enum class how { hand, hand_omp_simd, ufx_serial, ufx_host };

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
    } else {
      add.at(ufx::host, bins, idx, 1.f);
    }
    benchmark::DoNotOptimize(bins.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n_idx));
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

BENCHMARK_MAIN();
