// Expected: "ufx::to_vector: the array must have rank 1" (a matrix into a flat std::vector).
#include <ufx/creation.hpp>

int main() {
  const ufx::ndarray<float, 2> m({2, 3}, 0.f);
  const auto v = ufx::to_vector(m);
  (void)v;
}
