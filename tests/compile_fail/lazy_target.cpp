// Expected: "ufx::lazy: a call with a lazy operand builds an expression and takes no target".
#include <ufx/lazy.hpp>

#include <vector>

struct add_fn {
  float operator()(float a, float b) const { return a + b; }
};

int main() {
  const auto add = ufx::vectorize(add_fn{});
  std::vector<float> x{1, 2}, y{3, 4};
  auto e = add(ufx::host, ufx::lazy(x), y); // the target belongs to ufx::eval(e, ufx::host)
  (void)e;
}
