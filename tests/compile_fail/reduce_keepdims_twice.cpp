// Expected: "ufx: ufx::keepdims given twice".
#include <ufx/reduce.hpp>

int main() {
  auto sum = ufx::reducer(ufx::plus{}, 0.f);
  const ufx::ndarray<float, 2> m({2, 3}, 1.f);
  auto s = sum(m, ufx::keepdims, ufx::keepdims);
  (void)s;
}
