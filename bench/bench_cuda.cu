// ufx::cuda against the GPU peers in C++: float32 add, exp(-x*x)*sin(y)+1, sum and |x| sum, with
// data already on the device and with host transfers counted, beside thrust::transform,
// cub::DeviceReduce and a device-to-device cudaMemcpy (the bandwidth reference). Timed with CUDA
// events (manual time); bytes count every operand once. CuPy and Numba-CUDA run the same
// workloads in ../shared/gpu/peers.py. Skips (with a message) when no GPU answers.
#include <benchmark/benchmark.h>
#include <cub/device/device_reduce.cuh>
#include <cuda_runtime.h>
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/transform.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include <ufx/ufx.hpp>

#include "bench_common.hpp"

namespace {

using ufx_bench::random_vector;

struct add_op {
  UFX_HD float operator()(float a, float b) const { return a + b; }
};
struct expsin_op {
  UFX_HD float operator()(float x, float y) const { return expf(-x * x) * sinf(y) + 1.f; }
};
struct plus_op {
  UFX_HD float operator()(float a, float b) const { return a + b; }
};
struct abs_op { // the tutorials' reducer: partial results are never negative
  UFX_HD float operator()(float a, float b) const { return b < 0 ? a - b : a + b; }
};

/// Times `fn` once per iteration with CUDA events.
template <class Fn>
void timed(benchmark::State& state, Fn&& fn) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  fn(); // warm up (allocations, first launch)
  cudaDeviceSynchronize();
  for (auto _ : state) {
    cudaEventRecord(a);
    fn();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    state.SetIterationTime(ms * 1e-3);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
}

bool have_gpu(benchmark::State& state) {
  if (ufx::cuda_available()) return true;
  state.SkipWithError(("no GPU: " + std::string(ufx::cuda_unavailable_reason())).c_str());
  return false;
}

enum class who { ufx_device, ufx_transfers, thrust_peer, memcpy_peer };

template <class Op, who W>
void bm_binary(benchmark::State& state) {
  if (!have_gpu(state)) return;
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto hx = random_vector(n, 1), hy = random_vector(n, 2);
  std::vector<float> hz(n);
  auto x = ufx::to_device(hx, ufx::cuda), y = ufx::to_device(hy, ufx::cuda);
  ufx::device_array<float, 1> z({static_cast<ufx::index_t>(n)}, ufx::cuda);
  auto k = ufx::vectorize(Op{});
  timed(state, [&] {
    if constexpr (W == who::ufx_device) k(ufx::cuda, x, y, ufx::out(z));
    else if constexpr (W == who::ufx_transfers) k(ufx::cuda, hx, hy, ufx::out(hz));
    else if constexpr (W == who::thrust_peer)
      thrust::transform(thrust::cuda::par_nosync, thrust::device_pointer_cast(x.data()), thrust::device_pointer_cast(x.data()) + n,
                        thrust::device_pointer_cast(y.data()), thrust::device_pointer_cast(z.data()), Op{});
    else cudaMemcpyAsync(z.data(), x.data(), n * sizeof(float), cudaMemcpyDeviceToDevice);
  });
  const std::size_t operands = W == who::memcpy_peer ? 2 : 3;
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * n * operands * sizeof(float)));
}

template <class Op, who W>
void bm_reduce(benchmark::State& state) {
  if (!have_gpu(state)) return;
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto hx = random_vector(n, 3);
  auto x = ufx::to_device(hx, ufx::cuda);
  auto r = ufx::reducer(Op{}, 0.0f);
  ufx::device_array<float, 1> out({1}, ufx::cuda);
  std::size_t temp_bytes = 0;
  cub::DeviceReduce::Reduce(nullptr, temp_bytes, x.data(), out.data(), static_cast<int>(n), Op{}, 0.0f);
  ufx::device_array<char, 1> temp({static_cast<ufx::index_t>(temp_bytes)}, ufx::cuda);
  float result = 0;
  timed(state, [&] {
    if constexpr (W == who::ufx_device) result = r(ufx::cuda, x);
    else if constexpr (W == who::ufx_transfers) result = r(ufx::cuda, hx);
    else {
      cub::DeviceReduce::Reduce(temp.data(), temp_bytes, x.data(), out.data(), static_cast<int>(n), Op{}, 0.0f);
      cudaMemcpy(&result, out.data(), sizeof(float), cudaMemcpyDeviceToHost);
    }
  });
  benchmark::DoNotOptimize(result);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * n * sizeof(float)));
}

void sizes(benchmark::internal::Benchmark* b) {
  for (int k : {12, 16, 20, 24, 26, 27}) b->Arg(int64_t{1} << k);
  b->UseManualTime()->Unit(benchmark::kMicrosecond);
}

BENCHMARK(bm_binary<add_op, who::memcpy_peer>)->Name("copy/cudaMemcpy_d2d")->Apply(sizes);
BENCHMARK(bm_binary<add_op, who::ufx_device>)->Name("add/ufx_cuda_device")->Apply(sizes);
BENCHMARK(bm_binary<add_op, who::thrust_peer>)->Name("add/thrust_transform")->Apply(sizes);
BENCHMARK(bm_binary<add_op, who::ufx_transfers>)->Name("add/ufx_cuda_transfers")->Apply(sizes);
BENCHMARK(bm_binary<expsin_op, who::ufx_device>)->Name("expsin/ufx_cuda_device")->Apply(sizes);
BENCHMARK(bm_binary<expsin_op, who::thrust_peer>)->Name("expsin/thrust_transform")->Apply(sizes);
BENCHMARK(bm_reduce<plus_op, who::ufx_device>)->Name("sum/ufx_cuda_device")->Apply(sizes);
BENCHMARK(bm_reduce<plus_op, who::thrust_peer>)->Name("sum/cub_reduce")->Apply(sizes);
BENCHMARK(bm_reduce<plus_op, who::ufx_transfers>)->Name("sum/ufx_cuda_transfers")->Apply(sizes);
BENCHMARK(bm_reduce<abs_op, who::ufx_device>)->Name("abs_sum/ufx_cuda_device")->Apply(sizes);
BENCHMARK(bm_reduce<abs_op, who::thrust_peer>)->Name("abs_sum/cub_reduce")->Apply(sizes);

} // namespace

BENCHMARK_MAIN();
