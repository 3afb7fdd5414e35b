// Expected: "ufx: f.reduce is only supported for binary functions" (NumPy's rule), and nothing after it.
#include <ufx/vectorize.hpp>

#include <vector>

int main() {
  const auto neg = ufx::vectorize([](float a) { return -a; });
  const std::vector<float> x{1.f, 2.f};
  (void)neg.reduce(x);
}
