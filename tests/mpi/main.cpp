// The MPI test binary's main: MPI is initialised around doctest, each rank runs every test case
// (the cases are collective), and the binary fails when any rank saw a failure. Rank 0 reports;
// the other ranks print only their failures.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <ufx/mpi.hpp>

int main(int argc, char** argv) {
  ufx::mpi::environment env(argc, argv);
  const ufx::mpi::communicator world;
  doctest::Context context(argc, argv);
  if (world.rank() != 0) context.setOption("success", false), context.setOption("no-version", true);
  const int failed = context.run() != 0 ? 1 : 0;
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, world.native());
  return any;
}
