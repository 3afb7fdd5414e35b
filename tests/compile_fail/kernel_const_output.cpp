// Expected: a const vector bound to a written (non-const) ndview parameter.
#include <ufx/kernel.hpp>
#include <vector>

int main() {
  auto k = ufx::kernel([](const ufx::thread&, ufx::ndview<float, 1> a) { a(0) = 1; });
  const std::vector<float> v(4);
  k[{1, 1}](v);
}
