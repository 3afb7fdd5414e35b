// Expected: no operator + for two std::vectors: ufx has operators on its own types only (ufx::ndarray, device_array,
// lazy operands and expressions); call ufx::add(a, b), or mark one operand ufx::lazy.
#include <ufx/ufuncs.hpp>

#include <vector>

int main() {
  const std::vector<float> a{1.f}, b{2.f};
  const std::vector<float> c = a + b;
  (void)c;
}
