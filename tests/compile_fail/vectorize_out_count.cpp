// Expected: "ufx::out: the number of destinations differs from the number of outputs the function
// returns" (a function with two outputs, one destination).
#include <ufx/vectorize.hpp>

#include <utility>
#include <vector>

int main() {
  auto divmod = ufx::vectorize([](int a, int b) { return std::pair{a / b, a % b}; });
  const std::vector<int> x{7, 8, 9};
  std::vector<int> q(3);
  divmod(x, 2, ufx::out(q));
}
