// Expected: "ufx::guvectorize: an expression \(ufx::lazy\) is not an operand of a gufunc".
#include <ufx/guvectorize.hpp>
#include <ufx/lazy.hpp>

#include <vector>

struct add_fn {
  float operator()(float a, float b) const { return a + b; }
};
struct total {
  void operator()(ufx::ndview<const float, 1> x, float& s) const {
    s = 0;
    for (ufx::index_t i = 0; i < x.extent(0); ++i) s += x(i);
  }
};

int main() {
  const auto add = ufx::vectorize(add_fn{});
  const auto sum_rows = ufx::guvectorize<"(n)->()">(total{});
  std::vector<float> x{1, 2}, y{3, 4};
  auto s = sum_rows(add(ufx::lazy(x), y));
  (void)s;
}
