// A UFX_HD lambda at namespace scope, as a Numba user writes @cuda.reduce at module level: nvcc
// drops its __host__ __device__ without a word (an extended lambda must be defined inside a
// function), so it is a host-only lambda. The error says so, and how to write it instead.
#include <ufx/ufx.hpp>

#include <vector>

auto plus = [] UFX_HD(float a, float b) { return a + b; };

float run(const std::vector<float>& x) {
  return ufx::reducer(plus, 0.0f)(ufx::cuda, x); // line 11
}
