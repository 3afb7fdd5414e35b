// Expected: "ufx::mpi: argmin / argmax of a distributed array with keepdims needs an axis".
#include <ufx/mpi.hpp>

#include <vector>

int main(int argc, char** argv) {
  ufx::mpi::environment env(argc, argv);
  const auto d = ufx::mpi::scatter(ufx::mpi::partition(ufx::mpi::communicator{}, {2}), std::vector<float>{1, 2});
  auto i = ufx::argmax(d, ufx::keepdims);
  (void)i;
}
