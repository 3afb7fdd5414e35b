// ufx::guvectorize against hand-written loops and Eigen:
//   batched matmul (m,n),(n,p)->(m,p), (B,m,m) @ (B,m,m), m = 4 at B = 2^10, 2^16, 2^20 and
//   m = 32 at B = 2^8, 2^12;
//   row norms (n)->() over 2^22 elements, n = 3, 64, 1024.
// Each next to a serial loop over the batch, the same loop under OpenMP, and Eigen (a Map per
// block). The core code is the same everywhere (run-time sizes); "ufx_host_fixed" is ufx with the
// sizes in the signature ("(4,4),(4,4)->(4,4)"), and "omp_loop_fixed" the OpenMP loop with the size
// a compile-time constant: the fair peer for m = 4 and n = 3, which ufx's host targets run through
// a copy specialised for that size (UFX_GUFUNC_SMALL_SIZES). "matmul_fast/..." and "norms_fast/..."
// are the same problems with the cores written as docs/guvectorize.md teaches ("Writing a fast core
// function": the innermost loop along contiguous memory, `omp simd`), in ufx and in the loops alike.
// Bytes/s count every operand once.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <Eigen/Core>

#include <cmath>
#include <random>
#include <type_traits>
#include <vector>

#include <ufx/ufx.hpp>
#include <ufx/eigen.hpp>

#include "bench_common.hpp"

