// Expected: "guvectorize: malformed signature: no '->' between the inputs and the outputs".
#include <ufx/guvectorize.hpp>

int main() {
  auto g = ufx::guvectorize<"(m,n)">([](ufx::ndview<const float, 2>) {});
  (void)g;
}
