#pragma once
// What the benches share: reproducible random float32 (and float16) data.
#include <cstddef>
#include <random>
#include <ufx/half.hpp>
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

/// random_vector's floats rounded to float16.
inline std::vector<ufx::float16> random_halves(std::size_t n, unsigned seed) {
  const std::vector<float> f = random_vector(n, seed);
  std::vector<ufx::float16> h(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = ufx::float16(f[i]);
  return h;
}

} // namespace ufx_bench
