// Expected: "ufx::mpi: only the destination is distributed" (accumulate of a plain vector).
#include <ufx/mpi.hpp>

#include <vector>

int main(int argc, char** argv) {
  ufx::mpi::environment env(argc, argv);
  auto d = ufx::mpi::scatter(ufx::mpi::partition(ufx::mpi::communicator{}, {2}), std::vector<float>{1, 2});
  const std::vector<float> x{1.f, 2.f};
  ufx::accumulate(x, ufx::plus{}, ufx::out(d));
}
