// The find_package_mpi consumer: a distributed sum on every rank through the installed ufx::mpi.
#include <ufx/mpi.hpp>

#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
  ufx::mpi::environment env(argc, argv);
  const ufx::mpi::communicator world;
  const ufx::mpi::partition p(world, {100});
  std::vector<float> block(static_cast<std::size_t>(p.rows()));
  for (ufx::index_t i = 0; i < p.rows(); ++i) block[static_cast<std::size_t>(i)] = static_cast<float>(p.offset() + i);
  const ufx::mpi::distributed x(p, block);
  const float s = ufx::reducer(ufx::plus{}, 0.f)(ufx::host, x);
  if (s != 4950.f) {
    std::printf("consumer_mpi: rank %d got %g, not 4950\n", world.rank(), s);
    return 1;
  }
  if (world.rank() == 0) std::printf("consumer_mpi: ufx::mpi works (sum over %d ranks = %g)\n", world.size(), s);
  return 0;
}
