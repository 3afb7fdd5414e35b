// Expected: "ufx: this ufunc is not associative": np.subtract.reduce folds left to right; ufx's reductions run in a
// tree.
#include <ufx/ufuncs.hpp>

#include <vector>

int main() {
  const std::vector<float> x{1.f, 2.f, 3.f};
  (void)ufx::subtract.reduce(x);
}
