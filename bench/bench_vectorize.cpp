// ufx::vectorize against hand-written loops: add, exp(-x*x)*sin(y)+1 (with std:: and with
// ufx::math functions), each ufx::math function alone against -ffast-math's, and an (n,1)+(1,n)
// broadcast, on ufx::serial and ufx::host; add also against Eigen (one thread, into existing
// memory) where Eigen is found. Bytes/s count every operand once (reads + writes).
#include <benchmark/benchmark.h>
#include <omp.h>
#if UFX_BENCH_EIGEN
#  include <Eigen/Core>
#endif

#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <vector>

#if defined(__linux__)
#  include <sys/mman.h>
#endif

#include <ufx/detail/lib/host_memory.hpp>
#include <ufx/ufx.hpp>

#include "bench_common.hpp"

// expsin_fast_math.cpp: exp(-x*x)*sin(y)+1 in an OpenMP loop built with -ffast-math (libmvec)
void expsin_fast_math_omp(const float* x, const float* y, float* z, std::size_t n);
// and each function alone: fn 0 exp, 1 sin, 2 cos, 3 log, 4 tanh, 5 sqrt, 6 pow
void math_fast_math_omp(int fn, const float* x, const float* y, float* z, std::size_t n);

namespace {

using ufx_bench::random_vector;

struct add_op {
  float operator()(float a, float b) const { return a + b; }
};
struct expsin_op {
  float operator()(float x, float y) const { return std::exp(-x * x) * std::sin(y) + 1.f; }
};
// the same with ufx::math, whose kernels vectorise without -ffast-math
struct expsin_math_op {
  float operator()(float x, float y) const { return ufx::math::exp(-x * x) * ufx::math::sin(y) + 1.f; }
};

template <class Op>
__attribute__((noinline)) void serial_loop(const float* x, const float* y, float* z, std::size_t n) {
  const Op op;
  for (std::size_t i = 0; i < n; ++i) z[i] = op(x[i], y[i]);
}

template <class Op>
__attribute__((noinline)) void omp_loop(const float* x, const float* y, float* z, std::size_t n) {
  const Op op;
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) z[i] = op(x[i], y[i]);
}

enum class how { serial_loop, omp_loop, omp_fast_math, eigen, ufx_serial, ufx_host, ufx_host_new };

template <class Op, how H>
void bm_binary(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto x = random_vector(n, 1), y = random_vector(n, 2);
  std::vector<float> z(n);
  auto k = ufx::vectorize(Op{});
  for (auto _ : state) {
    if constexpr (H == how::serial_loop) serial_loop<Op>(x.data(), y.data(), z.data(), n);
    else if constexpr (H == how::omp_loop) omp_loop<Op>(x.data(), y.data(), z.data(), n);
    else if constexpr (H == how::omp_fast_math) expsin_fast_math_omp(x.data(), y.data(), z.data(), n);
#if UFX_BENCH_EIGEN
    else if constexpr (H == how::eigen) { // z = x + y into existing memory (one thread)
      const auto m = static_cast<Eigen::Index>(n);
      Eigen::Map<Eigen::VectorXf>(z.data(), m).noalias() =
          Eigen::Map<const Eigen::VectorXf>(x.data(), m) + Eigen::Map<const Eigen::VectorXf>(y.data(), m);
    }
#endif
    else if constexpr (H == how::ufx_serial)
      k(ufx::serial, x, y, ufx::out(z));
    else if constexpr (H == how::ufx_host) k(ufx::host, x, y, ufx::out(z));
    else {
      auto r = k(ufx::host, x, y); // a freshly allocated result each time
      benchmark::DoNotOptimize(r.data());
    }
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * n * 3 * sizeof(float)));
}

