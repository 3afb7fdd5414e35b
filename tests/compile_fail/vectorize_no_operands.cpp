// Expected: "ufx::vectorize: call the kernel with at least one operand" (only a target is given).
#include <ufx/vectorize.hpp>

int main() {
  auto one = ufx::vectorize([] { return 1.f; });
  auto z = one(ufx::host);
  (void)z;
}
