// Data larger than the device, on ufx::sim: elementwise add and a sum over host arrays 4x the
// (virtual) device, streamed through it in chunks, against memcpy of the same bytes (the sim's
// "bus" is the host's memory system) and the same calls on host arrays that fit. Throughput is
// reported as bytes moved between host and device per second. bench_cuda.cu has the GPU version
// (against cudaMemcpy from pinned memory). The sim returns freed blocks of 1 MiB and more to the OS
// (madvise), so its chunks of several MiB pay first-touch page faults on every reuse: a GPU's
// memory has no such cost, and these figures say more about the pipeline's overhead than a bus.
#include <ufx/ufx.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "bench_common.hpp"

namespace {

constexpr std::size_t device_bytes = std::size_t{16} << 20; // the virtual device: 16 MiB
constexpr std::size_t n = 4 * device_bytes / sizeof(float); // 64 MiB per array: 4x the device

struct add_f {
  UFX_HD float operator()(float a, float b) const { return a + b; }
};

const std::vector<float>& xs() {
  static const std::vector<float> v = ufx_bench::random_vector(n, 1);
  return v;
}
const std::vector<float>& ys() {
  static const std::vector<float> v = ufx_bench::random_vector(n, 2);
  return v;
}

// the bytes a chunked add moves: two inputs in, one result out (three copies of n floats)
void BM_memcpy_same_bytes(benchmark::State& state) {
  std::vector<float> dst(n, 0.f); // touched before timing
  for (auto _ : state) {
    std::memcpy(dst.data(), xs().data(), n * sizeof(float));
    std::memcpy(dst.data(), ys().data(), n * sizeof(float));
    std::memcpy(dst.data(), xs().data(), n * sizeof(float));
    benchmark::DoNotOptimize(dst.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * 3 * n * sizeof(float)));
}
BENCHMARK(BM_memcpy_same_bytes)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_chunked_add_sim(benchmark::State& state) {
  auto add = ufx::vectorize(add_f{});
  std::vector<float> z(n, 0.f);
  const auto t = ufx::chunked(ufx::sim, static_cast<std::size_t>(state.range(0)) << 20);
  for (auto _ : state) {
    add(t, xs(), ys(), ufx::out(z));
    benchmark::DoNotOptimize(z.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * 3 * n * sizeof(float)));
  state.SetLabel(std::to_string(state.range(0)) + " MiB chunks");
}
BENCHMARK(BM_chunked_add_sim)->Arg(1)->Arg(4)->Arg(12)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_chunked_sum_sim(benchmark::State& state) {
  auto sum = ufx::reducer(add_f{}, 0.f);
  const auto t = ufx::chunked(ufx::sim, static_cast<std::size_t>(state.range(0)) << 20);
  for (auto _ : state) benchmark::DoNotOptimize(sum(t, xs()));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n * sizeof(float)));
  state.SetLabel(std::to_string(state.range(0)) + " MiB chunks");
}
BENCHMARK(BM_chunked_sum_sim)->Arg(1)->Arg(4)->Arg(12)->Unit(benchmark::kMillisecond)->UseRealTime();

// the same calls on the host, in memory: what the device round trip costs on top
void BM_add_host(benchmark::State& state) {
  auto add = ufx::vectorize(add_f{});
  std::vector<float> z(n, 0.f);
  for (auto _ : state) {
    add(ufx::host, xs(), ys(), ufx::out(z));
    benchmark::DoNotOptimize(z.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * 3 * n * sizeof(float)));
}
BENCHMARK(BM_add_host)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_sum_host(benchmark::State& state) {
  auto sum = ufx::reducer(add_f{}, 0.f);
  for (auto _ : state) benchmark::DoNotOptimize(sum(ufx::host, xs()));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n * sizeof(float)));
}
BENCHMARK(BM_sum_host)->Unit(benchmark::kMillisecond)->UseRealTime();

