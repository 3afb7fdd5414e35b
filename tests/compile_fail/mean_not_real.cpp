// Expected: "ufx::mean / var / std: the elements must be numbers (real or std::complex)".
#include <ufx/reducers.hpp>

#include <vector>

struct point {
  float x, y;
};

int main() {
  std::vector<point> p(3);
  auto m = ufx::mean(p);
  (void)m;
}
