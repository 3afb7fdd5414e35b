// Expected: "ufx::out: a destination's element type differs from the function's output parameter
// type" (fn writes float through its T& parameter; the destination holds double).
#include <ufx/guvectorize.hpp>

int main() {
  auto norm = ufx::guvectorize<"(n)->()">([](ufx::ndview<const float, 1> x, float& r) { r = x(0); });
  const ufx::ndarray<float, 2> x({2, 3}, 1.f);
  ufx::ndarray<double, 1> r({2});
  norm(x, ufx::out(r));
}
