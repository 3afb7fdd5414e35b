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
#include <string>
#include <type_traits>
#include <vector>

#include <ufx/ufx.hpp>

#include "bench_common.hpp"
#include "tutorial_kernels.hpp"

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
      thrust::transform(thrust::cuda::par_nosync, thrust::device_pointer_cast(x.data()),
                        thrust::device_pointer_cast(x.data()) + n, thrust::device_pointer_cast(y.data()),
                        thrust::device_pointer_cast(z.data()), Op{});
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

// ---- raw kernels: ufx::kernel beside the same kernel written as a plain __global__ (data on the
// device; the ufx launch includes its end-of-call synchronisation, the plain one a cudaDeviceSynchronize)

using tutorial::TPB;

__global__ void plain_add(const float* x, const float* y, float* out, long long n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] + y[i];
}

__global__ void plain_tiled(const float* A, const float* B, float* C, int n) {
  __shared__ float sA[TPB][TPB], sB[TPB][TPB];
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  const int tx = threadIdx.x, ty = threadIdx.y;
  float tmp = 0;
  for (int i = 0; i < static_cast<int>(gridDim.x); ++i) {
    sA[tx][ty] = (x < n && ty + i * TPB < n) ? A[x * n + ty + i * TPB] : 0.f;
    sB[tx][ty] = (y < n && tx + i * TPB < n) ? B[(tx + i * TPB) * n + y] : 0.f;
    __syncthreads();
    for (int j = 0; j < TPB; ++j) tmp += sA[tx][j] * sB[j][ty];
    __syncthreads();
  }
  if (x < n && y < n) C[x * n + y] = tmp;
}

template <bool Ufx>
void bm_kernel_add(benchmark::State& state) {
  if (!have_gpu(state)) return;
  const auto n = static_cast<std::size_t>(state.range(0));
  auto x = ufx::to_device(random_vector(n, 1), ufx::cuda), y = ufx::to_device(random_vector(n, 2), ufx::cuda);
  ufx::device_array<float, 1> z({static_cast<ufx::index_t>(n)}, ufx::cuda);
  auto k = ufx::kernel(tutorial::vector_add{}, "add");
  const unsigned threads = 256, blocks = static_cast<unsigned>((n + threads - 1) / threads);
  timed(state, [&] {
    if constexpr (Ufx) k[{blocks, threads}](x, y, z);
    else {
      plain_add<<<blocks, threads>>>(x.data(), y.data(), z.data(), static_cast<long long>(n));
      cudaDeviceSynchronize();
    }
  });
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * n * 3 * sizeof(float)));
}

template <bool Ufx>
void bm_kernel_tiled(benchmark::State& state) {
  if (!have_gpu(state)) return;
  const int n = static_cast<int>(state.range(0));
  const auto count = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  auto hA = random_vector(count, 1), hB = random_vector(count, 2);
  ufx::ndarray<float, 2> A({n, n}), B({n, n});
  std::copy(hA.begin(), hA.end(), A.data());
  std::copy(hB.begin(), hB.end(), B.data());
  auto dA = ufx::to_device(A, ufx::cuda), dB = ufx::to_device(B, ufx::cuda);
  ufx::device_array<float, 2> dC({n, n}, ufx::cuda);
  auto k = ufx::kernel(tutorial::tiled_matmul{}, "tiled");
  const unsigned g = static_cast<unsigned>((n + TPB - 1) / TPB);
  timed(state, [&] {
    if constexpr (Ufx) k[{{g, g}, {TPB, TPB}}](dA, dB, dC);
    else {
      plain_tiled<<<::dim3(g, g), ::dim3(TPB, TPB)>>>(dA.data(), dB.data(), dC.data(), n);
      cudaDeviceSynchronize();
    }
  });
  state.counters["GFLOPS"] =
      benchmark::Counter(2.0 * n * n * static_cast<double>(n) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate, benchmark::Counter::kIs1000);
}

void kernel_sizes(benchmark::internal::Benchmark* b) {
  for (int k : {12, 20, 24, 27}) b->Arg(int64_t{1} << k);
  b->UseManualTime()->Unit(benchmark::kMicrosecond);
}
void matmul_sizes(benchmark::internal::Benchmark* b) {
  for (int n : {256, 1024, 4096}) b->Arg(n);
  b->UseManualTime()->Unit(benchmark::kMicrosecond);
}

BENCHMARK(bm_kernel_add<true>)->Name("kernel_add/ufx_kernel")->Apply(kernel_sizes);
BENCHMARK(bm_kernel_add<false>)->Name("kernel_add/plain_cuda")->Apply(kernel_sizes);
BENCHMARK(bm_kernel_tiled<true>)->Name("kernel_tiled_matmul/ufx_kernel")->Apply(matmul_sizes);
BENCHMARK(bm_kernel_tiled<false>)->Name("kernel_tiled_matmul/plain_cuda")->Apply(matmul_sizes);

// ---- data larger than a chunk: host arrays streamed through the GPU (issue #10's bar: >= 85% of
// pinned host-to-device bandwidth for the chunked add), against cudaMemcpy of the same bytes.
constexpr std::size_t chunk_n = std::size_t{1} << 27; // 512 MiB per array: 1.5 GiB moved per add

template <bool Pinned>
void bm_chunked_add(benchmark::State& state) {
  if (!have_gpu(state)) return;
  using vec = std::conditional_t<Pinned, ufx::pinned_vector<float>, std::vector<float>>;
  vec x(chunk_n, 1.f), y(chunk_n, 2.f), z(chunk_n);
  auto add = ufx::vectorize(add_op{});
  const auto t = ufx::chunked(ufx::cuda, static_cast<std::size_t>(state.range(0)) << 20);
  timed(state, [&] { add(t, x, y, ufx::out(z)); });
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * 3 * chunk_n * sizeof(float)));
  state.SetLabel(std::to_string(state.range(0)) + " MiB chunks");
}

template <bool Pinned>
void bm_memcpy_h2d(benchmark::State& state) {
  if (!have_gpu(state)) return;
  using vec = std::conditional_t<Pinned, ufx::pinned_vector<float>, std::vector<float>>;
  vec h(3 * chunk_n, 1.f);
  ufx::device_array<float, 1> d({static_cast<ufx::index_t>(3 * chunk_n)}, ufx::cuda);
  timed(state, [&] { cudaMemcpy(d.data(), h.data(), 3 * chunk_n * sizeof(float), cudaMemcpyHostToDevice); });
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * 3 * chunk_n * sizeof(float)));
}

void chunk_sizes(benchmark::internal::Benchmark* b) {
  for (int mib : {64, 256}) b->Arg(mib);
  b->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(3);
}

BENCHMARK(bm_memcpy_h2d<true>)
    ->Name("bulk/cudaMemcpy_h2d_pinned")
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);
BENCHMARK(bm_memcpy_h2d<false>)
    ->Name("bulk/cudaMemcpy_h2d_pageable")
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);
BENCHMARK(bm_chunked_add<true>)->Name("bulk/chunked_add_pinned")->Apply(chunk_sizes);
BENCHMARK(bm_chunked_add<false>)->Name("bulk/chunked_add_pageable")->Apply(chunk_sizes);

} // namespace

BENCHMARK_MAIN();
