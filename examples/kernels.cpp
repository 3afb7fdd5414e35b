// The @cuda.jit kernels of the Numba tutorials as ufx::kernel (tutorial_kernels.hpp): vector add
// with cuda.grid(1), the grid(2) matmul, `doubled` with threadIdx in 2-D and with grid(2), the
// grid-stride sum with an atomic add, and the shared-memory tiled matmul. Each runs on the default target (ufx::cuda
// when this file is compiled by nvcc and a GPU answers, else ufx::host) and on ufx::sim, and is checked.
#include <ufx/ufx.hpp>

#include "tutorial_kernels.hpp"

#include <cmath>
#include <cstdio>
#include <vector>

using namespace tutorial;

static int failures = 0;
static void check(bool ok, const char* what, const ufx::target& where) {
  std::printf("%-40s on %-12s %s\n", what, std::string(where.name()).c_str(), ok ? "ok" : "WRONG");
  failures += ok ? 0 : 1;
}

static void run_all(const ufx::target& tgt) {
  const int n = 100000, threads = 128, blocks = (n + threads - 1) / threads;
  std::vector<float> x(n), y(n), out(n);
  for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i), y[i] = 2.f * static_cast<float>(i);
  ufx::kernel(vector_add{}, "vector_add")[{blocks, threads}](tgt, x, y, out);
  check(out[n - 1] == 3.f * (n - 1), "vector add, cuda.grid(1)", tgt);

  const int m = 70;
  ufx::ndarray<float, 2> A({m, m}), B({m, m}), C({m, m}), C2({m, m});
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) A(i, j) = static_cast<float>((i + j) % 5), B(i, j) = static_cast<float>((i * j) % 3);
  const unsigned bm = (m + TPB - 1) / TPB;
  ufx::kernel(matmul{}, "matmul")[{{bm, bm}, {TPB, TPB}}](tgt, A, B, C);
  ufx::kernel(tiled_matmul{}, "tiled_matmul")[{{bm, bm}, {TPB, TPB}}](tgt, A, B, C2);
  bool same = true, right = true;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      float s = 0;
      for (int k = 0; k < m; ++k) s += A(i, k) * B(k, j);
      right = right && C(i, j) == s;
      same = same && C2(i, j) == C(i, j);
    }
  check(right, "matmul, cuda.grid(2)", tgt);
  check(same, "tiled matmul, shared memory + syncthreads", tgt);

  ufx::ndarray<float, 2> a({8, 8}, 1.f);
  ufx::kernel(doubled_threadidx{}, "doubled")[{1, {8, 8}}](tgt, a);
  ufx::kernel(doubled_grid{}, "doubled")[{{2, 2}, {4, 4}}](tgt, a);
  check(a(7, 7) == 4.f && a(0, 0) == 4.f, "doubled, threadIdx 2-D and grid(2)", tgt);

  std::vector<float> total{0.f}, ones(n, 1.f);
  ufx::kernel(grid_stride_sum{}, "sum")[{64, 256}](tgt, ones, total);
  check(total[0] == static_cast<float>(n), "sum, grid-stride loop + atomic_add", tgt);
}

int main() {
  run_all(ufx::default_target());
  run_all(ufx::sim);
  return failures == 0 ? 0 : 1;
}
