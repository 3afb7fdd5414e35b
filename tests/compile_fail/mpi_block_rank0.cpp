// Expected: "ufx::mpi::distributed: the local block must have rank 1 or more" (a rank-0 ndarray
// has no axis 0 to split).
#include <ufx/mpi.hpp>

int main(int argc, char** argv) {
  ufx::mpi::environment env(argc, argv);
  ufx::ndarray<float, 0> block(ufx::ndarray<float, 0>::shape_type{});
  ufx::mpi::distributed<ufx::ndarray<float, 0>> d(ufx::mpi::partition(ufx::mpi::communicator{}, {1}), block);
  (void)d;
}
