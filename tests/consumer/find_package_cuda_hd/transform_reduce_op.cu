// transform_reduce whose operation has no UFX_HD (the map is a UFX_HD lambda), on ufx::cuda.
#include <ufx/ufx.hpp>

#include <vector>

struct max_f {
  float operator()(float a, float b) const { return a < b ? b : a; }
};

float run(const std::vector<float>& x) {
  return ufx::transform_reduce(
      ufx::cuda, x, [] UFX_HD(float a) { return 2 * a; }, max_f{}, -1e30f);
}
