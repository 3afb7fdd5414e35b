// Expected: "this call converts no elements and takes no ufx::casting rule" (argmax compares the
// elements as they are).
#include <ufx/reduce.hpp>

#include <vector>

int main() {
  const std::vector<double> x{1, 2};
  auto i = ufx::argmax(x, ufx::casting::unsafe);
}
