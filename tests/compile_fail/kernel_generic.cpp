// Expected: a generic (auto) body cannot be read.
#include <ufx/kernel.hpp>
#include <vector>

int main() {
  auto k = ufx::kernel([](const ufx::thread&, auto a) { a(0) = 1; });
  std::vector<float> v(4);
  k[{1, 1}](v);
}
