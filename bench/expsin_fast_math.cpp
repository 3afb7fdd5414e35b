// exp(-x*x)*sin(y)+1 in an OpenMP loop built with -ffast-math (bench/CMakeLists.txt sets the flag
// for this file alone): GCC then calls glibc's vector expf and sinf (libmvec). Issue #11's
// yardstick for ufx::math in bench_vectorize (expsin/omp_loop_fast_math), and each function alone
// (math/<fn>/omp_loop_fast_math).
#include <cmath>
#include <cstddef>

void expsin_fast_math_omp(const float* x, const float* y, float* z, std::size_t n) {
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) z[i] = std::exp(-x[i] * x[i]) * std::sin(y[i]) + 1.f;
}

// One function per call, the same -ffast-math OpenMP loop: fn is 0 exp, 1 sin, 2 cos, 3 log, 4 tanh,
// 5 sqrt, 6 pow (y the exponent).
void math_fast_math_omp(int fn, const float* x, const float* y, float* z, std::size_t n) {
#define UFX_BENCH_LOOP(expr)                                                                                           \
  { _Pragma("omp parallel for schedule(static)") for (std::size_t i = 0; i < n; ++i) z[i] = (expr); }                  \
  break
  switch (fn) {
  case 0: UFX_BENCH_LOOP(std::exp(x[i]));
  case 1: UFX_BENCH_LOOP(std::sin(x[i]));
  case 2: UFX_BENCH_LOOP(std::cos(x[i]));
  case 3: UFX_BENCH_LOOP(std::log(x[i]));
  case 4: UFX_BENCH_LOOP(std::tanh(x[i]));
  case 5: UFX_BENCH_LOOP(std::sqrt(x[i]));
  default: UFX_BENCH_LOOP(std::pow(x[i], y[i]));
  }
#undef UFX_BENCH_LOOP
}
