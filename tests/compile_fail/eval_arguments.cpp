// Expected: "ufx::eval: call it as eval\(e\), eval\(e, target\)".
#include <ufx/lazy.hpp>

#include <vector>

struct add_fn {
  float operator()(float a, float b) const { return a + b; }
};

int main() {
  const auto add = ufx::vectorize(add_fn{});
  std::vector<float> x{1, 2}, y{3, 4}, z(2);
  ufx::eval(add(ufx::lazy(x), y), ufx::out(z), ufx::host); // the target comes before ufx::out
}