// Each ufx::math function alone through ufx::vectorize on ufx::host, beside the std:: function in an
// OpenMP loop built with -ffast-math (libmvec): the per-function yardstick. Arguments as in
// docs/performance.md's tables: x in [-10, 10] (log, sqrt: (0, 100]; pow: x in (0, 10], y in [-5, 5]).
template <int F>
struct math_op {
  float operator()(float x, float y) const {
    if constexpr (F == 0) return ufx::math::exp(x);
    else if constexpr (F == 1) return ufx::math::sin(x);
    else if constexpr (F == 2) return ufx::math::cos(x);
    else if constexpr (F == 3) return ufx::math::log(x);
    else if constexpr (F == 4) return ufx::math::tanh(x);
    else if constexpr (F == 5) return ufx::math::sqrt(x);
    else return ufx::math::pow(x, y);
  }
};

template <int F, how H>
void bm_math(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto x = random_vector(n, 1), y = random_vector(n, 2);
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (F == 3 || F == 5) x[i] = 50.f * (x[i] + 1.f) + 1e-3f;
    else if constexpr (F == 6) x[i] = 5.f * (x[i] + 1.f) + 1e-3f, y[i] *= 5.f;
    else x[i] *= 10.f;
  }
  std::vector<float> z(n);
  auto k = ufx::vectorize(math_op<F>{});
  for (auto _ : state) {
    if constexpr (H == how::omp_fast_math) math_fast_math_omp(F, x.data(), y.data(), z.data(), n);
    else k(ufx::host, x, y, ufx::out(z));
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * n * (F == 6 ? 3 : 2) * sizeof(float)));
}

// (n,1) + (1,n) -> (n,n)
template <how H>
void bm_outer(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto a = random_vector(n, 3), b = random_vector(n, 4);
  ufx::ndarray<float, 2> col({static_cast<ufx::index_t>(n), 1}), row({1, static_cast<ufx::index_t>(n)});
  std::copy(a.begin(), a.end(), col.begin());
  std::copy(b.begin(), b.end(), row.begin());
  ufx::ndarray<float, 2> z({static_cast<ufx::index_t>(n), static_cast<ufx::index_t>(n)});
  auto k = ufx::vectorize(add_op{});
  for (auto _ : state) {
    if constexpr (H == how::serial_loop) {
      float* out = z.data();
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) out[i * n + j] = a[i] + b[j];
    } else if constexpr (H == how::omp_loop) {
      float* out = z.data();
#pragma omp parallel for schedule(static)
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) out[i * n + j] = a[i] + b[j];
    } else if constexpr (H == how::ufx_serial) {
      k(ufx::serial, col, row, ufx::out(z));
    } else {
      k(ufx::host, col, row, ufx::out(z));
    }
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * n * n * sizeof(float)));
}

// A fresh result per call, as NumPy's `x + y` allocates one: std::vector and ndarray results
// (ndarray: huge-page-aligned blocks, reused when freed: detail/lib/host_memory.hpp), next to a
// hand-written loop into a fresh std::vector (which zero-fills it first) and a fresh new float[],
// and the ways to make a std::vector's pages cheaper by hand: reserve, madvise(MADV_HUGEPAGE) the
// reserved buffer, then resize (what ufx does from 4 MiB); the same with the pages touched by two
// threads before the resize. GLIBC_TUNABLES=glibc.malloc.hugetlb=1 is the same run's loop_vector.
enum class fresh {
  loop_vector,
  loop_vector_madvise,
  loop_vector_pretouch,
  loop_new,
  ufx_host_vector,
  ufx_host_ndarray,
  ufx_host_ndarray_cold,
  ufx_serial_ndarray
};

#if defined(__linux__)
void madvise_huge(void* p, std::size_t bytes) {
  const std::uintptr_t hp = std::uintptr_t{2} << 20, a = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t s = (a + hp - 1) / hp * hp, e = (a + bytes) / hp * hp;
  if (e > s) madvise(reinterpret_cast<void*>(s), e - s, MADV_HUGEPAGE);
}
#else
void madvise_huge(void*, std::size_t) {}
#endif

