// Expected: "ufx::out: the destination's element type cannot hold the reduction's result without
// changing kind" (a float sum into an int destination).
#include <ufx/reduce.hpp>

#include <vector>

int main() {
  auto sum = ufx::reducer(ufx::plus{}, 0.f);
  const ufx::ndarray<float, 2> m({2, 3}, 1.f);
  std::vector<int> cols(3);
  sum(m, ufx::axis{0}, ufx::out(cols));
}
