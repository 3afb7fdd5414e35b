// Lambdas without UFX_HD called on ufx::cuda: for each call, one error that names the fix
// ("mark it UFX_HD") and the line of the call; the CTest matches both. (A kernel's launch is a
// case of its own: nvcc leaves it for the end of the file, which it skips after these errors.)
#include <ufx/ufx.hpp>

#include <vector>

void calls(const std::vector<float>& x, std::vector<float>& y) {
  auto twice = ufx::vectorize([](float v) { return 2 * v; });
  twice(ufx::cuda, x, ufx::out(y)); // line 10
  auto total = ufx::reducer([](float a, float b) { return a + b; }, 0.f);
  y[0] = total(ufx::cuda, x); // line 12
}
