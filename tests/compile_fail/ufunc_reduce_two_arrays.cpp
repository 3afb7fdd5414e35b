// Expected: "ufx: f.reduce takes one array" (NumPy's second positional argument is the axis: ufx::axis{k} here).
#include <ufx/vectorize.hpp>

#include <vector>

int main() {
  const auto add = ufx::vectorize([](float a, float b) { return a + b; }).identity(0.f);
  const std::vector<float> x{1.f, 2.f};
  (void)add.reduce(x, 0);
}
