// Expected: "ufx::transform_reduce: the map cannot be called with the operands' element types"
// (two inputs, a map of one argument).
#include <ufx/reduce.hpp>

#include <vector>

int main() {
  const std::vector<float> x{1.f, 2.f, 3.f}, y{4.f, 5.f, 6.f};
  float d = ufx::transform_reduce(
      x, y, [](float a) { return a * a; }, ufx::plus{}, 0.f);
  (void)d;
}
