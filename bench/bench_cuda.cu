// ufx::cuda against the GPU peers in C++: float32 add, exp(-x*x)*sin(y)+1, sum and |x| sum (and float16's add and sum),
// with data already on the device and with host transfers counted, beside thrust::transform, cub::DeviceReduce and a
// device-to-device cudaMemcpy (the bandwidth reference). Timed with CUDA events (manual time); bytes count every
// operand once. CuPy and Numba-CUDA run the same workloads in ../shared/gpu/peers.py. Skips (with a message) when no
// GPU answers.
#include <benchmark/benchmark.h>
#include <cub/device/device_reduce.cuh>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/transform.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include <ufx/ufx.hpp>

#include "bench_common.hpp"
#include "gufunc_cores.hpp"
#include "tutorial_kernels.hpp"

namespace {

using ufx_bench::random_halves;
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

// ufx_unstaged: host transfers without ufx's pinned staging (copy_staging off: CUDA's own copy of
// pageable memory), the path before issue #30, beside ufx_transfers in the same run
// ufx_device_out / cub_device: a reduction's value left in device memory (as CuPy's cp.sum
// returns a 0-d device array), beside ufx_device / thrust_peer, which bring the number to the host
enum class who { ufx_device, ufx_device_out, ufx_transfers, ufx_unstaged, thrust_peer, cub_device, memcpy_peer };

/// Turns ufx's staging of pageable host data off for a scope (ufx_unstaged rows).
struct unstaged_scope {
  bool on;
  explicit unstaged_scope(bool off) : on(ufx::detail::copy_staging().enabled) {
    if (off) ufx::detail::copy_staging().enabled = false;
  }
  ~unstaged_scope() { ufx::detail::copy_staging().enabled = on; }
};

template <class Op, who W>
void bm_binary(benchmark::State& state) {
  if (!have_gpu(state)) return;
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto hx = random_vector(n, 1), hy = random_vector(n, 2);
  std::vector<float> hz(n);
  auto x = ufx::to_device(hx, ufx::cuda), y = ufx::to_device(hy, ufx::cuda);
  ufx::device_array<float, 1> z({static_cast<ufx::index_t>(n)}, ufx::cuda);
  auto k = ufx::vectorize(Op{});
  const unstaged_scope staging(W == who::ufx_unstaged);
  timed(state, [&] {
    if constexpr (W == who::ufx_device) k(ufx::cuda, x, y, ufx::out(z));
    else if constexpr (W == who::ufx_transfers || W == who::ufx_unstaged) k(ufx::cuda, hx, hy, ufx::out(hz));
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
  const unstaged_scope staging(W == who::ufx_unstaged);
  timed(state, [&] {
    if constexpr (W == who::ufx_device) result = r(ufx::cuda, x);
    else if constexpr (W == who::ufx_device_out) r(ufx::cuda, x, ufx::axis{0}, ufx::keepdims, ufx::out(out));
    else if constexpr (W == who::ufx_transfers || W == who::ufx_unstaged) result = r(ufx::cuda, hx);
    else if constexpr (W == who::cub_device)
      cub::DeviceReduce::Reduce(temp.data(), temp_bytes, x.data(), out.data(), static_cast<int>(n), Op{}, 0.0f);
    else {
      cub::DeviceReduce::Reduce(temp.data(), temp_bytes, x.data(), out.data(), static_cast<int>(n), Op{}, 0.0f);
      cudaMemcpy(&result, out.data(), sizeof(float), cudaMemcpyDeviceToHost);
    }
  });
  benchmark::DoNotOptimize(result);
  if constexpr (W == who::ufx_device_out || W == who::cub_device) {
    const float got = out.to_host()(0), want = ufx::reduce(ufx::host, hx, Op{}, 0.0f);
    if (std::abs(got - want) > 1e-3f * (1.f + std::abs(want))) state.SkipWithError("wrong result");
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * n * sizeof(float)));
}

void sizes(benchmark::internal::Benchmark* b) {
  for (int k : {12, 16, 20, 24, 26, 27}) b->Arg(int64_t{1} << k);
  b->UseManualTime()->Unit(benchmark::kMicrosecond);
}

// float16 (issue 48): ufx::add of float16 device arrays (NumPy's float16 add: in float, rounded once; 8 halves a
// 16-byte access) beside thrust::transform with CUDA's __hadd (the same bits), and ufx::sum of float16 (a float
// accumulator, rounded once: CUB's TransformReduce over __half) beside CUB's TransformReduce called by hand.
struct half_add_op {
  __device__ __half operator()(__half a, __half b) const { return __hadd(a, b); }
};
struct half_to_float {
  __device__ float operator()(__half h) const { return __half2float(h); }
};
struct float_plus {
  __device__ float operator()(float a, float b) const { return a + b; }
};

template <who W>
void bm_half_add(benchmark::State& state) {
  if (!have_gpu(state)) return;
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto hx = random_halves(n, 1), hy = random_halves(n, 2);
  auto x = ufx::to_device(hx, ufx::cuda), y = ufx::to_device(hy, ufx::cuda);
  ufx::device_array<ufx::float16, 1> z({static_cast<ufx::index_t>(n)}, ufx::cuda);
  const auto* px = reinterpret_cast<const __half*>(x.data());
  const auto* py = reinterpret_cast<const __half*>(y.data());
  auto* pz = reinterpret_cast<__half*>(z.data());
  timed(state, [&] {
    if constexpr (W == who::ufx_device) ufx::add(ufx::cuda, x, y, ufx::out(z));
    else thrust::transform(thrust::cuda::par_nosync, px, px + n, py, pz, half_add_op{});
  });
  // the same bits as the host's float16 add (every 4099th element)
  const auto got = z.to_host();
  for (std::size_t i = 0; i < n; i += 4099) {
    const ufx::float16 g = got(static_cast<ufx::index_t>(i)), w = hx[i] + hy[i];
    if (g.bits() != w.bits() && !(ufx::math::isnan(g) && ufx::math::isnan(w))) state.SkipWithError("wrong result");
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * n * 3 * sizeof(ufx::float16)));
}

template <who W>
void bm_half_sum(benchmark::State& state) {
  if (!have_gpu(state)) return;
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto hx = random_halves(n, 3);
  auto x = ufx::to_device(hx, ufx::cuda);
  const auto* px = reinterpret_cast<const __half*>(x.data());
  ufx::device_array<float, 1> out({1}, ufx::cuda);
  std::size_t temp_bytes = 0;
  cub::DeviceReduce::TransformReduce(nullptr, temp_bytes, px, out.data(), static_cast<int>(n), float_plus{},
                                     half_to_float{}, 0.0f);
  ufx::device_array<char, 1> temp({static_cast<ufx::index_t>(temp_bytes)}, ufx::cuda);
  float result = 0;
  timed(state, [&] {
    if constexpr (W == who::ufx_device) {
      result = static_cast<float>(ufx::sum(ufx::cuda, x));
    } else {
      cub::DeviceReduce::TransformReduce(temp.data(), temp_bytes, px, out.data(), static_cast<int>(n), float_plus{},
                                         half_to_float{}, 0.0f);
      cudaMemcpy(&result, out.data(), sizeof(float), cudaMemcpyDeviceToHost);
      result = static_cast<float>(ufx::float16(result)); // NumPy's float16 sum: rounded once
    }
  });
  const float want = static_cast<float>(ufx::sum(ufx::host, hx));
  if (std::abs(result - want) > 1e-2f * (1.f + std::abs(want))) state.SkipWithError("wrong result");
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * n * sizeof(ufx::float16)));
}

