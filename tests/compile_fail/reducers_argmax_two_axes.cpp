// Expected: "ufx::reducers: with ufx::argmin / argmax among the reductions, name one axis at most".
#include <ufx/reducers.hpp>

int main() {
  const ufx::ndarray<float, 3> a({2, 3, 4}, 1.f);
  auto [v, i] = ufx::reducers(ufx::max, ufx::argmax)(a, ufx::axis{0, 1});
  (void)v, (void)i;
}
