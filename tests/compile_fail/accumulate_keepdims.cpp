// Expected: "ufx::accumulate: keepdims does not apply to a scan".
#include <ufx/reduce.hpp>

int main() {
  const ufx::ndarray<float, 2> m({2, 3}, 1.f);
  auto c = ufx::accumulate(m, ufx::plus{}, ufx::axis{1}, ufx::keepdims);
  (void)c;
}