BENCHMARK(bm_binary<add_op, who::memcpy_peer>)->Name("copy/cudaMemcpy_d2d")->Apply(sizes);
BENCHMARK(bm_binary<add_op, who::ufx_device>)->Name("add/ufx_cuda_device")->Apply(sizes);
BENCHMARK(bm_binary<add_op, who::thrust_peer>)->Name("add/thrust_transform")->Apply(sizes);
BENCHMARK(bm_binary<add_op, who::ufx_transfers>)->Name("add/ufx_cuda_transfers")->Apply(sizes);
BENCHMARK(bm_binary<add_op, who::ufx_unstaged>)->Name("add/ufx_cuda_transfers_unstaged")->Apply(sizes);
BENCHMARK(bm_binary<expsin_op, who::ufx_device>)->Name("expsin/ufx_cuda_device")->Apply(sizes);
BENCHMARK(bm_binary<expsin_op, who::thrust_peer>)->Name("expsin/thrust_transform")->Apply(sizes);
BENCHMARK(bm_reduce<plus_op, who::ufx_device>)->Name("sum/ufx_cuda_device")->Apply(sizes);
BENCHMARK(bm_reduce<plus_op, who::thrust_peer>)->Name("sum/cub_reduce")->Apply(sizes);
BENCHMARK(bm_reduce<plus_op, who::ufx_device_out>)->Name("sum/ufx_cuda_device_out")->Apply(sizes);
BENCHMARK(bm_reduce<plus_op, who::cub_device>)->Name("sum/cub_reduce_device")->Apply(sizes);
BENCHMARK(bm_reduce<plus_op, who::ufx_transfers>)->Name("sum/ufx_cuda_transfers")->Apply(sizes);
BENCHMARK(bm_reduce<plus_op, who::ufx_unstaged>)->Name("sum/ufx_cuda_transfers_unstaged")->Apply(sizes);
BENCHMARK(bm_reduce<abs_op, who::ufx_device>)->Name("abs_sum/ufx_cuda_device")->Apply(sizes);
BENCHMARK(bm_reduce<abs_op, who::thrust_peer>)->Name("abs_sum/cub_reduce")->Apply(sizes);
BENCHMARK(bm_half_add<who::ufx_device>)->Name("half_add/ufx_cuda_device")->Apply(sizes);
BENCHMARK(bm_half_add<who::thrust_peer>)->Name("half_add/thrust_transform")->Apply(sizes);
BENCHMARK(bm_half_sum<who::ufx_device>)->Name("half_sum/ufx_cuda_device")->Apply(sizes);
BENCHMARK(bm_half_sum<who::thrust_peer>)->Name("half_sum/cub_reduce")->Apply(sizes);

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

