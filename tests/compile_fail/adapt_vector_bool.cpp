// Expected: "ufx: std::vector<bool> has no element storage".
#include <ufx/vectorize.hpp>

#include <vector>

int main() {
  auto logical_not = ufx::vectorize([](bool a) { return !a; });
  const std::vector<bool> m{true, false, true};
  auto z = logical_not(m);
  (void)z;
}
