// Expected: "ufx::where: an elementwise call with a mask needs ufx::out(dst)" (NumPy leaves the other elements
// uninitialised; ufx has nothing to leave them as).
#include <ufx/ufx.hpp>

#include <vector>

int main() {
  const auto add = ufx::vectorize([](float a, float b) { return a + b; });
  const std::vector<float> x{1.f, 2.f};
  const ufx::ndarray<bool, 1> m({2}, true);
  add(x, x, ufx::where(m));
}
