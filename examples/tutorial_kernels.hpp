#pragma once
// The @cuda.jit kernels of the Numba tutorials, written for ufx::kernel (docs/kernels.md). Each is
// a functor with a UFX_HD call operator, so the same body runs as a CUDA kernel on ufx::cuda and
// on the CPU targets. examples/kernels.cpp runs them; the tests, the PTX check and the benchmarks
// use them too.
#include <ufx/ufx.hpp>

namespace tutorial {

/// Tile width of the shared-memory matmul (threads per block along x and y).
constexpr int TPB = 16;

/// Vector add: one thread per element, `cuda.grid(1)` with a bounds check.
struct vector_add {
  UFX_HD void operator()(const ufx::thread& t, ufx::ndview<const float, 1> x, ufx::ndview<const float, 1> y,
                         ufx::ndview<float, 1> out) const {
    const ufx::index_t i = t.grid<1>();
    if (i < out.extent(0)) out(i) = x(i) + y(i);
  }
};

/// The naive matmul: one thread per element of C, `cuda.grid(2)`.
struct matmul {
  UFX_HD void operator()(const ufx::thread& t, ufx::ndview<const float, 2> A, ufx::ndview<const float, 2> B,
                         ufx::ndview<float, 2> C) const {
    auto [i, j] = t.grid<2>();
    if (i < C.extent(0) && j < C.extent(1)) {
      float tmp = 0;
      for (ufx::index_t k = 0; k < A.extent(1); ++k) tmp += A(i, k) * B(k, j);
      C(i, j) = tmp;
    }
  }
};

/// The shared-memory tiled matmul, corrected: the tutorial returns early (`if x >= C.shape[0] and
/// y >= C.shape[1]: return`) before the first syncthreads(), which the sim reports as barrier
/// divergence when the size is not a multiple of TPB; here every thread stays in the loop, loads
/// zeros outside the matrices and guards only the store.
struct tiled_matmul {
  UFX_HD void operator()(const ufx::thread& t, ufx::shared<float[TPB][TPB]> sA, ufx::shared<float[TPB][TPB]> sB,
                         ufx::ndview<const float, 2> A, ufx::ndview<const float, 2> B, ufx::ndview<float, 2> C) const {
    auto [x, y] = t.grid<2>();
    const auto tx = t.thread_idx().x, ty = t.thread_idx().y;
    float tmp = 0;
    for (ufx::index_t i = 0; i < t.grid_dim().x; ++i) {
      sA(tx, ty) = (x < A.extent(0) && ty + i * TPB < A.extent(1)) ? A(x, ty + i * TPB) : 0.f;
      sB(tx, ty) = (y < B.extent(1) && tx + i * TPB < B.extent(0)) ? B(tx + i * TPB, y) : 0.f;
      t.sync();
      for (int j = 0; j < TPB; ++j) tmp += sA(tx, j) * sB(j, ty);
      t.sync();
    }
    if (x < C.extent(0) && y < C.extent(1)) C(x, y) = tmp;
  }
};

/// tiled_matmul with its indices swapped so that a warp's lanes walk along rows: threads along x take C's columns
/// (`C[y, x]`, where the tutorial writes `C[x, y]`), and each tile is stored as it is read. ufx::profile shows the
/// difference (docs/kernels.md, "Is my kernel fast?"): the tutorial's warps touch 16 rows a request, 16 sectors for
/// 64 bytes of data, and its sA(tx, j) reads fall 8 to a bank; here a request's 32 floats lie in two rows (4 sectors)
/// and every shared read is conflict-free.
struct tiled_matmul_rows {
  UFX_HD void operator()(const ufx::thread& t, ufx::shared<float[TPB][TPB]> sA, ufx::shared<float[TPB][TPB]> sB,
                         ufx::ndview<const float, 2> A, ufx::ndview<const float, 2> B, ufx::ndview<float, 2> C) const {
    const auto tx = t.thread_idx().x, ty = t.thread_idx().y;
    const ufx::index_t col = t.block_idx().x * TPB + tx, row = t.block_idx().y * TPB + ty;
    float tmp = 0;
    for (ufx::index_t i = 0; i < A.extent(1); i += TPB) {
      sA(ty, tx) = (row < A.extent(0) && i + tx < A.extent(1)) ? A(row, i + tx) : 0.f;
      sB(ty, tx) = (i + ty < B.extent(0) && col < B.extent(1)) ? B(i + ty, col) : 0.f;
      t.sync();
      for (int j = 0; j < TPB; ++j) tmp += sA(ty, j) * sB(j, tx);
      t.sync();
    }
    if (row < C.extent(0) && col < C.extent(1)) C(row, col) = tmp;
  }
};

/// The tutorial's tiled matmul as written, with its early return before the barriers (the tests
/// show the sim reporting it).
struct tiled_matmul_early_return {
  UFX_HD void operator()(const ufx::thread& t, ufx::shared<float[TPB][TPB]> sA, ufx::shared<float[TPB][TPB]> sB,
                         ufx::ndview<const float, 2> A, ufx::ndview<const float, 2> B, ufx::ndview<float, 2> C) const {
    auto [x, y] = t.grid<2>();
    const auto tx = t.thread_idx().x, ty = t.thread_idx().y;
    if (x >= C.extent(0) && y >= C.extent(1)) return;
    float tmp = 0;
    for (ufx::index_t i = 0; i < t.grid_dim().x; ++i) {
      sA(tx, ty) = (ty + i * TPB < A.extent(1) && x < A.extent(0)) ? A(x, ty + i * TPB) : 0.f;
      sB(tx, ty) = (tx + i * TPB < B.extent(0) && y < B.extent(1)) ? B(tx + i * TPB, y) : 0.f;
      t.sync();
      for (int j = 0; j < TPB; ++j) tmp += sA(tx, j) * sB(j, ty);
      t.sync();
    }
    if (x < C.extent(0) && y < C.extent(1)) C(x, y) = tmp;
  }
};

/// `doubled` with cuda.threadIdx in 2-D: one block covers the array.
struct doubled_threadidx {
  UFX_HD void operator()(const ufx::thread& t, ufx::ndview<float, 2> a) const {
    const auto tx = t.thread_idx().x, ty = t.thread_idx().y;
    if (tx < a.extent(0) && ty < a.extent(1)) a(tx, ty) *= 2;
  }
};

/// `doubled` with cuda.grid(2).
struct doubled_grid {
  UFX_HD void operator()(const ufx::thread& t, ufx::ndview<float, 2> a) const {
    auto [x, y] = t.grid<2>();
    if (x < a.extent(0) && y < a.extent(1)) a(x, y) *= 2;
  }
};

/// The sum: a grid-stride loop (cuda.gridsize(1)) and one atomic add per thread into out(0).
struct grid_stride_sum {
  UFX_HD void operator()(const ufx::thread& t, ufx::ndview<const float, 1> x, ufx::ndview<float, 1> out) const {
    float acc = 0;
    for (ufx::index_t i = t.grid<1>(); i < x.extent(0); i += t.gridsize<1>()) acc += x(i);
    ufx::atomic_add(out(0), acc);
  }
};

} // namespace tutorial
