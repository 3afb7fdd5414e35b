// Expected: "guvectorize: an input with core '()' is passed as a value: its parameter must be T"
// (the scale factor's core is '()', but fn takes it as a rank-0 view).
#include <ufx/guvectorize.hpp>

int main() {
  auto scale = ufx::guvectorize<"(n),()->(n)">(
      [](ufx::ndview<const float, 1> x, ufx::ndview<const float, 0> s, ufx::ndview<float, 1> y) {
        for (ufx::index_t i = 0; i < x.extent(0); ++i) y(i) = s() * x(i);
      });
  (void)scale;
}
