// The sum of |x| three ways: a plain loop, and the Numba tutorial's reducer
// (`if b < 0: return a - b else: return a + b`, identity 0) on ufx::host and on the default target
// (ufx::cuda when this file is nvcc-compiled and a GPU answers). ufx folds each element into an
// accumulator that starts at the identity, element on the right, so the reducer's left argument is
// never negative and the sum is |x|'s (docs/reduce.md, "What op may assume"). Timings are one run
// each, printed for orientation (bench/bench_reduce.cpp measures properly). Exits non-zero on a
// wrong sum.
#include <ufx/ufx.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

// Numba:  @cuda.reduce
//         def sum_abs(a, b):
//             if b < 0: return a - b
//             else:     return a + b
struct sum_abs {
  UFX_HD float operator()(float a, float b) const { return b < 0 ? a - b : a + b; }
};

template <class Fn>
double timed(const char* what, Fn&& fn) {
  const auto t0 = std::chrono::steady_clock::now();
  const double r = fn();
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%-36s %.6e  %8.3f ms\n", what, r, ms);
  return r;
}

} // namespace

int main() {
  const std::size_t n = std::size_t{1} << 22;
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = std::sin(0.001f * static_cast<float>(i)) * 3.0f;

  std::printf("sum of |x| over %zu floats\n", n);
  const double loop = timed("plain loop (double accumulator)", [&] {
    double s = 0;
    for (float v : x) s += std::abs(v);
    return s;
  });
  const auto absum = ufx::reducer(sum_abs{}, 0.0f);
  const double host =
      timed("the tutorial's reducer on ufx::host", [&] { return static_cast<double>(absum(ufx::host, x)); });
  const std::string where = "the tutorial's reducer on " + std::string(ufx::default_target().name());
  const double dflt = timed(where.c_str(), [&] { return static_cast<double>(absum(x)); });

  // float32 pairwise sums stay within a few float ulps of the double loop
  const bool ok = std::abs(host - loop) <= 1e-6 * loop && std::abs(dflt - loop) <= 1e-6 * loop;
  std::printf(ok ? "all sums agree\n" : "SUMS DISAGREE\n");
  return ok ? 0 : 1;
}
