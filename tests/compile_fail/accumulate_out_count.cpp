// Expected: "ufx::out: a scan has one output; name one destination".
#include <ufx/reduce.hpp>

#include <vector>

int main() {
  const std::vector<float> x{1.f, 2.f, 3.f};
  std::vector<float> c(3), d(3);
  ufx::accumulate(x, ufx::plus{}, ufx::out(c, d));
}
