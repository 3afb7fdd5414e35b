// Expected: "ufx::vectorize: the function returns nothing" (the lambda forgets its `return a;`).
#include <ufx/vectorize.hpp>

#include <vector>

int main() {
  auto relu = ufx::vectorize([](float a) {
    if (a < 0) a = 0;
  });
  const std::vector<float> x{-1.f, 2.f, 3.f};
  auto z = relu(x);
  (void)z;
}
