// Expected: "ufx::logsumexp: with more than one argument the last one is the map" (the axis given
// as a plain int, as in scipy.special.logsumexp(m, 1)).
#include <ufx/reduce.hpp>

int main() {
  const ufx::ndarray<float, 2> m({2, 3}, 1.f);
  auto l = ufx::logsumexp(m, 1);
  (void)l;
}
