// Expected: a temporary vector bound to a written ndview parameter (its result would be lost).
#include <ufx/kernel.hpp>
#include <vector>

int main() {
  auto k = ufx::kernel([](const ufx::thread&, ufx::ndview<float, 1> a) { a(0) = 1; });
  k[{1, 1}](std::vector<float>(4));
}
