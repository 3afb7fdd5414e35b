// Expected: "ufx::mpi: a full argmin / argmax of a distributed array returns the index on every
// rank; ufx::out does not apply".
#include <ufx/mpi.hpp>

#include <vector>

int main(int argc, char** argv) {
  ufx::mpi::environment env(argc, argv);
  const auto d = ufx::mpi::scatter(ufx::mpi::partition(ufx::mpi::communicator{}, {2}), std::vector<float>{1, 2});
  ufx::ndarray<ufx::index_t, 0> i(ufx::ndarray<ufx::index_t, 0>::shape_type{});
  ufx::argmax(d, ufx::out(i));
}