/// The fresh-result benchmarks' inputs, made once per size and kept, as a program's inputs outlive
/// the results it makes from them. (Made per repetition, the two 2^26 ndarray inputs, freed at its
/// end, filled ufx's cache of freed blocks (512 MiB) and pushed the result's block out, so every
/// repetition's first call mapped fresh pages: 290 ms instead of 28 on this VM, whose fresh huge
/// pages cost the hypervisor's first touch too. ufx_host_ndarray_cold measures that case alone.)
struct fresh_inputs {
  std::vector<float> x, y;
  ufx::ndarray<float, 1> xa, ya;
};
const fresh_inputs& fresh_input(std::size_t n) {
  static std::map<std::size_t, fresh_inputs> made;
  auto it = made.find(n);
  if (it == made.end()) {
    fresh_inputs in{random_vector(n, 1), random_vector(n, 2), ufx::ndarray<float, 1>({static_cast<ufx::index_t>(n)}),
                    ufx::ndarray<float, 1>({static_cast<ufx::index_t>(n)})};
    std::copy(in.x.begin(), in.x.end(), in.xa.begin());
    std::copy(in.y.begin(), in.y.end(), in.ya.begin());
    it = made.emplace(n, std::move(in)).first;
  }
  return it->second;
}

template <fresh H>
void bm_fresh(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const fresh_inputs& in = fresh_input(n);
  const auto &x = in.x, &y = in.y;
  const auto &xa = in.xa, &ya = in.ya;
  auto k = ufx::vectorize(add_op{});
  for (auto _ : state) {
    if constexpr (H == fresh::loop_vector) {
      std::vector<float> z(n);
      serial_loop<add_op>(x.data(), y.data(), z.data(), n);
      benchmark::DoNotOptimize(z.data());
    } else if constexpr (H == fresh::loop_vector_madvise || H == fresh::loop_vector_pretouch) {
      std::vector<float> z;
      z.reserve(n);
      madvise_huge(z.data(), n * sizeof(float));
      if constexpr (H == fresh::loop_vector_pretouch) {
        auto* bytes = reinterpret_cast<volatile char*>(z.data());
#pragma omp parallel for schedule(static)
        for (std::size_t o = 0; o < n * sizeof(float); o += 4096) bytes[o] = 0;
      }
      z.resize(n);
      serial_loop<add_op>(x.data(), y.data(), z.data(), n);
      benchmark::DoNotOptimize(z.data());
    } else if constexpr (H == fresh::loop_new) {
      std::unique_ptr<float[]> z(new float[n]);
      serial_loop<add_op>(x.data(), y.data(), z.get(), n);
      benchmark::DoNotOptimize(z.get());
    } else if constexpr (H == fresh::ufx_host_vector) {
      std::vector<float> z = k(ufx::host, x, y);
      benchmark::DoNotOptimize(z.data());
    } else if constexpr (H == fresh::ufx_host_ndarray) {
      ufx::ndarray<float, 1> z = k(ufx::host, xa, ya);
      benchmark::DoNotOptimize(z.data());
    } else if constexpr (H == fresh::ufx_host_ndarray_cold) { // no freed block to reuse: fresh huge pages
      state.PauseTiming();
      ufx::detail::host_cache_release();
      state.ResumeTiming();
      ufx::ndarray<float, 1> z = k(ufx::host, xa, ya);
      benchmark::DoNotOptimize(z.data());
    } else {
      ufx::ndarray<float, 1> z = k(ufx::serial, xa, ya);
      benchmark::DoNotOptimize(z.data());
    }
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * n * 3 * sizeof(float)));
}
void fresh_sizes(benchmark::internal::Benchmark* b) { b->Arg(int64_t{1} << 24)->Arg(int64_t{1} << 26)->UseRealTime(); }

void sizes(benchmark::internal::Benchmark* b) {
  for (int e = 12; e <= 26; e += 2) b->Arg(int64_t{1} << e);
  b->UseRealTime();
}
void math_sizes(benchmark::internal::Benchmark* b) {
  for (int e = 20; e <= 24; e += 2) b->Arg(int64_t{1} << e);
  b->UseRealTime();
}
void outer_sizes(benchmark::internal::Benchmark* b) { b->Arg(1 << 10)->Arg(1 << 12)->UseRealTime(); }

} // namespace