/// `Rows`: tutorial::tiled_matmul_rows, whose warps walk rows (ufx::profile's 4 sectors a request for the tutorial
/// kernel's 16, and no bank conflicts: docs/kernels.md).
template <bool Ufx, bool Rows = false>
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
  auto rows = ufx::kernel(tutorial::tiled_matmul_rows{}, "tiled_rows");
  const unsigned g = static_cast<unsigned>((n + TPB - 1) / TPB);
  timed(state, [&] {
    if constexpr (Ufx && Rows) rows[{{g, g}, {TPB, TPB}}](dA, dB, dC);
    else if constexpr (Ufx) k[{{g, g}, {TPB, TPB}}](dA, dB, dC);
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

// ---- ufx::add.at on the device (issue 49): 2^20 random indices into 2^16 int32 bins, by atomics (the ready ufunc's
// path), by the ordered gufunc (the path with the atomics switched off: one thread for a 1-D array, so 2^16 updates
// only; compare items per second), and a plain CUDA kernel of atomicAdd

__global__ void plain_scatter_add(int* bins, const long long* idx, const int* w, long long m) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < m) atomicAdd(&bins[idx[i]], w[i]);
}

template <int Path> // 0: ufx atomics, 1: ufx ordered, 2: plain CUDA
void bm_add_at(benchmark::State& state) {
  if (!have_gpu(state)) return;
  const long long m = state.range(0), bins_n = 1 << 16;
  std::vector<long long> hidx(static_cast<std::size_t>(m));
  std::vector<int> hw(static_cast<std::size_t>(m));
  std::uint64_t r = 12345;
  for (std::size_t i = 0; i < hidx.size(); ++i) {
    r = r * 6364136223846793005ull + 1442695040888963407ull;
    hidx[i] = static_cast<long long>((r >> 33) % static_cast<std::uint64_t>(bins_n));
    hw[i] = static_cast<int>(i % 7);
  }
  auto idx = ufx::to_device(hidx, ufx::cuda);
  auto w = ufx::to_device(hw, ufx::cuda);
  auto bins = ufx::to_device(std::vector<int>(static_cast<std::size_t>(bins_n), 0), ufx::cuda);
  auto& sw = ufx::detail::testing().at_atomics;
  sw.enabled = Path != 1;
  timed(state, [&] {
    if constexpr (Path == 2) {
      plain_scatter_add<<<static_cast<unsigned>((m + 255) / 256), 256>>>(bins.data(), idx.data(), w.data(), m);
      cudaDeviceSynchronize();
    } else {
      ufx::add.at(bins, idx, w);
    }
  });
  sw.enabled = true;
  state.SetItemsProcessed(state.iterations() * m);
}
BENCHMARK(bm_add_at<0>)->Name("add_at/ufx_atomics")->Arg(1 << 20)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(bm_add_at<1>)->Name("add_at/ufx_ordered")->Arg(1 << 16)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(bm_add_at<2>)->Name("add_at/plain_atomicAdd")->Arg(1 << 20)->UseManualTime()->Unit(benchmark::kMicrosecond);

