// Expected: "ufx::eval: the first argument is an expression \(ufx::lazy\) or std::tie".
#include <ufx/lazy.hpp>

#include <vector>

int main() {
  std::vector<float> x{1, 2};
  auto r = ufx::eval(x); // nothing lazy: x is already computed
  (void)r;
}
