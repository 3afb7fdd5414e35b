// Expected: "ufx::accumulate: name one axis (NumPy's accumulate runs along one)".
#include <ufx/reduce.hpp>

int main() {
  const ufx::ndarray<float, 2> m({2, 3}, 1.f);
  auto c = ufx::accumulate(m, ufx::plus{}, ufx::axis{0, 1});
  (void)c;
}
