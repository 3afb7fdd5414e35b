// Expected: "ufx::out: the destination's element type cannot hold the scan's result without
// changing kind" (a float scan into an int destination).
#include <ufx/reduce.hpp>

#include <vector>

int main() {
  const std::vector<float> x{1.f, 2.f, 3.f};
  std::vector<int> c(3);
  ufx::accumulate(x, ufx::plus{}, ufx::out(c));
}
