// Expected: "ufx::out: this destination is not writable" (a const container as destination).
#include <ufx/vectorize.hpp>

#include <vector>

int main() {
  auto neg = ufx::vectorize([](float a) { return -a; });
  const std::vector<float> x{1.f, 2.f, 3.f};
  const std::vector<float> z(3);
  neg(x, ufx::out(z));
}