BENCHMARK(bm_kernel_add<true>)->Name("kernel_add/ufx_kernel")->Apply(kernel_sizes);
BENCHMARK(bm_kernel_add<false>)->Name("kernel_add/plain_cuda")->Apply(kernel_sizes);
BENCHMARK(bm_kernel_tiled<true>)->Name("kernel_tiled_matmul/ufx_kernel")->Apply(matmul_sizes);
BENCHMARK(bm_kernel_tiled<false>)->Name("kernel_tiled_matmul/plain_cuda")->Apply(matmul_sizes);
BENCHMARK(bm_kernel_tiled<true, true>)->Name("kernel_tiled_matmul/ufx_kernel_rows")->Apply(matmul_sizes);

// ---- data larger than a chunk: host arrays streamed through the GPU (issue #10's bar: >= 85% of
// pinned host-to-device bandwidth for the chunked add), against cudaMemcpy of the same bytes.
constexpr std::size_t chunk_n = std::size_t{1} << 27; // 512 MiB per array: 1.5 GiB moved per add

/// `OneThread`: staging packed on the calling thread alone (before issue #30).
template <bool Pinned, bool OneThread = false>
void bm_chunked_add(benchmark::State& state) {
  if (!have_gpu(state)) return;
  using vec = std::conditional_t<Pinned, ufx::pinned_vector<float>, std::vector<float>>;
  vec x(chunk_n, 1.f), y(chunk_n, 2.f), z(chunk_n);
  auto add = ufx::vectorize(add_op{});
  const int threads = ufx::detail::copy_staging().threads;
  if (OneThread) ufx::detail::copy_staging().threads = 1;
  const auto t = ufx::chunked(ufx::cuda, static_cast<std::size_t>(state.range(0)) << 20);
  timed(state, [&] { add(t, x, y, ufx::out(z)); });
  ufx::detail::copy_staging().threads = threads;
  if (z[chunk_n - 1] != 3.f) state.SkipWithError("wrong result");
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
BENCHMARK(bm_chunked_add<false, true>)->Name("bulk/chunked_add_pageable_1thread")->Apply(chunk_sizes);

// ---- issue #30's table: the fixed cost of a call, axis sums, host data, small-core gufuncs and
// the KeOps-style kernel sum. The per-call rows time a loop of calls on the host clock (what a
// program in a loop sees: launch cost included), from the first call's start to the end of the
// last one's work.
constexpr int loop_calls = 2000;

template <class Fn>
void timed_loop(benchmark::State& state, Fn&& fn) {
  fn();
  cudaDeviceSynchronize();
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < loop_calls; ++i) fn();
    cudaDeviceSynchronize();
    const std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
    state.SetIterationTime(dt.count() / loop_calls);
  }
}

// ufx_wait: each call followed by ufx::synchronize (what every call did before issue #30)
enum class small { ufx, ufx_wait, plain, thrust_peer };

