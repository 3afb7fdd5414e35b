// Vector addition with ufx::vectorize: one scalar function, run on std::vector on the default
// target and then on each target this build and machine can run. Exits non-zero on a wrong sum.
#include <ufx/ufx.hpp>

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace {

/// Checks z[i] == x[i] + y[i] and prints a one-line summary; false on any mismatch.
bool report(std::string_view where, const std::vector<float>& x, const std::vector<float>& y,
            const std::vector<float>& z) {
  std::size_t bad = z.size() == x.size() ? 0 : x.size();
  for (std::size_t i = 0; i < z.size() && i < x.size(); ++i) bad += z[i] != x[i] + y[i];
  std::printf("%-20.*s z[0] = %g, z[%zu] = %g, %zu wrong\n", static_cast<int>(where.size()), where.data(),
              static_cast<double>(z.front()), z.size() - 1, static_cast<double>(z.back()), bad);
  return bad == 0;
}

} // namespace

int main() {
  // UFX_HD makes the lambda callable on a CUDA device when this file is compiled by nvcc.
  auto add = ufx::vectorize([] UFX_HD(float a, float b) { return a + b; });

  const std::size_t n = 1 << 20;
  std::vector<float> x(n), y(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 0.5f * static_cast<float>(i);
  }

  bool ok = true;
  std::printf("vector addition of %zu floats\n", n);

  // No target named: ufx::cuda when this file is nvcc-compiled and a GPU answers, else ufx::host.
  std::vector<float> z = add(x, y);
  ok &= report("default (" + std::string(ufx::default_target().name()) + ")", x, y, z);

  ok &= report("ufx::serial", x, y, add(ufx::serial, x, y));
  ok &= report("ufx::host", x, y, add(ufx::host, x, y));
  // ufx::sim stages x and y into emulated device memory, runs there and copies z back.
  ok &= report("ufx::sim", x, y, add(ufx::sim, x, y));
#if UFX_CUDA_TU
  // Only code compiled by nvcc can launch CUDA kernels; vector_add_cuda is this file built that way.
  if (ufx::cuda_available()) {
    ok &= report("ufx::cuda", x, y, add(ufx::cuda, x, y));
  } else {
    std::printf("%-20s skipped: %s\n", "ufx::cuda", std::string(ufx::cuda_unavailable_reason()).c_str());
  }
#else
  std::printf("%-20s skipped: this binary was compiled by a host compiler\n", "ufx::cuda");
#endif

  std::printf(ok ? "all sums right\n" : "WRONG SUMS\n");
  return ok ? 0 : 1;
}
