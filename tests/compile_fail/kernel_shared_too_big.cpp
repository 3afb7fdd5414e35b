// Expected: static shared arrays above 48 KiB.
#include <ufx/kernel.hpp>

int main() {
  auto k = ufx::kernel([](const ufx::thread&, ufx::shared<double[80][80]> a) { a(0, 0) = 1; });
  k[{1, 1}]();
}
