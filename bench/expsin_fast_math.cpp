// exp(-x*x)*sin(y)+1 in an OpenMP loop built with -ffast-math (bench/CMakeLists.txt sets the flag
// for this file alone): GCC then calls glibc's vector expf and sinf (libmvec). Issue #11's
// yardstick for ufx::math in bench_vectorize (expsin/omp_loop_fast_math).
#include <cmath>
#include <cstddef>

void expsin_fast_math_omp(const float* x, const float* y, float* z, std::size_t n) {
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) z[i] = std::exp(-x[i] * x[i]) * std::sin(y[i]) + 1.f;
}
