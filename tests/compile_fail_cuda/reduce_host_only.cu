// Expected: nvcc's "calling a __host__ function("host_only_plus::operator ()(float, float) const")
// from a __device__ function("ufx::detail::device_call_needs_UFX_HD<...>") is not allowed": a
// reducer whose operation has no UFX_HD, run on ufx::cuda.
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
