// Control case: with the same flags as the failing cases (ufx::ufx's: 20011 and 20014 are errors),
// functions marked UFX_HD build on ufx::cuda, and a host-only function still builds on a host
// target when its call does not go through device code (a single-output vectorize).
#include <ufx/ufx.hpp>

#include <vector>

struct host_only_twice {
  float operator()(float x) const { return 2 * x; }
};

int main() {
  auto add = ufx::vectorize([] UFX_HD(float a, float b) { return a + b; });
  auto sum = ufx::reducer([] UFX_HD(float a, float b) { return a + b; }, 0.0f);
  const std::vector<float> x{1, 2, 3};
  const std::vector<float> twice = ufx::vectorize(host_only_twice{})(ufx::host, x);
  if (!ufx::cuda_available()) return twice[2] == 6 ? 0 : 1;
  const std::vector<float> y = add(ufx::cuda, x, x);
  return y[2] == 6 && sum(ufx::cuda, x) == 6 && twice[2] == 6 ? 0 : 1;
}