template <small W>
void bm_call_add(benchmark::State& state) {
  if (!have_gpu(state)) return;
  const auto n = static_cast<std::size_t>(state.range(0));
  auto x = ufx::to_device(random_vector(n, 1), ufx::cuda), y = ufx::to_device(random_vector(n, 2), ufx::cuda);
  ufx::device_array<float, 1> z({static_cast<ufx::index_t>(n)}, ufx::cuda);
  auto k = ufx::vectorize(add_op{});
  timed_loop(state, [&] {
    if constexpr (W == small::ufx) k(ufx::cuda, x, y, ufx::out(z));
    else if constexpr (W == small::ufx_wait) {
      k(ufx::cuda, x, y, ufx::out(z));
      ufx::synchronize(ufx::cuda);
    } else if constexpr (W == small::plain)
      plain_add<<<static_cast<unsigned>((n + 255) / 256), 256>>>(x.data(), y.data(), z.data(),
                                                                 static_cast<long long>(n));
    else
      thrust::transform(thrust::cuda::par_nosync, thrust::device_pointer_cast(x.data()),
                        thrust::device_pointer_cast(x.data()) + n, thrust::device_pointer_cast(y.data()),
                        thrust::device_pointer_cast(z.data()), add_op{});
  });
  const auto hx = x.to_host(), hy = y.to_host(), hz = z.to_host();
  if (hz.data()[n - 1] != hx.data()[n - 1] + hy.data()[n - 1]) state.SkipWithError("wrong result");
}

template <small W>
void bm_call_sum(benchmark::State& state) {
  if (!have_gpu(state)) return;
  const auto n = static_cast<std::size_t>(state.range(0));
  auto x = ufx::to_device(random_vector(n, 3), ufx::cuda);
  auto r = ufx::reducer(plus_op{}, 0.0f);
  ufx::device_array<float, 1> out({1}, ufx::cuda);
  std::size_t temp_bytes = 0;
  cub::DeviceReduce::Reduce(nullptr, temp_bytes, x.data(), out.data(), static_cast<int>(n), plus_op{}, 0.0f);
  ufx::device_array<char, 1> temp({static_cast<ufx::index_t>(temp_bytes)}, ufx::cuda);
  float* result = nullptr;
  cudaMallocHost(&result, sizeof(float));
  timed_loop(state, [&] {
    if constexpr (W == small::ufx) *result = r(ufx::cuda, x);
    else {
      cub::DeviceReduce::Reduce(temp.data(), temp_bytes, x.data(), out.data(), static_cast<int>(n), plus_op{}, 0.0f);
      cudaMemcpyAsync(result, out.data(), sizeof(float), cudaMemcpyDeviceToHost);
      cudaStreamSynchronize(nullptr);
    }
  });
  benchmark::DoNotOptimize(*result);
  cudaFreeHost(result);
}

// five loops of 2000 calls: an iteration's manual time is one call's, so the iteration count
// Google Benchmark would choose from --benchmark_min_time would run 2000 times too many calls
void loop_sizes(benchmark::internal::Benchmark* b) {
  b->Arg(1024)->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(5);
}

BENCHMARK(bm_call_add<small::ufx>)->Name("call_add/ufx_cuda")->Apply(loop_sizes);
BENCHMARK(bm_call_add<small::ufx_wait>)->Name("call_add/ufx_cuda_wait_each")->Apply(loop_sizes);
BENCHMARK(bm_call_add<small::plain>)->Name("call_add/plain_launch")->Apply(loop_sizes);
BENCHMARK(bm_call_add<small::thrust_peer>)->Name("call_add/thrust_transform")->Apply(loop_sizes);
BENCHMARK(bm_call_sum<small::ufx>)->Name("call_sum/ufx_cuda")->Apply(loop_sizes);
BENCHMARK(bm_call_sum<small::plain>)->Name("call_sum/cub_reduce")->Apply(loop_sizes);

