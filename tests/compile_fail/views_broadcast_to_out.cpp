// Expected: "ufx::out: this destination is not writable" (broadcast_to's view is read-only, as NumPy's:
// its elements share memory).
#include <ufx/vectorize.hpp>
#include <ufx/views.hpp>

int main() {
  auto neg = ufx::vectorize([](float a) { return -a; });
  ufx::ndarray<float, 1> x({3}, 1.f);
  ufx::ndarray<float, 2> m({2, 3}, 1.f);
  neg(m, ufx::out(ufx::broadcast_to(x, {2, 3})));
}