BENCHMARK(bm_binary<add_op, how::serial_loop>)->Name("add/serial_loop")->Apply(sizes);
BENCHMARK(bm_binary<add_op, how::ufx_serial>)->Name("add/ufx_serial")->Apply(sizes);
BENCHMARK(bm_binary<add_op, how::omp_loop>)->Name("add/omp_loop")->Apply(sizes);
BENCHMARK(bm_binary<add_op, how::ufx_host>)->Name("add/ufx_host")->Apply(sizes);
#if UFX_BENCH_EIGEN
BENCHMARK(bm_binary<add_op, how::eigen>)->Name("add/eigen")->Apply(sizes);
#endif
BENCHMARK(bm_binary<add_op, how::ufx_host_new>)->Name("add/ufx_host_new_result")->Apply(sizes);
BENCHMARK(bm_binary<expsin_op, how::serial_loop>)->Name("expsin/serial_loop")->Apply(sizes);
BENCHMARK(bm_binary<expsin_op, how::ufx_serial>)->Name("expsin/ufx_serial")->Apply(sizes);
BENCHMARK(bm_binary<expsin_op, how::omp_loop>)->Name("expsin/omp_loop")->Apply(sizes);
BENCHMARK(bm_binary<expsin_op, how::ufx_host>)->Name("expsin/ufx_host")->Apply(sizes);
BENCHMARK(bm_binary<expsin_math_op, how::omp_loop>)->Name("expsin_math/omp_loop")->Apply(sizes);
BENCHMARK(bm_binary<expsin_op, how::omp_fast_math>)->Name("expsin/omp_loop_fast_math")->Apply(sizes);
BENCHMARK(bm_binary<expsin_math_op, how::ufx_host>)->Name("expsin_math/ufx_host")->Apply(sizes);
#define UFX_BENCH_MATH(F, name)                                                                                        \
  BENCHMARK(bm_math<F, how::omp_fast_math>)->Name("math/" name "/omp_loop_fast_math")->Apply(math_sizes);              \
  BENCHMARK(bm_math<F, how::ufx_host>)->Name("math/" name "/ufx_host")->Apply(math_sizes)
UFX_BENCH_MATH(0, "exp");
UFX_BENCH_MATH(1, "sin");
UFX_BENCH_MATH(2, "cos");
UFX_BENCH_MATH(3, "log");
UFX_BENCH_MATH(4, "tanh");
UFX_BENCH_MATH(5, "sqrt");
UFX_BENCH_MATH(6, "pow");
#undef UFX_BENCH_MATH
BENCHMARK(bm_outer<how::serial_loop>)->Name("outer/serial_loop")->Apply(outer_sizes);
BENCHMARK(bm_outer<how::ufx_serial>)->Name("outer/ufx_serial")->Apply(outer_sizes);
BENCHMARK(bm_outer<how::omp_loop>)->Name("outer/omp_loop")->Apply(outer_sizes);
BENCHMARK(bm_outer<how::ufx_host>)->Name("outer/ufx_host")->Apply(outer_sizes);

BENCHMARK(bm_fresh<fresh::loop_vector>)->Name("fresh/loop_vector")->Apply(fresh_sizes);
BENCHMARK(bm_fresh<fresh::loop_vector_madvise>)->Name("fresh/loop_vector_madvise")->Apply(fresh_sizes);
BENCHMARK(bm_fresh<fresh::loop_vector_pretouch>)->Name("fresh/loop_vector_pretouch")->Apply(fresh_sizes);
BENCHMARK(bm_fresh<fresh::loop_new>)->Name("fresh/loop_new")->Apply(fresh_sizes);
BENCHMARK(bm_fresh<fresh::ufx_host_vector>)->Name("fresh/ufx_host_vector")->Apply(fresh_sizes);
BENCHMARK(bm_fresh<fresh::ufx_host_ndarray>)->Name("fresh/ufx_host_ndarray")->Apply(fresh_sizes);
BENCHMARK(bm_fresh<fresh::ufx_host_ndarray_cold>)->Name("fresh/ufx_host_ndarray_cold")->Apply(fresh_sizes);
BENCHMARK(bm_fresh<fresh::ufx_serial_ndarray>)->Name("fresh/ufx_serial_ndarray")->Apply(fresh_sizes);

BENCHMARK_MAIN();
