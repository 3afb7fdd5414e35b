// ufx::mpi: the distributed sum and add of 2^26 float32, and the combine step alone. Run it under
// mpirun with 1 and with 2 ranks and compare (strong scaling: the same global array, split):
//
//   mpirun -np 1 build/cpu/bench/bench_mpi
//   mpirun -np 2 build/cpu/bench/bench_mpi     # as root: --allow-run-as-root
//
// Every rank runs every benchmark for the same fixed number of iterations (collective calls must
// match across the ranks), each iteration starts at a barrier, and the time reported (by rank 0)
// is the slowest rank's. The serial rows use one core per rank, so 2 ranks on 2 cores is the fair
// comparison with 1 rank; the host rows let each rank use OpenMP threads too.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include <ufx/mpi.hpp>

#include "bench_common.hpp"

namespace {

const ufx::index_t n = ufx::index_t{1} << 26;
constexpr int iterations = 20;

/// This rank's block of the global array (each rank makes its own rows: no scatter of 256 MiB).
ufx::mpi::distributed<std::vector<float>> block(unsigned seed) {
  const ufx::mpi::partition p(ufx::mpi::communicator{}, {n});
  auto v = ufx_bench::random_vector(static_cast<std::size_t>(p.rows()), seed + static_cast<unsigned>(p.offset()));
  return ufx::mpi::distributed(p, std::move(v));
}

/// Times `fn` as the slowest rank sees it, from a common start.
template <class Fn>
void timed(benchmark::State& state, const Fn& fn) {
  const ufx::mpi::communicator world;
  for (auto _ : state) {
    world.barrier();
    const double t0 = MPI_Wtime();
    fn();
    double dt = MPI_Wtime() - t0, slowest = 0;
    MPI_Allreduce(&dt, &slowest, 1, MPI_DOUBLE, MPI_MAX, world.native());
    state.SetIterationTime(slowest);
  }
  state.counters["ranks"] = world.size();
  state.SetBytesProcessed(state.iterations() * state.range(0));
}

template <class Target>
void bm_sum(benchmark::State& state) {
  const auto x = block(1);
  const auto sum = ufx::reducer(ufx::plus{}, 0.f);
  float s = 0;
  timed(state, [&] { benchmark::DoNotOptimize(s = sum(Target{}, x)); });
}

template <class Target>
void bm_add(benchmark::State& state) {
  const auto x = block(1), y = block(2);
  auto z = block(3);
  const auto add = ufx::vectorize([](float a, float b) { return a + b; });
  timed(state, [&] {
    add(Target{}, x, y, ufx::out(z));
    benchmark::ClobberMemory();
  });
}

/// The combine step alone: one float partial per rank through MPI_Allreduce with ufx's MPI_Op.
void bm_combine(benchmark::State& state) {
  const ufx::mpi::communicator world;
  const ufx::plus op{};
  ufx::mpi::detail::maybe<float> m{1.f, 1};
  timed(state, [&] {
    const ufx::mpi::detail::mpi_combiner<float, ufx::plus> combiner(op);
    combiner.allreduce(world, std::span(&m, 1));
    benchmark::DoNotOptimize(m);
  });
}

/// A whole distributed reduction with one element per rank: the agreement round, the local call
/// and the combine (what a reduction costs beyond its local work).
void bm_tiny_sum(benchmark::State& state) {
  const ufx::mpi::communicator world;
  const ufx::mpi::partition p(world, {world.size()});
  const ufx::mpi::distributed x(p, std::vector<float>(1, 1.f));
  const auto sum = ufx::reducer(ufx::plus{}, 0.f);
  float s = 0;
  timed(state, [&] { benchmark::DoNotOptimize(s = sum(ufx::serial, x)); });
}

class quiet_reporter : public benchmark::BenchmarkReporter {
public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

} // namespace

BENCHMARK(bm_sum<ufx::serial_t>)
    ->Name("mpi_sum/serial")
    ->Arg(n * 4)
    ->Iterations(iterations)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(bm_sum<ufx::host_t>)
    ->Name("mpi_sum/host")
    ->Arg(n * 4)
    ->Iterations(iterations)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(bm_add<ufx::serial_t>)
    ->Name("mpi_add/serial")
    ->Arg(n * 12)
    ->Iterations(iterations)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(bm_add<ufx::host_t>)
    ->Name("mpi_add/host")
    ->Arg(n * 12)
    ->Iterations(iterations)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(bm_combine)
    ->Name("mpi_combine/one_float")
    ->Arg(0)
    ->Iterations(2000)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(bm_tiny_sum)
    ->Name("mpi_sum/one_element_per_rank")
    ->Arg(0)
    ->Iterations(2000)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

int main(int argc, char** argv) {
  ufx::mpi::environment env(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (ufx::mpi::communicator{}.rank() == 0) {
    benchmark::RunSpecifiedBenchmarks();
  } else {
    quiet_reporter quiet;
    benchmark::RunSpecifiedBenchmarks(&quiet);
  }
  benchmark::Shutdown();
}
