// Expected: "ufx::mean: ddof belongs to ufx::var and ufx::std".
#include <ufx/reducers.hpp>

#include <vector>

int main() {
  std::vector<double> x{1, 2, 3};
  return static_cast<int>(ufx::mean(x, ufx::ddof{1}));
}
