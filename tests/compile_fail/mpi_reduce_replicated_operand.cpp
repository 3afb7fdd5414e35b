// Expected: "ufx::mpi: reduce the distributed array itself" (the distributed array is the
// destination and a plain vector is reduced).
#include <ufx/mpi.hpp>

#include <vector>

int main(int argc, char** argv) {
  ufx::mpi::environment env(argc, argv);
  auto d = ufx::mpi::scatter(ufx::mpi::partition(ufx::mpi::communicator{}, {2}), std::vector<float>{1, 2});
  const std::vector<float> x{1.f, 2.f};
  auto sum = ufx::reducer(ufx::plus{}, 0.f);
  sum(x, ufx::out(d));
}
