// Expected: "ufx: f.reduce of an expression: name its axes" (NumPy's default axis 0 needs the evaluated rank).
#include <ufx/ufx.hpp>

#include <vector>

int main() {
  const auto add = ufx::vectorize([](float a, float b) { return a + b; }).identity(0.f);
  const std::vector<float> x{1.f, 2.f};
  (void)add.reduce(add(ufx::lazy(x), 1.f));
}
