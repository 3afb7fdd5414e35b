// Expected: nvcc's "calling a __host__ function from a __host__ __device__ function is not
// allowed", an error (cmake/UfxDependencies.cmake: --diag-error=20011,20014): a reducer whose
// operation has no UFX_HD, run on ufx::cuda.
#include <ufx/ufx.hpp>

#include <vector>

struct host_only_plus {
  float operator()(float a, float b) const { return a + b; }
};

int main() {
  auto sum = ufx::reducer(host_only_plus{}, 0.0f);
  const std::vector<float> x{1, 2, 3};
  return sum(ufx::cuda, x) == 6 ? 0 : 1;
}
