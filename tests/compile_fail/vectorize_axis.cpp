// Expected: "ufx::vectorize: ufx::axis and ufx::keepdims belong to reductions" (NumPy's ufuncs
// take no axis; a reduction does).
#include <ufx/ufx.hpp>

#include <vector>

int main() {
  auto add = ufx::vectorize([](float a, float b) { return a + b; });
  const std::vector<float> x{1, 2, 3};
  add(x, x, ufx::axis{0});
}
