// Expected: "ufx: no adapter for this argument type" (std::list has no contiguous storage).
#include <ufx/vectorize.hpp>

#include <list>

int main() {
  auto neg = ufx::vectorize([](float a) { return -a; });
  const std::list<float> x{1.f, 2.f, 3.f};
  auto z = neg(x);
  (void)z;
}
