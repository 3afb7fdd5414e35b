// Expected: "guvectorize: NumPy's flexible '?' dimensions are not supported".
#include <ufx/guvectorize.hpp>

int main() {
  auto g = ufx::guvectorize<"(m?,n),(n,p?)->(m?,p?)">(
      [](ufx::ndview<const float, 2>, ufx::ndview<const float, 2>, ufx::ndview<float, 2>) {});
  (void)g;
}
