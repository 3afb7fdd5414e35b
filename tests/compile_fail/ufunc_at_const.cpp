// Expected: "ufx: f.at writes into its first operand" (a const array cannot take NumPy's in-place update).
#include <ufx/vectorize.hpp>

#include <vector>

int main() {
  const auto add = ufx::vectorize([](float a, float b) { return a + b; });
  const std::vector<float> a(4, 0.f);
  add.at(a, std::vector<int>{1}, 1.f);
}
