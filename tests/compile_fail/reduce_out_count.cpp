// Expected: "ufx::out: a reduction has one output; name one destination".
#include <ufx/reduce.hpp>

#include <vector>

int main() {
  auto sum = ufx::reducer(ufx::plus{}, 0.f);
  const ufx::ndarray<float, 2> m({2, 3}, 1.f);
  std::vector<float> cols(3), rows(2);
  sum(m, ufx::axis{0}, ufx::out(cols, rows));
}
