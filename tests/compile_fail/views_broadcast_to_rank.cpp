// Expected: "ufx::broadcast_to: the target shape has fewer axes than the array".
#include <ufx/views.hpp>

int main() {
  ufx::ndarray<float, 2> m({1, 3}, 0.f);
  auto b = ufx::broadcast_to(m, {3});
  (void)b;
}
