// Expected: "ufx::reducer: call it as r(x), r(x, init), r(target, x, ...)" (the target is given
// last instead of first).
#include <ufx/reduce.hpp>

#include <vector>

int main() {
  auto sum = ufx::reducer(ufx::plus{}, 0.f);
  const std::vector<float> x{1.f, 2.f, 3.f};
  float s = sum(x, 10.f, ufx::host);
  (void)s;
}
