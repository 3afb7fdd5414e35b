// Expected: "ufx::expand_dims: the axis is out of range" (axis 2 of a rank-1 array: the result has axes 0 and 1).
#include <ufx/views.hpp>

int main() {
  ufx::ndarray<float, 1> x({3}, 0.f);
  auto c = ufx::expand_dims<2>(x);
  (void)c;
}
