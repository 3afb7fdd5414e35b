// Expected: "ufx: a ufunc's identity is a scalar".
#include <ufx/vectorize.hpp>

#include <vector>

int main() {
  const auto add = ufx::vectorize([](float a, float b) { return a + b; }).identity(std::vector<float>{0.f});
  (void)add;
}
