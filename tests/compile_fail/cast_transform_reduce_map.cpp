// Expected: input_cast<0, long, float, ...> (int64 elements into the map's float parameter).
#include <ufx/reduce.hpp>

#include <vector>

int main() {
  const std::vector<long> x{1, 2};
  float s = ufx::transform_reduce(
      x, [](float v) { return v * v; }, ufx::plus{}, 0.f);
}