// ---- issue #50: ten small calls (adds of 1024 floats on a stream), called one by one or replayed from a graph:
// ufx's calls, a ufx::graph of them (ufx::capture), and a CUDA graph of ten plain kernels captured by hand. Per call:
// `host` the host's time to queue them (the wait after the loop not counted), else until the stream has run them.
enum class ten { ufx_calls, ufx_graph, cuda_graph };

template <ten W, bool Host>
void bm_graph10(benchmark::State& state) {
  if (!have_gpu(state)) return;
  const int n = 1024, rounds = 200;
  auto x = ufx::to_device(random_vector(n, 1), ufx::cuda), y = ufx::to_device(random_vector(n, 2), ufx::cuda);
  ufx::device_array<float, 1> z({n}, ufx::cuda);
  auto k = ufx::vectorize(add_op{});
  ufx::stream s(ufx::cuda);
  const auto st = static_cast<cudaStream_t>(s.native_handle());
  auto step = [&](auto t) {
    for (int c = 0; c < 10; ++c) k(t, x, y, ufx::out(z));
  };
  ufx::graph g = ufx::capture(s, step).named("ten adds");
  cudaGraph_t plain_graph = nullptr;
  cudaGraphExec_t plain = nullptr;
  cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal);
  for (int c = 0; c < 10; ++c) plain_add<<<(n + 255) / 256, 256, 0, st>>>(x.data(), y.data(), z.data(), n);
  cudaStreamEndCapture(st, &plain_graph);
  cudaGraphInstantiate(&plain, plain_graph, 0);
  auto round = [&] {
    if constexpr (W == ten::ufx_calls) step(ufx::cuda.on(s));
    else if constexpr (W == ten::ufx_graph) g.launch();
    else cudaGraphLaunch(plain, st);
  };
  round();
  s.synchronize();
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < rounds; ++r) round();
    const auto t1 = std::chrono::steady_clock::now();
    s.synchronize();
    const std::chrono::duration<double> dt = (Host ? t1 : std::chrono::steady_clock::now()) - t0;
    state.SetIterationTime(dt.count() / (rounds * 10));
  }
  cudaGraphExecDestroy(plain);
  cudaGraphDestroy(plain_graph);
  const auto hx = x.to_host(), hy = y.to_host(), hz = z.to_host();
  if (hz.data()[n - 1] != hx.data()[n - 1] + hy.data()[n - 1]) state.SkipWithError("wrong result");
}
void graph_rows(benchmark::internal::Benchmark* b) { b->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(5); }
BENCHMARK(bm_graph10<ten::ufx_calls, false>)->Name("graph10/ufx_calls")->Apply(graph_rows);
BENCHMARK(bm_graph10<ten::ufx_graph, false>)->Name("graph10/ufx_graph")->Apply(graph_rows);
BENCHMARK(bm_graph10<ten::cuda_graph, false>)->Name("graph10/cuda_graph")->Apply(graph_rows);
BENCHMARK(bm_graph10<ten::ufx_calls, true>)->Name("graph10/ufx_calls_host")->Apply(graph_rows);
BENCHMARK(bm_graph10<ten::ufx_graph, true>)->Name("graph10/ufx_graph_host")->Apply(graph_rows);
BENCHMARK(bm_graph10<ten::cuda_graph, true>)->Name("graph10/cuda_graph_host")->Apply(graph_rows);

/// Sums along axis 1 (rows) and axis 0 (columns) of a row-major side x side matrix on the device.
template <int Axis>
void bm_axis(benchmark::State& state) {
  if (!have_gpu(state)) return;
  const auto side = static_cast<ufx::index_t>(state.range(0));
  const auto h = random_vector(static_cast<std::size_t>(side * side), 4);
  ufx::ndarray<float, 2> m({side, side});
  std::copy(h.begin(), h.end(), m.data());
  auto dm = ufx::to_device(m, ufx::cuda);
  ufx::device_array<float, 1> out({side}, ufx::cuda);
  timed(state, [&] { ufx::reduce(ufx::cuda, dm, ufx::plus{}, 0.0f, ufx::axis{Axis}, ufx::out(out)); });
  // checked against the host's sum of each row or column, within float rounding
  const auto got = out.to_host();
  const auto want = ufx::sum(ufx::host, m, ufx::axis{Axis});
  for (ufx::index_t i = 0; i < side; ++i)
    if (std::abs(got(i) - want(i)) > 1e-3f * (1.f + std::abs(want(i)))) {
      state.SkipWithError("wrong result");
      break;
    }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * side * side * sizeof(float)));
}
BENCHMARK(bm_axis<1>)->Name("axis1_sum/ufx_cuda")->Arg(16384)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(bm_axis<0>)->Name("axis0_sum/ufx_cuda")->Arg(16384)->UseManualTime()->Unit(benchmark::kMicrosecond);

