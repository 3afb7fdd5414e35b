// Expected: input_cast<0, double, float, ...> (a scan whose operator takes float, over float64
// elements).
#include <ufx/reduce.hpp>

#include <vector>

int main() {
  const std::vector<double> x{0.1, 1e40};
  auto c = ufx::accumulate(x, [](float a, float b) { return a + b; });
}
