// Expected: "ufx::argmin / argmax: name one axis at most".
#include <ufx/reduce.hpp>

int main() {
  const ufx::ndarray<float, 3> a({2, 3, 4}, 1.f);
  auto i = ufx::argmax(a, ufx::axis{0, 1});
  (void)i;
}