// the fixed cost of a small call on sim device arrays (64 floats into an existing device array): the
// front door, the launch's checks against the virtual device and the block run on the host, beside
// the same call on ufx::serial's host vectors. The device path's host work up to the launch is the
// same code on ufx::cuda, which adds cudaLaunchKernel's few microseconds.
void BM_small_add_sim(benchmark::State& state) {
  const int m = 64;
  auto add = ufx::vectorize(add_f{});
  auto x = ufx::to_device(std::vector<float>(m, 1.f), ufx::sim),
       y = ufx::to_device(std::vector<float>(m, 2.f), ufx::sim);
  ufx::device_array<float, 1> z({m}, ufx::sim);
  for (auto _ : state) add(ufx::sim, x, y, ufx::out(z));
  if (z.to_host()(m - 1) != 3.f) state.SkipWithError("wrong result");
}
BENCHMARK(BM_small_add_sim)->Unit(benchmark::kNanosecond);

// ten small calls (1024 floats, device arrays) on a sim stream, waited for: called one by one, or replayed from a graph
// (ufx::capture) by one launch. Per iteration: the host's work to queue them plus the sim's run of the ten kernels.
// `Graph`: 0 called, 1 replayed.
template <int Graph>
void BM_ten_calls_sim(benchmark::State& state) {
  const int m = 1024;
  auto add = ufx::vectorize(add_f{});
  auto x = ufx::to_device(std::vector<float>(m, 1.f), ufx::sim),
       y = ufx::to_device(std::vector<float>(m, 2.f), ufx::sim);
  ufx::device_array<float, 1> z({m}, ufx::sim);
  ufx::stream s(ufx::sim);
  auto step = [&](auto t) {
    for (int k = 0; k < 5; ++k) {
      add(t, x, y, ufx::out(z));
      add(t, z, 1.f, ufx::out(z));
    }
  };
  ufx::graph g = ufx::capture(s, step);
  for (auto _ : state) {
    if constexpr (Graph) g.launch();
    else step(ufx::sim.on(s));
    s.synchronize();
  }
  if (z.to_host()(m - 1) != 4.f) state.SkipWithError("wrong result");
  state.counters["calls"] = benchmark::Counter(10, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_ten_calls_sim<0>)->Name("ten_calls_sim/called")->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_ten_calls_sim<1>)->Name("ten_calls_sim/graph")->Unit(benchmark::kMicrosecond)->UseRealTime();

void BM_small_add_serial(benchmark::State& state) {
  const int m = 64;
  auto add = ufx::vectorize(add_f{});
  std::vector<float> x(m, 1.f), y(m, 2.f), z(m);
  for (auto _ : state) {
    add(ufx::serial, x, y, ufx::out(z));
    benchmark::DoNotOptimize(z.data());
  }
  if (z[m - 1] != 3.f) state.SkipWithError("wrong result");
}
BENCHMARK(BM_small_add_serial)->Unit(benchmark::kNanosecond);

// packing pageable data into staging blocks, as ufx::cuda's staged copies do (copy_staging): 64 MiB
// copied 1 MiB a range into three rotating 8 MiB blocks by `threads` host threads, with memcpy or
// with non-temporal stores (host_copy's `streaming`). args: threads, streaming
void BM_pack_staging(benchmark::State& state) {
  const auto threads = static_cast<int>(state.range(0));
  const bool streaming = state.range(1) != 0;
  constexpr std::size_t block = std::size_t{8} << 20, bytes = n * sizeof(float);
  std::vector<char> blocks(3 * block, 0);
  const char* src = reinterpret_cast<const char*>(xs().data());
  for (auto _ : state) {
    for (std::size_t off = 0, i = 0; off < bytes; off += block, ++i)
      ufx::detail::host_copy(blocks.data() + (i % 3) * block, src + off, std::min(block, bytes - off), threads,
                             streaming);
    benchmark::DoNotOptimize(blocks.data());
  }
  if (std::memcmp(blocks.data() + ((bytes / block - 1) % 3) * block, src + bytes - block, block) != 0)
    state.SkipWithError("wrong bytes");
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
  state.SetLabel(std::to_string(threads) + (streaming ? " threads, streaming stores" : " threads, memcpy"));
}
BENCHMARK(BM_pack_staging)
    ->Args({1, 0})
    ->Args({1, 1})
    ->Args({2, 0})
    ->Args({2, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

} // namespace

int main(int argc, char** argv) {
  ufx::configure_sim({.devices = 1, .memory = device_bytes});
  (void)xs(), (void)ys(); // the inputs exist before anything is timed
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
