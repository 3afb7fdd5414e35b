// Expected: "ufx: give all axes in one ufx::axis{...}" (two axis options instead of one with two
// axes).
#include <ufx/reduce.hpp>

int main() {
  auto sum = ufx::reducer(ufx::plus{}, 0.f);
  const ufx::ndarray<float, 3> a({2, 3, 4}, 1.f);
  auto s = sum(a, ufx::axis{0}, ufx::axis{2});
  (void)s;
}
