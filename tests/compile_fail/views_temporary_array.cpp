// Expected: "use of deleted function ... transpose" (a view of a temporary ndarray would dangle).
#include <ufx/views.hpp>

int main() {
  auto t = ufx::transpose(ufx::ndarray<float, 2>({2, 3}, 0.f));
  (void)t;
}
