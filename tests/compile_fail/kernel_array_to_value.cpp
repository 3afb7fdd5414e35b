// Expected: an array passed where the body takes a value.
#include <ufx/kernel.hpp>
#include <vector>

int main() {
  auto k = ufx::kernel([](const ufx::thread&, float a) { (void)a; });
  std::vector<float> v(4);
  k[{1, 1}](v);
}
