// Expected: "ufx::lazy: mark an array operand".
#include <ufx/lazy.hpp>

int main() {
  const float two = 2.f;
  auto e = ufx::lazy(two);
  (void)e;
}
