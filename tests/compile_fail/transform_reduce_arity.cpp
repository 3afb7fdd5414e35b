// Expected: "ufx::transform_reduce: call it as transform_reduce(x, ..., map, op, identity)" (the
// identity is missing).
#include <ufx/reduce.hpp>

#include <vector>

int main() {
  const std::vector<float> x{1.f, 2.f, 3.f};
  float s = ufx::transform_reduce(
      x, [](float a) { return a * a; }, ufx::plus{});
  (void)s;
}
