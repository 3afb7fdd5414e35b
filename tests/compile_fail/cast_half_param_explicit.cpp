// Expected: "an array operand's elements convert to the function's parameter type only explicitly"
// (same_kind allows float64 into float16, but ufx::float16 is made from a double only explicitly,
// as C++23's std::float16_t; a float parameter is the way).
#include <ufx/half.hpp>
#include <ufx/vectorize.hpp>

#include <vector>

int main() {
  auto twice = ufx::vectorize([](ufx::float16 a) { return a + a; });
  const std::vector<double> x{0.1, 2.5};
  auto z = twice(x, ufx::casting::same_kind);
}
