// Expected: the launch passes two arguments, the body takes one.
#include <ufx/kernel.hpp>
#include <vector>

int main() {
  auto k = ufx::kernel([](const ufx::thread&, ufx::ndview<float, 1> a) { a(0) = 1; });
  std::vector<float> v(4), w(4);
  k[{1, 1}](v, w);
}