namespace {

using ufx::index_t;

using ufx_bench::random_vector;

// ---- the cores, shared by ufx and the hand-written loops ----------------------------------------

struct matmul_core {
  void operator()(ufx::ndview<const float, 2> a, ufx::ndview<const float, 2> b, ufx::ndview<float, 2> c) const {
    for (index_t i = 0; i < c.extent(0); ++i)
      for (index_t j = 0; j < c.extent(1); ++j) {
        float s = 0;
        for (index_t k = 0; k < a.extent(1); ++k) s += a(i, k) * b(k, j);
        c(i, j) = s;
      }
  }
};

struct norm_core {
  void operator()(ufx::ndview<const float, 1> x, float& r) const {
    float s = 0;
    for (index_t i = 0; i < x.extent(0); ++i) s += x(i) * x(i);
    r = std::sqrt(s);
  }
};

// The same cores written for speed: i-k-j order, so the innermost loop runs along a row of b and
// of c (unit stride, no dependence: `omp simd`), and the norm's sum as an `omp simd` reduction
// (without it the compiler must keep the sequential order and cannot vectorise).
struct matmul_core_fast {
  void operator()(ufx::ndview<const float, 2> a, ufx::ndview<const float, 2> b, ufx::ndview<float, 2> c) const {
    const index_t m = c.extent(0), p = c.extent(1), n = a.extent(1);
    for (index_t i = 0; i < m; ++i) {
      for (index_t j = 0; j < p; ++j) c(i, j) = 0;
      for (index_t k = 0; k < n; ++k) {
        const float aik = a(i, k);
#pragma omp simd
        for (index_t j = 0; j < p; ++j) c(i, j) += aik * b(k, j);
      }
    }
  }
};

struct norm_core_fast {
  void operator()(ufx::ndview<const float, 1> x, float& r) const {
    float s = 0;
#pragma omp simd reduction(+ : s)
    for (index_t i = 0; i < x.extent(0); ++i) s += x(i) * x(i);
    r = std::sqrt(s);
  }
};

inline void matmul_block_fast(const float* a, const float* b, float* c, index_t m) {
  for (index_t i = 0; i < m; ++i) {
    for (index_t j = 0; j < m; ++j) c[i * m + j] = 0;
    for (index_t k = 0; k < m; ++k) {
      const float aik = a[i * m + k];
#pragma omp simd
      for (index_t j = 0; j < m; ++j) c[i * m + j] += aik * b[k * m + j];
    }
  }
}

inline float norm_row_fast(const float* x, index_t n) {
  float s = 0;
#pragma omp simd reduction(+ : s)
  for (index_t i = 0; i < n; ++i) s += x[i] * x[i];
  return std::sqrt(s);
}

/// c = a @ b for row-major m x m blocks, plain pointers (the hand-written peer).
inline void matmul_block(const float* a, const float* b, float* c, index_t m) {
  for (index_t i = 0; i < m; ++i)
    for (index_t j = 0; j < m; ++j) {
      float s = 0;
      for (index_t k = 0; k < m; ++k) s += a[i * m + k] * b[k * m + j];
      c[i * m + j] = s;
    }
}

inline float norm_row(const float* x, index_t n) {
  float s = 0;
  for (index_t i = 0; i < n; ++i) s += x[i] * x[i];
  return std::sqrt(s);
}

/// The same blocks with the size a compile-time constant (the peer of ufx's small-size copies).
template <index_t M>
inline void matmul_block_fixed(const float* a, const float* b, float* c) {
  matmul_block(a, b, c, M);
}
template <index_t N>
inline float norm_row_fixed(const float* x) {
  return norm_row(x, N);
}

enum class how { serial_loop, omp_loop, omp_loop_fixed, eigen, ufx_serial, ufx_host, ufx_host_fixed };

// ---- batched matmul ------------------------------------------------------------------------------

template <how H, bool Fast = false>
void bm_matmul(benchmark::State& state) {
  const index_t m = state.range(0), batch = state.range(1), mm = m * m;
  ufx::ndarray<float, 3> a({batch, m, m}), b({batch, m, m}), c({batch, m, m});
  const auto va = random_vector(static_cast<std::size_t>(batch * mm), 1);
  const auto vb = random_vector(static_cast<std::size_t>(batch * mm), 2);
  std::copy(va.begin(), va.end(), a.begin());
  std::copy(vb.begin(), vb.end(), b.begin());
  const auto matmul = ufx::guvectorize<"(m,n),(n,p)->(m,p)">(std::conditional_t<Fast, matmul_core_fast, matmul_core>{});
  const auto block = Fast ? matmul_block_fast : matmul_block;
  const auto matmul4 = ufx::guvectorize<"(4,4),(4,4)->(4,4)">(matmul_core{});
  using rows_t = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using m4_t = Eigen::Matrix<float, 4, 4, Eigen::RowMajor>;
  for (auto _ : state) {
    const float* pa = a.data();
    const float* pb = b.data();
    float* pc = c.data();
    if constexpr (H == how::serial_loop) {
      for (index_t s = 0; s < batch; ++s) block(pa + s * mm, pb + s * mm, pc + s * mm, m);
    } else if constexpr (H == how::omp_loop) {
#pragma omp parallel for schedule(static)
      for (index_t s = 0; s < batch; ++s) block(pa + s * mm, pb + s * mm, pc + s * mm, m);
    } else if constexpr (H == how::omp_loop_fixed) {
      if (m != 4) {
        state.SkipWithError("the fixed-size loop is written for m = 4");
        break;
      }
#pragma omp parallel for schedule(static)
      for (index_t s = 0; s < batch; ++s) matmul_block_fixed<4>(pa + s * 16, pb + s * 16, pc + s * 16);
    } else if constexpr (H == how::eigen) {
      if (m == 4) {
        for (index_t s = 0; s < batch; ++s)
          Eigen::Map<m4_t>(pc + s * mm).noalias() =
              Eigen::Map<const m4_t>(pa + s * mm) * Eigen::Map<const m4_t>(pb + s * mm);
      } else {
        for (index_t s = 0; s < batch; ++s)
          Eigen::Map<rows_t>(pc + s * mm, m, m).noalias() =
              Eigen::Map<const rows_t>(pa + s * mm, m, m) * Eigen::Map<const rows_t>(pb + s * mm, m, m);
      }
    } else if constexpr (H == how::ufx_serial) {
      matmul(ufx::serial, a, b, ufx::out(c));
    } else if constexpr (H == how::ufx_host) {
      matmul(ufx::host, a, b, ufx::out(c));
    } else {
      if (m != 4) {
        state.SkipWithError("the fixed signature is (4,4),(4,4)->(4,4)");
        break;
      }
      matmul4(ufx::host, a, b, ufx::out(c));
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * batch);
  state.SetBytesProcessed(state.iterations() * batch * mm * 3 * static_cast<int64_t>(sizeof(float)));
}

void matmul_args(benchmark::internal::Benchmark* b) {
  for (int lg : {10, 16, 20}) b->Args({4, int64_t{1} << lg});
  for (int lg : {8, 12}) b->Args({32, int64_t{1} << lg});
  b->ArgNames({"m", "B"})->UseRealTime();
}

BENCHMARK(bm_matmul<how::serial_loop>)->Apply(matmul_args);
BENCHMARK(bm_matmul<how::omp_loop>)->Apply(matmul_args);
BENCHMARK(bm_matmul<how::omp_loop_fixed>)
    ->Args({4, 1 << 10})
    ->Args({4, 1 << 16})
    ->Args({4, 1 << 20})
    ->ArgNames({"m", "B"})
    ->UseRealTime();
BENCHMARK(bm_matmul<how::eigen>)->Apply(matmul_args);
BENCHMARK(bm_matmul<how::ufx_serial>)->Apply(matmul_args);
BENCHMARK(bm_matmul<how::ufx_host>)->Apply(matmul_args);
BENCHMARK(bm_matmul<how::serial_loop, true>)->Name("matmul_fast/serial_loop")->Apply(matmul_args);
BENCHMARK(bm_matmul<how::omp_loop, true>)->Name("matmul_fast/omp_loop")->Apply(matmul_args);
BENCHMARK(bm_matmul<how::ufx_serial, true>)->Name("matmul_fast/ufx_serial")->Apply(matmul_args);
BENCHMARK(bm_matmul<how::ufx_host, true>)->Name("matmul_fast/ufx_host")->Apply(matmul_args);
BENCHMARK(bm_matmul<how::ufx_host_fixed>)
    ->Args({4, 1 << 10})
    ->Args({4, 1 << 16})
    ->Args({4, 1 << 20})
    ->ArgNames({"m", "B"})
    ->UseRealTime();

// ---- row norms -----------------------------------------------------------------------------------

template <how H, bool Fast = false>
void bm_norms(benchmark::State& state) {
  const index_t n = state.range(0), total = index_t{1} << 22, rows = total / n;
  ufx::ndarray<float, 2> x({rows, n});
  const auto v = random_vector(static_cast<std::size_t>(rows * n), 3);
  std::copy(v.begin(), v.end(), x.begin());
  std::vector<float> r(static_cast<std::size_t>(rows));
  const auto norms = ufx::guvectorize<"(n)->()">(std::conditional_t<Fast, norm_core_fast, norm_core>{});
  const auto row = Fast ? norm_row_fast : norm_row;
  using rows_t = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  for (auto _ : state) {
    const float* px = x.data();
    float* pr = r.data();
    if constexpr (H == how::serial_loop) {
      for (index_t i = 0; i < rows; ++i) pr[i] = row(px + i * n, n);
    } else if constexpr (H == how::omp_loop) {
#pragma omp parallel for schedule(static)
      for (index_t i = 0; i < rows; ++i) pr[i] = row(px + i * n, n);
    } else if constexpr (H == how::omp_loop_fixed) {
      if (n != 3) {
        state.SkipWithError("the fixed-size loop is written for n = 3");
        break;
      }
#pragma omp parallel for schedule(static)
      for (index_t i = 0; i < rows; ++i) pr[i] = norm_row_fixed<3>(px + i * 3);
    } else if constexpr (H == how::eigen) {
      Eigen::Map<Eigen::VectorXf>(pr, rows).noalias() = Eigen::Map<const rows_t>(px, rows, n).rowwise().norm();
    } else if constexpr (H == how::ufx_serial) {
      norms(ufx::serial, x, ufx::out(r));
    } else {
      norms(ufx::host, x, ufx::out(r));
    }
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * (rows * n + rows) * static_cast<int64_t>(sizeof(float)));
}

void norm_args(benchmark::internal::Benchmark* b) { b->Arg(3)->Arg(64)->Arg(1024)->ArgName("n")->UseRealTime(); }

BENCHMARK(bm_norms<how::serial_loop>)->Apply(norm_args);
BENCHMARK(bm_norms<how::omp_loop>)->Apply(norm_args);
BENCHMARK(bm_norms<how::omp_loop_fixed>)->Arg(3)->ArgName("n")->UseRealTime();
BENCHMARK(bm_norms<how::eigen>)->Apply(norm_args);
BENCHMARK(bm_norms<how::ufx_serial>)->Apply(norm_args);
BENCHMARK(bm_norms<how::ufx_host>)->Apply(norm_args);
BENCHMARK(bm_norms<how::serial_loop, true>)->Name("norms_fast/serial_loop")->Apply(norm_args);
BENCHMARK(bm_norms<how::omp_loop, true>)->Name("norms_fast/omp_loop")->Apply(norm_args);
BENCHMARK(bm_norms<how::ufx_serial, true>)->Name("norms_fast/ufx_serial")->Apply(norm_args);
BENCHMARK(bm_norms<how::ufx_host, true>)->Name("norms_fast/ufx_host")->Apply(norm_args);

} // namespace

BENCHMARK_MAIN();
