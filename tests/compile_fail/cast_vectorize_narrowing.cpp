// Expected: input_cast<1, double, float, ...> and "an array operand's elements do not convert safely
// to the function's parameter type" (NumPy refuses float64 into a float32 loop under its safe
// casting; a C++ scalar, operand 0 here, is weak and converts).
#include <ufx/vectorize.hpp>

#include <vector>

int main() {
  auto add = ufx::vectorize([](float a, float b) { return a + b; });
  const std::vector<double> x{0.1, 1e40};
  auto z = add(1.0, x);
}
