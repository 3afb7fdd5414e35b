// Expected: "ufx::reduce: the operator cannot combine two elements" (an operator of one argument).
#include <ufx/reduce.hpp>

#include <vector>

int main() {
  const std::vector<float> x{1.f, 2.f, 3.f};
  float s = ufx::reduce(
      x, [](float a) { return a; }, 0.f);
  (void)s;
}
