// Expected: "guvectorize: an output with core '()' is written through a reference: its parameter
// must be T&" (the output parameter is taken by value, so the result would be lost).
#include <ufx/guvectorize.hpp>

int main() {
  auto g = ufx::guvectorize<"(n)->()">([](ufx::ndview<const float, 1>, float) {});
  (void)g;
}
