// Expected: "ufx::reducers / mean / var / std / minmax: call it on one array".
#include <ufx/reducers.hpp>

#include <vector>

int main() {
  std::vector<float> x(4, 1.f), y(4, 2.f);
  auto m = ufx::mean(x, y);
  (void)m;
}
