// Expected: "guvectorize: an input with a core of rank k is passed as ufx::ndview<const T, k>"
// (the input parameter is a mutable view: inputs are read-only).
#include <ufx/guvectorize.hpp>

int main() {
  auto g = ufx::guvectorize<"(n)->()">([](ufx::ndview<float, 1> x, float& r) { r = x(0); });
  (void)g;
}
