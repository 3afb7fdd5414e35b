// Expected: "ufx::logsumexp: the map cannot be called with the operands' element types" (two
// operands, a map of one argument).
#include <ufx/reduce.hpp>

#include <vector>

int main() {
  const std::vector<float> x{1.f, 2.f, 3.f}, y{4.f, 5.f, 6.f};
  float l = ufx::logsumexp(x, y, [](float a) { return -a * a; });
  (void)l;
}
