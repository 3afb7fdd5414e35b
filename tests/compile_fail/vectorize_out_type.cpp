// Expected: "ufx::out: a destination's element type cannot hold the function's result without
// changing kind" (a float result into an int destination).
#include <ufx/vectorize.hpp>

#include <vector>

int main() {
  auto half = ufx::vectorize([](float a) { return a / 2; });
  const std::vector<float> x{1.f, 2.f, 3.f};
  std::vector<int> z(3);
  half(x, ufx::out(z));
}
