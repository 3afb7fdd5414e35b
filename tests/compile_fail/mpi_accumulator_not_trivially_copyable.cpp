// Expected: "ufx::mpi: a reduction across ranks needs a trivially copyable accumulator" (a
// transform_reduce whose map makes a std::vector).
#include <ufx/mpi.hpp>

#include <vector>

struct concat {
  std::vector<float> operator()(const std::vector<float>& a, const std::vector<float>& b) const {
    std::vector<float> r(a);
    r.insert(r.end(), b.begin(), b.end());
    return r;
  }
};

int main(int argc, char** argv) {
  ufx::mpi::environment env(argc, argv);
  const auto x = ufx::mpi::scatter(ufx::mpi::partition(ufx::mpi::communicator{}, {3}), std::vector<float>{1, 2, 3});
  auto r = ufx::transform_reduce(
      x, [](float v) { return std::vector<float>{v}; }, concat{}, std::vector<float>{});
  (void)r;
}
