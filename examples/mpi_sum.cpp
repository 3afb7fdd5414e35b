// The sum tutorial (sum_reduce.cpp) across MPI ranks: rank 0 holds A = arange(1234) + 1, scatters
// it, every rank sums its block on a target of its own choosing, and ufx::mpi combines the
// partials in rank order, so every rank prints the same sum. Run it under mpirun:
//
//   mpirun -np 2 build/cpu/examples/mpi_sum
//
// Exits non-zero (on every rank) on a wrong sum.
#include <ufx/mpi.hpp>

#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
  ufx::mpi::environment env(argc, argv); // MPI_Init_thread / MPI_Finalize
  const ufx::mpi::communicator world;    // MPI_COMM_WORLD
  auto sum_reduce = ufx::reducer([] UFX_HD(double a, double b) { return a + b; }, 0.0);

  std::vector<double> A; // only rank 0 needs the data
  if (world.rank() == 0) {
    A.resize(1234);
    for (std::size_t i = 0; i < A.size(); ++i) A[i] = static_cast<double>(i + 1);
  }
  const double expect = 1234.0 * 1235.0 / 2;
  const ufx::mpi::partition p(world, {1234}); // 1234 rows, balanced over the ranks
  const auto dA = ufx::mpi::scatter(p, A);    // each rank: its rows, as a std::vector

  bool ok = true;
  auto check = [&](const char* where, double got) {
    if (world.rank() == 0) std::printf("%-32s %.1f %s\n", where, got, got == expect ? "" : "WRONG");
    ok &= got == expect;
  };
  check("default target", sum_reduce(dA));
  check("ufx::serial", sum_reduce(ufx::serial, dA));
  check("ufx::host", sum_reduce(ufx::host, dA));
  check("ufx::sim", sum_reduce(ufx::sim, dA));
  // device blocks: each rank's rows on the sim device, partials staged through the host
  const ufx::mpi::distributed on_device(p, ufx::to_device(dA.local(), ufx::sim));
  check("device_array blocks", sum_reduce(on_device));
  // Numba's init is combined once, not once per rank
  ok &= sum_reduce(dA, 1000.0) == expect + 1000;

  std::printf("rank %d of %d: rows [%td, %td), partial %.1f\n", world.rank(), world.size(), dA.offset(),
              dA.offset() + dA.rows(), sum_reduce(dA.local()));
  int mine = ok ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, world.native());
  if (world.rank() == 0) std::printf(all ? "all sums right\n" : "WRONG SUMS\n");
  return all ? 0 : 1;
}
