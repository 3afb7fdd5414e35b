// Expected: a vector of double bound to an ndview of float.
#include <ufx/kernel.hpp>
#include <vector>

int main() {
  auto k = ufx::kernel([](const ufx::thread&, ufx::ndview<const float, 1> a) { (void)a; });
  std::vector<double> v(4);
  k[{1, 1}](v);
}
