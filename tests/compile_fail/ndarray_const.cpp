// Expected: "ufx::ndarray: the element type must not be const" (a read-only array spelled as an
// ndarray of const elements).
#include <ufx/ndarray.hpp>

int main() {
  const ufx::ndarray<const float, 1> a({3}, 1.f);
  (void)a;
}
