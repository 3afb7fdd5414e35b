// Expected: input_cast<0, double, float, ...> (a reducer whose operator takes float, over float64
// elements: ufx would convert each element into the operator's parameter).
#include <ufx/reduce.hpp>

#include <vector>

int main() {
  auto sum = ufx::reducer([](float a, float b) { return a + b; }, 0.f);
  const std::vector<double> x{0.1, 1e40};
  float s = sum(x);
}
