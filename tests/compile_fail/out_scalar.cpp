// Expected: "ufx::out: the destination must be an array container (a scalar cannot be written)"
// (the result of a reduction without axis is a scalar: it is returned, not written through out).
#include <ufx/reduce.hpp>

#include <vector>

int main() {
  auto sum = ufx::reducer(ufx::plus{}, 0.f);
  const std::vector<float> x{1.f, 2.f, 3.f};
  float s = 0;
  sum(x, ufx::out(s));
}
