// Expected: "ufx::reducer: the second argument is Numba's `init`, a scalar" (two arrays given to
// a reducer, as if it mapped them).
#include <ufx/reduce.hpp>

#include <vector>

int main() {
  auto sum = ufx::reducer(ufx::plus{}, 0.f);
  const std::vector<float> x{1.f, 2.f, 3.f}, y{4.f, 5.f, 6.f};
  float s = sum(x, y);
  (void)s;
}
