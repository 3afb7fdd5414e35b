// Expected: "a C++ scalar operand does not convert implicitly to the function's parameter type"
// (a double scalar into a float16 parameter: write ufx::float16(0.5f)).
#include <ufx/half.hpp>
#include <ufx/vectorize.hpp>

#include <vector>

int main() {
  auto mul = ufx::vectorize([](ufx::float16 a, ufx::float16 b) { return a * b; });
  const std::vector<ufx::float16> x{ufx::float16(1.f), ufx::float16(2.f)};
  auto z = mul(x, 0.5);
}
