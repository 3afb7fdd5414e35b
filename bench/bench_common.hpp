#pragma once
// What the benches share: reproducible random float32 data.
#include <cstddef>
#include <random>
#include <vector>

namespace ufx_bench {

/// n floats uniform in [-1, 1), the same for the same seed.
inline std::vector<float> random_vector(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  std::vector<float> v(n);
  for (auto& x : v) x = d(gen);
  return v;
}

} // namespace ufx_bench
