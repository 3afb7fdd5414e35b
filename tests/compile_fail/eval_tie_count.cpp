// Expected: "ufx::eval: name one destination in std::tie\(...\) for each expression".
#include <ufx/lazy.hpp>

#include <tuple>
#include <vector>

struct add_fn {
  float operator()(float a, float b) const { return a + b; }
};

int main() {
  const auto add = ufx::vectorize(add_fn{});
  std::vector<float> x{1, 2}, y{3, 4}, z(2);
  ufx::eval(std::tie(z), add(ufx::lazy(x), y), add(ufx::lazy(y), x));
}
