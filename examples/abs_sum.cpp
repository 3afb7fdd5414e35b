// The sum of |x| three ways: a plain loop, ufx::transform_reduce on ufx::host, and on the default
// target (ufx::cuda when this file is nvcc-compiled and a GPU answers). transform_reduce maps |x|
// and sums in one pass, without storing the mapped array. Timings are one run each, printed for
// orientation (bench/bench_reduce.cpp measures properly). Exits non-zero on a wrong sum.
#include <ufx/ufx.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

struct abs_value {
  UFX_HD float operator()(float v) const { return v < 0 ? -v : v; }
};

template <class Fn>
double timed(const char* what, Fn&& fn) {
  const auto t0 = std::chrono::steady_clock::now();
  const double r = fn();
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%-34s %.6e  %8.3f ms\n", what, r, ms);
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
  const double host = timed("transform_reduce on ufx::host", [&] {
    return static_cast<double>(ufx::transform_reduce(ufx::host, x, abs_value{}, ufx::plus{}, 0.0f));
  });
  const std::string where = "transform_reduce on " + std::string(ufx::default_target().name());
  const double dflt = timed(where.c_str(), [&] {
    return static_cast<double>(ufx::transform_reduce(x, abs_value{}, ufx::plus{}, 0.0f));
  });

  // float32 pairwise sums stay within a few float ulps of the double loop
  const bool ok = std::abs(host - loop) <= 1e-6 * loop && std::abs(dflt - loop) <= 1e-6 * loop;
  std::printf(ok ? "all sums agree\n" : "SUMS DISAGREE\n");
  return ok ? 0 : 1;
}
