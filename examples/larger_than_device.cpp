// Data larger than the device, the tutorials' overflow case scaled to this machine: a float32
// array four times the size of the (virtual) device, summed on the device. Copying it there whole
// is out of device memory; the reduction streams it through in chunks instead, and its partials
// combine pairwise, so the result is as accurate as the in-memory sum. Exits non-zero on a wrong sum.
//
//   NumPy / Numba:  x = np.random.normal(size=N)     # N * 4 bytes > the GPU's memory
//                   cuda.to_device(x)                # CUDA_ERROR_OUT_OF_MEMORY
//   ufx:            sum(ufx::sim, x)                 # runs in chunks that fit
#include <ufx/ufx.hpp>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

int main() {
  constexpr std::size_t device_bytes = std::size_t{16} << 20; // a 16 MiB virtual device
  ufx::configure_sim({.devices = 1, .memory = device_bytes});

  const std::size_t n = 4 * device_bytes / sizeof(float); // 64 MiB of float32: 4x the device
  std::vector<float> x(n);
  std::mt19937 gen(42);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (float& v : x) v = normal(gen);
  double exact = 0, magnitude = 0; // double sums: exact far below float's precision here
  for (float v : x) exact += v, magnitude += std::abs(v);

  auto sum = ufx::reducer([] UFX_HD(float a, float b) { return a + b; }, 0.0f);
  bool ok = true;

  // the whole array does not fit: to_device fails, naming the sizes and how to chunk
  try {
    auto d = ufx::to_device(x, ufx::sim);
    std::printf("to_device of 64 MiB on a 16 MiB device succeeded: WRONG\n");
    ok = false;
  } catch (const ufx::device_error& e) {
    std::printf("to_device: %s\n", e.what());
  }

  // a reduction of host data streams it through the device in chunks that fit
  auto check = [&](const char* how, float got) {
    const double err = std::abs(static_cast<double>(got) - exact);
    // pairwise float sums stay within a few ulp of sum |x|; a sequential float loop drifts far past it
    const bool right = err <= 1e-8 * magnitude;
    std::printf("%-34s %.3f (exact %.3f, error %.2g) %s\n", how, got, exact, err, right ? "" : "WRONG");
    ok &= right;
  };
  check("sum(ufx::sim, x), automatic chunks", sum(ufx::sim, x));
  check("sum(ufx::chunked(ufx::sim, 1 MiB))", sum(ufx::chunked(ufx::sim, 1 << 20), x));
  check("sum(ufx::host, x), in memory", sum(ufx::host, x));
#if UFX_CUDA_TU
  if (ufx::cuda_available())
    check("sum(ufx::chunked(ufx::cuda, 16 MiB))", sum(ufx::chunked(ufx::cuda, device_bytes), x));
  else std::printf("%-34s skipped: %s\n", "ufx::cuda", std::string(ufx::cuda_unavailable_reason()).c_str());
#endif

  // elementwise calls chunk the same way: y = 2x + 1 through the 16 MiB device
  auto affine = ufx::vectorize([] UFX_HD(float v) { return 2.0f * v + 1.0f; });
  const std::vector<float> y = affine(ufx::sim, x);
  bool same = y.size() == n;
  for (std::size_t i = 0; same && i < n; ++i) same = y[i] == 2.0f * x[i] + 1.0f;
  std::printf("%-34s %s\n", "y = 2x + 1 on ufx::sim, chunked", same ? "equal to the host loop" : "WRONG");
  ok &= same;

  std::printf(ok ? "all right\n" : "WRONG\n");
  return ok ? 0 : 1;
}
