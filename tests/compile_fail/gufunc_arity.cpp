// Expected: "guvectorize: the function's parameter count differs from the signature's operand
// count", with the instantiation line naming 2 parameters, the signature and 3 operands.
#include <ufx/guvectorize.hpp>

int main() {
  auto g = ufx::guvectorize<"(m,n),(n,p)->(m,p)">([](ufx::ndview<const float, 2>, ufx::ndview<float, 2>) {});
  (void)g;
}
