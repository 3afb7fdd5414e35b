// Expected: input_cast<0, int, bool, ...> (nothing but bool converts safely to bool).
#include <ufx/vectorize.hpp>

#include <vector>

int main() {
  auto negate = ufx::vectorize([](bool a) { return !a; });
  auto z = negate(std::vector<int>{0, 2});
}
