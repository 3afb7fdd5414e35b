// Expected: "ufx::reduce: call it as reduce(x, op, identity)" (the identity is missing).
#include <ufx/reduce.hpp>

#include <vector>

int main() {
  const std::vector<float> x{1.f, 2.f, 3.f};
  float s = ufx::reduce(x, ufx::plus{});
  (void)s;
}
