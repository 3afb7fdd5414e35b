// Expected: "ufx::out: name at least one destination" (ufx::out() with nothing in it).
#include <ufx/vectorize.hpp>

#include <vector>

int main() {
  auto neg = ufx::vectorize([](float a) { return -a; });
  const std::vector<float> x{1.f, 2.f, 3.f};
  neg(x, ufx::out());
}
