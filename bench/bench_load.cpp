// ufx::host steady under load: the median time of a call (add into ufx::out, and a sum) with the
// machine's cores shared with busy processes, for ufx::host scheduled by oneTBB and by OpenMP, next
// to ufx::serial, a plain loop and a hand-written OpenMP loop. The goal: ufx::host's median
// within 1.5x of ufx::serial's at every size, loaded.
//
//   bench_load --load=2    # two busy processes beside the benchmark (the default: none)
//
// Each benchmark is 31 repetitions of a few calls, reported as the median of the repetitions
// (Google Benchmark's aggregates). Without oneTBB (UFX_WITH_TBB) only the OpenMP rows run.
#include <benchmark/benchmark.h>
#include <omp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <utility>
#include <string>
#include <vector>

#include <ufx/ufx.hpp>

#include "bench_common.hpp"

namespace {

/// The benchmark's input of n floats: made once per (n, seed), since Google Benchmark runs the
/// function (and its set-up) once per repetition.
const std::vector<float>& input(std::size_t n, unsigned seed) {
  static std::map<std::pair<std::size_t, unsigned>, std::vector<float>> made;
  auto& v = made[{n, seed}];
  if (v.size() != n) v = ufx_bench::random_vector(n, seed);
  return v;
}

enum class how { serial_loop, omp_loop, ufx_serial, ufx_host_openmp, ufx_host_tbb };

/// ufx::host's scheduler for the next calls (oneTBB or OpenMP; see detail/cpu/executor.hpp).
void use_scheduler(how h) {
#if UFX_WITH_TBB
  ufx::detail::set_host_uses_tbb(h == how::ufx_host_tbb);
#else
  (void)h;
#endif
}

__attribute__((noinline)) void add_loop(const float* x, const float* y, float* z, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) z[i] = x[i] + y[i];
}
__attribute__((noinline)) void add_omp(const float* x, const float* y, float* z, std::size_t n) {
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) z[i] = x[i] + y[i];
}
__attribute__((noinline)) double sum_loop(const float* x, std::size_t n) {
  double s = 0;
  for (std::size_t i = 0; i < n; ++i) s += x[i];
  return s;
}
__attribute__((noinline)) double sum_omp(const float* x, std::size_t n) {
  double s = 0;
#pragma omp parallel for schedule(static) reduction(+ : s)
  for (std::size_t i = 0; i < n; ++i) s += x[i];
  return s;
}

struct add_f {
  float operator()(float a, float b) const { return a + b; }
};

template <how H>
void bm_add(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const std::vector<float>&x = input(n, 1), &y = input(n, 2);
  static std::vector<float> z;
  z.resize(n);
  auto add = ufx::vectorize(add_f{});
  use_scheduler(H);
  for (auto _ : state) {
    if constexpr (H == how::serial_loop) add_loop(x.data(), y.data(), z.data(), n);
    else if constexpr (H == how::omp_loop) add_omp(x.data(), y.data(), z.data(), n);
    else if constexpr (H == how::ufx_serial) add(ufx::serial, x, y, ufx::out(z));
    else add(ufx::host, x, y, ufx::out(z));
    benchmark::ClobberMemory();
  }
  use_scheduler(how::ufx_host_tbb);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * n * 3 * sizeof(float)));
}

template <how H>
void bm_sum(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const std::vector<float>& x = input(n, 3);
  use_scheduler(H);
  for (auto _ : state) {
    if constexpr (H == how::serial_loop) benchmark::DoNotOptimize(sum_loop(x.data(), n));
    else if constexpr (H == how::omp_loop) benchmark::DoNotOptimize(sum_omp(x.data(), n));
    else if constexpr (H == how::ufx_serial) benchmark::DoNotOptimize(ufx::reduce(ufx::serial, x, ufx::plus{}, 0.f));
    else benchmark::DoNotOptimize(ufx::reduce(ufx::host, x, ufx::plus{}, 0.f));
  }
  use_scheduler(how::ufx_host_tbb);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * n * sizeof(float)));
}

/// Starts `k` busy processes that spin until this one exits.
std::vector<pid_t> start_load(int k) {
  std::vector<pid_t> kids;
  for (int i = 0; i < k; ++i) {
    const pid_t p = fork();
    if (p == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      volatile unsigned long spin = 0;
      for (;;) spin = spin + 1;
    }
    if (p > 0) kids.push_back(p);
  }
  return kids;
}

} // namespace

int main(int argc, char** argv) {
  int load = 0;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--load=", 7) == 0) load = std::atoi(argv[i] + 7);
    else args.push_back(argv[i]);
  }
  int n_args = static_cast<int>(args.size());
  benchmark::Initialize(&n_args, args.data());

  // N = 2^12 ... 2^26; each repetition about 2^20 elements' worth of calls (at least one); 31
  // repetitions, their median reported
  auto reg = [](const std::string& name, void (*fn)(benchmark::State&)) {
    for (int e = 12; e <= 26; e += 2) {
      const int64_t n = int64_t{1} << e;
      benchmark::RegisterBenchmark(name.c_str(), fn)
          ->Arg(n)
          ->Iterations(std::max<int64_t>(1, std::min<int64_t>(256, (int64_t{1} << 20) / n)))
          ->Repetitions(31)
          ->ReportAggregatesOnly(true)
          ->UseRealTime();
    }
  };
  // Every row without OpenMP first, then OpenMP's: after an OpenMP region libgomp's idle threads
  // spin (GOMP_SPINCOUNT) on the cores oneTBB's worker would use, and oneTBB's sums at 2^18 and
  // 2^20 ran at ufx::serial's speed when they followed OpenMP rows (0.55x to 0.67x serial without
  // them; GOMP_SPINCOUNT=10000 or OMP_WAIT_POLICY=passive gave that back too). oneTBB's idle
  // workers sleep within microseconds, so the OpenMP rows do not see the reverse.
  reg("add/serial_loop", bm_add<how::serial_loop>);
  reg("add/ufx_serial", bm_add<how::ufx_serial>);
#if UFX_WITH_TBB
  reg("add/ufx_host_tbb", bm_add<how::ufx_host_tbb>);
#endif
  reg("sum/serial_loop", bm_sum<how::serial_loop>);
  reg("sum/ufx_serial", bm_sum<how::ufx_serial>);
#if UFX_WITH_TBB
  reg("sum/ufx_host_tbb", bm_sum<how::ufx_host_tbb>);
#endif
  reg("add/omp_loop", bm_add<how::omp_loop>);
  reg("add/ufx_host_openmp", bm_add<how::ufx_host_openmp>);
  reg("sum/omp_loop", bm_sum<how::omp_loop>);
  reg("sum/ufx_host_openmp", bm_sum<how::ufx_host_openmp>);

  const std::vector<pid_t> kids = start_load(load);
  benchmark::AddCustomContext("load", std::to_string(load) + " busy processes");
  benchmark::RunSpecifiedBenchmarks();
  for (const pid_t p : kids) kill(p, SIGKILL);
  for (const pid_t p : kids) waitpid(p, nullptr, 0);
  benchmark::Shutdown();
}