/// A full sum of host data: a pinned vector (the pageable std::vector is sum/ufx_cuda_transfers).
void bm_sum_pinned(benchmark::State& state) {
  if (!have_gpu(state)) return;
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto h = random_vector(n, 3);
  ufx::pinned_vector<float> hx(h.begin(), h.end());
  auto r = ufx::reducer(plus_op{}, 0.0f);
  float result = 0;
  timed(state, [&] { result = r(ufx::cuda, hx); });
  benchmark::DoNotOptimize(result);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * n * sizeof(float)));
}
BENCHMARK(bm_sum_pinned)
    ->Name("sum/ufx_cuda_pinned")
    ->Arg(int64_t{1} << 27)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

/// The staging of pageable host data (copy_staging) at other block sizes and thread counts: a sum of
/// a pageable vector of 2^27 floats, args (block MiB, packing threads, non-temporal stores 1 / memcpy 0).
void bm_sum_staging(benchmark::State& state) {
  if (!have_gpu(state)) return;
  const auto n = std::size_t{1} << 27;
  const auto hx = random_vector(n, 3);
  auto& cfg = ufx::detail::copy_staging();
  const auto saved = cfg;
  cfg.chunk = static_cast<std::size_t>(state.range(0)) << 20;
  cfg.threads = static_cast<int>(state.range(1));
  cfg.streaming_stores = state.range(2) != 0;
  auto r = ufx::reducer(plus_op{}, 0.0f);
  float result = 0;
  timed(state, [&] { result = r(ufx::cuda, hx); });
  cfg = saved;
  benchmark::DoNotOptimize(result);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * n * sizeof(float)));
}
BENCHMARK(bm_sum_staging)
    ->Name("staging/sum_pageable")
    ->Args({8, 4, 1})
    ->Args({8, 8, 1})
    ->Args({8, 16, 1})
    ->Args({32, 8, 1})
    ->Args({32, 16, 1})
    ->Args({8, 8, 0})
    ->Args({8, 16, 0})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

/// The batched 4x4 matmul gufunc on the device, B matrices (the tests' matmul core).
/// `Staged`: small cores through shared memory (device/gufunc.hpp); off: a thread per matrix in
/// place, the path before issue #30.
template <bool Staged>
void bm_gufunc4(benchmark::State& state) {
  if (!have_gpu(state)) return;
  const auto batch = static_cast<ufx::index_t>(state.range(0));
  ufx::ndarray<float, 3> a({batch, 4, 4}), b({batch, 4, 4});
  const auto va = random_vector(static_cast<std::size_t>(batch * 16), 1),
             vb = random_vector(static_cast<std::size_t>(batch * 16), 2);
  std::copy(va.begin(), va.end(), a.data());
  std::copy(vb.begin(), vb.end(), b.data());
  auto da = ufx::to_device(a, ufx::cuda), db = ufx::to_device(b, ufx::cuda);
  ufx::device_array<float, 3> dc({batch, 4, 4}, ufx::cuda);
  const auto matmul4 = ufx::guvectorize<"(4,4),(4,4)->(4,4)">(ufx_test::matmul_f{});
  ufx::detail::testing().gufunc_staging.enabled = Staged;
  timed(state, [&] { matmul4(ufx::cuda, da, db, ufx::out(dc)); });
  ufx::detail::testing().gufunc_staging.enabled = true;
  const auto hc = dc.to_host();
  float want = 0;
  for (int k = 0; k < 4; ++k) want += a(batch - 1, 3, k) * b(batch - 1, k, 3);
  if (std::abs(hc(batch - 1, 3, 3) - want) > 1e-5f * (1.f + std::abs(want))) state.SkipWithError("wrong result");
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * batch * 3 * 16 * sizeof(float)));
}
BENCHMARK(bm_gufunc4<true>)
    ->Name("gufunc_matmul4/ufx_cuda")
    ->Arg(int64_t{1} << 22)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(bm_gufunc4<false>)
    ->Name("gufunc_matmul4/ufx_cuda_unstaged")
    ->Arg(int64_t{1} << 22)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

