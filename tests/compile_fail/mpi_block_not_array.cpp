// Expected: "ufx::mpi::distributed: the local block must be an array container ufx accepts" (a
// std::string is not one).
#include <ufx/mpi.hpp>

#include <string>

int main(int argc, char** argv) {
  ufx::mpi::environment env(argc, argv);
  ufx::mpi::distributed<std::string> d(ufx::mpi::partition(ufx::mpi::communicator{}, {3}), std::string("abc"));
  (void)d;
}
