// Expected: the body's first parameter must be the thread.
#include <ufx/kernel.hpp>
#include <vector>

int main() {
  auto k = ufx::kernel([](ufx::ndview<float, 1> a) { a(0) = 1; });
  std::vector<float> v(4);
  k[{1, 1}](v);
}
