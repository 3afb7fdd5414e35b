// Expected: "ufx::mpi: the call on the local blocks gives a scalar: axis 0 of the distributed
// operands is a core dimension of the gufunc" (a split vector dotted with itself).
#include <ufx/mpi.hpp>

#include <vector>

struct dot_f {
  void operator()(ufx::ndview<const float, 1> x, ufx::ndview<const float, 1> y, float& r) const {
    r = 0;
    for (ufx::index_t i = 0; i < x.extent(0); ++i) r += x(i) * y(i);
  }
};

int main(int argc, char** argv) {
  ufx::mpi::environment env(argc, argv);
  const auto v = ufx::mpi::scatter(ufx::mpi::partition(ufx::mpi::communicator{}, {3}), std::vector<float>{1, 2, 3});
  auto r = ufx::guvectorize<"(n),(n)->()">(dot_f{})(v, v);
  (void)r;
}
