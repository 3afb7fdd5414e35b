// Expected: "ufx::argmin / argmax: call it as argmin(x)" (the axis given as a plain int, as in
// np.argmax(m, 1)).
#include <ufx/reduce.hpp>

int main() {
  const ufx::ndarray<float, 2> m({2, 3}, 1.f);
  auto i = ufx::argmax(m, 1);
  (void)i;
}
