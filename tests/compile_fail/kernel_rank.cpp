// Expected: a rank-1 vector bound to a rank-2 ndview parameter.
#include <ufx/kernel.hpp>
#include <vector>

int main() {
  auto k = ufx::kernel([](const ufx::thread&, ufx::ndview<float, 2> a) { a(0, 0) = 1; });
  std::vector<float> v(4);
  k[{1, 1}](v);
}
