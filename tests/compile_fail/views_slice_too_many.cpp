// Expected: "ufx::slice: more indices than the array has axes" (three for a rank-2 array).
#include <ufx/views.hpp>

int main() {
  ufx::ndarray<float, 2> m({2, 3}, 0.f);
  auto s = ufx::slice(m, 0, ufx::all, ufx::range{0, 1});
  (void)s;
}
