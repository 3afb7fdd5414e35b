// Expected: "ufx::guvectorize: ufx::axis and ufx::keepdims belong to reductions".
#include <ufx/ufx.hpp>

#include <vector>

int main() {
  auto norm = ufx::guvectorize<"(n)->()">([](ufx::ndview<const float, 1> x, float& r) {
    r = 0;
    for (ufx::index_t i = 0; i < x.extent(0); ++i) r += x(i) * x(i);
  });
  const std::vector<float> x{1, 2, 3};
  norm(x, ufx::keepdims);
}
