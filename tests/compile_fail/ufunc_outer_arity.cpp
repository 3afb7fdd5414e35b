// Expected: "ufx: f.outer takes two operands".
#include <ufx/vectorize.hpp>

#include <vector>

int main() {
  const auto add = ufx::vectorize([](float a, float b) { return a + b; });
  const std::vector<float> x{1.f, 2.f};
  (void)add.outer(x);
}
