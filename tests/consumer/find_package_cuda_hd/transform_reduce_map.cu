// transform_reduce whose map has no UFX_HD (the operation is ufx's), on ufx::cuda.
#include <ufx/ufx.hpp>

#include <vector>

struct square_f {
  float operator()(float a) const { return a * a; }
};

float run(const std::vector<float>& x) { return ufx::transform_reduce(ufx::cuda, x, square_f{}, ufx::plus{}, 0.0f); }
