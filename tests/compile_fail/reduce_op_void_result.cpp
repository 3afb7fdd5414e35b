// Expected: "ufx::reduce: the operator returns nothing" (the lambda forgets its `return a;`).
#include <ufx/reduce.hpp>

#include <vector>

int main() {
  const std::vector<float> x{-1.f, 2.f, 3.f};
  auto largest = ufx::reducer([](float a, float b) {
    if (a < b) a = b;
  });
  float m = largest(x);
  (void)m;
}
