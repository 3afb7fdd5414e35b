// Expected: "ufx::var / std: ufx::ddof given twice".
#include <ufx/reducers.hpp>

#include <vector>

int main() {
  std::vector<double> x{1, 2, 3};
  return static_cast<int>(ufx::var(x, ufx::ddof{1}, ufx::ddof{0}));
}
