// Fusion (docs/fusion.md) on ufx::host: a three-call chain of ufx::vectorize objects,
// (x * 2 + y) * x, eager (two temporaries), lazy (ufx::lazy: one pass) and as one hand-made lambda;
// and sum(x + y) eager (a temporary, then a sum), lazy (ufx::sum of the expression) and as
// ufx::transform_reduce. Bytes/s count each input read once and the output written once.
#include <benchmark/benchmark.h>

#include <vector>

#include <ufx/ufx.hpp>

#include "bench_common.hpp"

namespace {

using ufx_bench::random_vector;

struct add_fn {
  float operator()(float a, float b) const { return a + b; }
};
struct mul_fn {
  float operator()(float a, float b) const { return a * b; }
};
struct chain_fn { // the same chain written as one function
  float operator()(float x, float y) const { return (x * 2.f + y) * x; }
};

enum class how { eager, lazy, one_lambda, transform_reduce };

template <how H>
void bm_chain(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto x = random_vector(n, 1), y = random_vector(n, 2);
  std::vector<float> z(n);
  const auto add = ufx::vectorize(add_fn{});
  const auto mul = ufx::vectorize(mul_fn{});
  const auto one = ufx::vectorize(chain_fn{});
  for (auto _ : state) {
    if constexpr (H == how::eager) mul(ufx::host, add(ufx::host, mul(ufx::host, x, 2.f), y), x, ufx::out(z));
    else if constexpr (H == how::lazy) ufx::eval(mul(add(mul(ufx::lazy(x), 2.f), y), x), ufx::host, ufx::out(z));
    else one(ufx::host, x, y, ufx::out(z));
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * 3 * n * sizeof(float)));
}

template <how H>
void bm_sum_add(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto x = random_vector(n, 1), y = random_vector(n, 2);
  const auto add = ufx::vectorize(add_fn{});
  float s = 0;
  for (auto _ : state) {
    if constexpr (H == how::eager) s = ufx::sum(ufx::host, add(ufx::host, x, y));
    else if constexpr (H == how::lazy) s = ufx::sum(ufx::host, add(ufx::lazy(x), y));
    else s = ufx::transform_reduce(ufx::host, x, y, add_fn{}, ufx::plus{}, 0.f);
    benchmark::DoNotOptimize(s);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * 2 * n * sizeof(float)));
}

void sizes(benchmark::internal::Benchmark* b) {
  b->Arg(int64_t{1} << 16)->Arg(int64_t{1} << 20)->Arg(int64_t{1} << 26)->UseRealTime();
}

} // namespace

BENCHMARK(bm_chain<how::eager>)->Name("chain3/eager_host")->Apply(sizes);
BENCHMARK(bm_chain<how::lazy>)->Name("chain3/lazy_host")->Apply(sizes);
BENCHMARK(bm_chain<how::one_lambda>)->Name("chain3/one_lambda_host")->Apply(sizes);
BENCHMARK(bm_sum_add<how::eager>)->Name("sum_add/eager_host")->Apply(sizes);
BENCHMARK(bm_sum_add<how::lazy>)->Name("sum_add/lazy_host")->Apply(sizes);
BENCHMARK(bm_sum_add<how::transform_reduce>)->Name("sum_add/transform_reduce_host")->Apply(sizes);

BENCHMARK_MAIN();
