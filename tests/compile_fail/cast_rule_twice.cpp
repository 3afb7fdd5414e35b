// Expected: "ufx: one casting rule a call".
#include <ufx/vectorize.hpp>

#include <vector>

int main() {
  auto add = ufx::vectorize([](float a, float b) { return a + b; });
  const std::vector<double> x{1, 2};
  auto z = add(x, x, ufx::casting::same_kind, ufx::casting::unsafe);
}
