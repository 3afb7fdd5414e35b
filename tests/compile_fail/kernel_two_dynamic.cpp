// Expected: at most one ufx::shared<T[]>.
#include <ufx/kernel.hpp>

int main() {
  auto k = ufx::kernel(
      [](const ufx::thread&, ufx::shared<float[]> a, ufx::shared<int[]> b) { b[0] = static_cast<int>(a[0]); });
  k[{1, 1, 64}]();
}
