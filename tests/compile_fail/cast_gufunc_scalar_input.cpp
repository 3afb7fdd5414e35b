// Expected: input_cast<1, double, float, ...> (a '()' input's float64 elements into the core's float
// parameter; core inputs are views of the arrays' own element type and convert nothing).
#include <ufx/guvectorize.hpp>

int main() {
  auto scale = ufx::guvectorize<"(n),()->(n)">([](ufx::ndview<const float, 1> x, float k, ufx::ndview<float, 1> y) {
    for (ufx::index_t i = 0; i < x.extent(0); ++i) y(i) = k * x(i);
  });
  const ufx::ndarray<float, 2> x({2, 3}, 1.f);
  const ufx::ndarray<double, 1> k({2}, 2.0);
  auto y = scale(x, k);
}
