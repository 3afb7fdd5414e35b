// Expected: ufx::shared parameters come right after the thread.
#include <ufx/kernel.hpp>
#include <vector>

int main() {
  auto k = ufx::kernel([](const ufx::thread&, ufx::ndview<float, 1> a, ufx::shared<float[4]> s) { s[0] = a(0); });
  std::vector<float> v(4);
  k[{1, 1}](v);
}
