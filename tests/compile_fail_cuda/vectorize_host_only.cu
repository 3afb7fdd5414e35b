// Expected: nvcc's "calling a __host__ function from a __host__ __device__ function is not
// allowed", an error (cmake/UfxDependencies.cmake: --diag-error=20011,20014): a functor without
// UFX_HD called on ufx::cuda. Suppressed, it compiled into a kernel whose body is empty.
#include <ufx/ufx.hpp>

#include <vector>

struct host_only_twice {
  float operator()(float x) const { return 2 * x; }
};

int main() {
  auto twice = ufx::vectorize(host_only_twice{});
  const std::vector<float> x{1, 2, 3};
  const std::vector<float> y = twice(ufx::cuda, x);
  return y[0] == 2 ? 0 : 1;
}
