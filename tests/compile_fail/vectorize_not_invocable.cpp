// Expected: "ufx::vectorize: the function cannot be called with the operands' element types" (a
// two-argument function called with one operand).
#include <ufx/vectorize.hpp>

#include <vector>

int main() {
  auto add = ufx::vectorize([](float a, float b) { return a + b; });
  const std::vector<float> x{1.f, 2.f, 3.f};
  auto z = add(x);
  (void)z;
}
