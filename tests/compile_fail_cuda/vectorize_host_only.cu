// Expected: nvcc's "calling a __host__ function("host_only_twice::operator ()(float) const") from a
// __device__ function("ufx::detail::device_call_needs_UFX_HD<...>") is not allowed": a functor
// without UFX_HD called on ufx::cuda. As warning 20011 (a __host__ __device__ caller), it compiled
// where nvcc drops warnings (system headers) into a kernel whose body is empty.
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
