// A reducer whose operation has no UFX_HD, on ufx::cuda.
#include <ufx/ufx.hpp>

#include <vector>

struct plus_f {
  float operator()(float a, float b) const { return a + b; }
};

float run(const std::vector<float>& x) { return ufx::reducer(plus_f{}, 0.0f)(ufx::cuda, x); }
