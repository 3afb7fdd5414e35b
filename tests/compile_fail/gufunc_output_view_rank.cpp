// Expected: "guvectorize: an output with a core of rank k is passed as ufx::ndview<T, k>" (an
// "(m,p)" output taken as a rank-1 view).
#include <ufx/guvectorize.hpp>

int main() {
  auto outer = ufx::guvectorize<"(m),(p)->(m,p)">([](ufx::ndview<const float, 1> a, ufx::ndview<const float, 1> b,
                                                     ufx::ndview<float, 1> r) { r(0) = a(0) * b(0); });
  (void)outer;
}
