// Expected: "ufx: f.reduce with ufx::where needs the function's identity" (NumPy asks for initial=; ufx for an
// identity, which the masked-out elements become).
#include <ufx/ufx.hpp>

#include <vector>

int main() {
  const auto maximum = ufx::vectorize([](float a, float b) { return a < b ? b : a; });
  const std::vector<float> x{1.f, 2.f};
  const ufx::ndarray<bool, 1> m({2}, true);
  (void)maximum.reduce(x, ufx::where(m), ufx::initial(0.f));
}
