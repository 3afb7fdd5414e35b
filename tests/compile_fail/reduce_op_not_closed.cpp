// Expected: "ufx::reduce: the operator's result must be combinable with itself" (a min/max
// operator takes two elements and returns a range, so it cannot combine two ranges).
#include <ufx/reduce.hpp>

#include <algorithm>
#include <vector>

struct range {
  float lo, hi;
};

int main() {
  const std::vector<float> x{1.f, 2.f, 3.f};
  auto minmax = ufx::reducer([](float a, float b) { return range{std::min(a, b), std::max(a, b)}; });
  auto r = minmax(x);
  (void)r;
}
