// Expected: "ufx::reducers / mean / var / std / minmax: distributed operands (ufx::mpi) are not
// supported".
#include <ufx/mpi.hpp>
#include <ufx/reducers.hpp>

#include <vector>

int main(int argc, char** argv) {
  ufx::mpi::environment env(argc, argv);
  const auto d = ufx::mpi::scatter(ufx::mpi::partition(ufx::mpi::communicator{}, {2}), std::vector<float>{1, 2});
  return static_cast<int>(ufx::mean(d));
}
