// Expected: "ufx::squeeze: the axis is out of range for the array's rank" (axis -3 of a rank-2 array).
#include <ufx/views.hpp>

int main() {
  ufx::ndarray<float, 2> m({3, 1}, 0.f);
  auto s = ufx::squeeze<-3>(m);
  (void)s;
}