/// The Gaussian kernel sum r_i = sum_j exp(-|x_i - y_j|^2 / s), d = 3, n = m (bench_keops on a GPU):
/// with CUDA's expf (within 2 ulp), and with ufx::math::fast::exp (two instructions; within 2^-22 e^x
/// + 2^-24 for these x <= 0). `one_output_per_thread`: the tiled body as it ran before four outputs a
/// thread (testing().tiled_outputs_per_thread = 1), in the same run. The results are checked
/// against a double loop over the first 64 outputs.
struct pt {
  float x, y, z;
};
template <bool Fast>
struct gauss {
  float inv_s;
  UFX_HD float operator()(const pt& a, const pt& b) const {
    const float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
    const float e = -(dx * dx + dy * dy + dz * dz) * inv_s;
    if constexpr (Fast) return ufx::math::fast::exp(e);
    else return expf(e);
  }
};
template <bool Fast, int PerThread>
void bm_gauss(benchmark::State& state) {
  if (!have_gpu(state)) return;
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto hx = random_vector(3 * n, 5), hy = random_vector(3 * n, 6);
  std::vector<pt> xs(n), ys(n);
  std::memcpy(xs.data(), hx.data(), n * sizeof(pt));
  std::memcpy(ys.data(), hy.data(), n * sizeof(pt));
  const ufx::ndview<const pt, 2> xv(xs.data(), {static_cast<ufx::index_t>(n), 1});
  auto dx = ufx::to_device(xv, ufx::cuda);
  auto dy = ufx::to_device(ys, ufx::cuda);
  ufx::device_array<float, 1> dr({static_cast<ufx::index_t>(n)}, ufx::cuda);
  auto& tiled = ufx::detail::testing();
  tiled.tiled_outputs_per_thread = PerThread;
  timed(state, [&] {
    ufx::transform_reduce(ufx::cuda, dx, dy, gauss<Fast>{4.f}, ufx::plus{}, 0.f, ufx::axis{1}, ufx::out(dr));
  });
  tiled.tiled_outputs_per_thread = 0;
  const auto r = dr.to_host();
  double worst = 0;
  for (std::size_t i = 0; i < 64; ++i) {
    double want = 0;
    for (std::size_t j = 0; j < n; ++j) {
      const double dx = double(xs[i].x) - ys[j].x, dy = double(xs[i].y) - ys[j].y, dz = double(xs[i].z) - ys[j].z;
      want += std::exp(-(dx * dx + dy * dy + dz * dz) * 4.0);
    }
    worst = std::max(worst, std::abs(double(r(static_cast<ufx::index_t>(i))) - want) / want);
  }
  if (worst > 1e-4) state.SkipWithError("gauss_sum: wrong result");
  state.counters["pairs/s"] =
      benchmark::Counter(static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
  state.counters["rel_err"] = worst;
}
BENCHMARK(bm_gauss<false, 0>)
    ->Name("gauss_sum/ufx_cuda")
    ->Arg(100000)
    ->Arg(1000000)
    ->Iterations(3)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(bm_gauss<false, 1>)
    ->Name("gauss_sum/ufx_cuda_one_output_per_thread")
    ->Arg(1000000)
    ->Iterations(3)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(bm_gauss<true, 0>)
    ->Name("gauss_sum/ufx_cuda_fast_exp")
    ->Arg(100000)
    ->Arg(1000000)
    ->Iterations(3)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
