// ufx reductions against hand-written loops: sum and sum of |x| at N = 2^12 ... 2^26 (|x| also as the
// Numba tutorial's reducer, a user's operator that ufx folds: op(acc, x)), a user's `a + b` beside
// reducer(ufx::plus{}) and the pairwise loop (user_op_sum: the generic leaf against the vector one), and axis-0
// and axis-1 sums of a 4096 x 4096 float32 row-major matrix, on ufx::serial and ufx::host; and
// mean with variance (ufx::reducers: one pass) against one sum, two calls and a hand loop; and
// ufx::sum of int32 values, which returns int64 as np.sum does, against hand-written loops that
// accumulate in int64 (one thread, and OpenMP) and the int32-accumulating loop it replaced.
// Peers: a plain serial loop (what one writes first: in order, so not vectorised), the same loop
// with `omp simd reduction` (vectorised, reordered), and an OpenMP `parallel for simd reduction`
// loop; a pairwise OpenMP loop (NumPy's pairwise sum in each thread's block, the blocks' sums
// added in order: the accuracy class of ufx's and np.sum's) and the same pairwise sum on one
// thread (sum/pairwise_loop: 8 accumulators, one 8-float vector with AVX); Eigen's `sum()` (one thread,
// vectorised, reordered) where Eigen is found. Bytes/s count the input once; the counter rel_err is
// the result's relative error against the exact sum (uniform [-1, 1] data, seed 1), l1_err the
// error over the sum of the magnitudes.
#include <benchmark/benchmark.h>
#include <omp.h>
#if UFX_BENCH_EIGEN
#  include <Eigen/Core>
#endif

#include <cmath>
#include <cstdint>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

#include <ufx/ufx.hpp>

#include "bench_common.hpp"

namespace {

using ufx_bench::random_vector;

struct ident {
  float operator()(float v) const { return v; }
};
struct abs_value {
  float operator()(float v) const { return std::fabs(v); }
};
// the Numba tutorial's |x| reducer: `if b < 0: return a - b else: return a + b`
struct tutorial_abs_sum {
  float operator()(float a, float b) const { return b < 0 ? a - b : a + b; }
};

template <class Map>
__attribute__((noinline)) float serial_loop(const float* x, std::size_t n) {
  const Map f;
  float s = 0;
  for (std::size_t i = 0; i < n; ++i) s += f(x[i]);
  return s;
}

template <class Map>
__attribute__((noinline)) float simd_loop(const float* x, std::size_t n) {
  const Map f;
  float s = 0;
#pragma omp simd reduction(+ : s)
  for (std::size_t i = 0; i < n; ++i) s += f(x[i]);
  return s;
}

template <class Map>
__attribute__((noinline)) float omp_loop(const float* x, std::size_t n) {
  const Map f;
  float s = 0;
#pragma omp parallel for simd schedule(static) reduction(+ : s)
  for (std::size_t i = 0; i < n; ++i) s += f(x[i]);
  return s;
}

// NumPy's pairwise_sum (numpy/core/src/umath/loops_utils.h.src): 8 accumulators over blocks of at
// most 128 elements, halves split at a multiple of 8.
template <class Map>
float pairwise(const float* x, std::size_t n, const Map& f) {
  if (n < 8) {
    float s = 0;
    for (std::size_t i = 0; i < n; ++i) s += f(x[i]);
    return s;
  }
  if (n <= 128) {
    float r[8];
    for (int j = 0; j < 8; ++j) r[j] = f(x[j]);
    std::size_t i = 8;
    for (; i + 8 <= n; i += 8)
      for (int j = 0; j < 8; ++j) r[j] += f(x[i + j]);
    float s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) s += f(x[i]);
    return s;
  }
  std::size_t n2 = n / 2;
  n2 -= n2 % 8;
  return pairwise(x, n2, f) + pairwise(x + n2, n - n2, f);
}

// the same pairwise sum on one thread: its 8 accumulators are one 8-float vector with AVX
template <class Map>
__attribute__((noinline)) float pairwise_loop(const float* x, std::size_t n) {
  return pairwise(x, n, Map{});
}

template <class Map>
__attribute__((noinline)) float omp_pairwise(const float* x, std::size_t n) {
  const Map f;
  float part[256] = {};
  int nt = 1;
#pragma omp parallel
  {
    const auto t = static_cast<std::size_t>(omp_get_thread_num());
#pragma omp single
    nt = omp_get_num_threads();
    const std::size_t k = static_cast<std::size_t>(omp_get_num_threads());
    const std::size_t b = n * t / k, e = n * (t + 1) / k;
    part[t] = pairwise(x + b, e - b, f);
  }
  float s = 0;
  for (int t = 0; t < nt; ++t) s += part[t];
  return s;
}

enum class how {
  serial_loop,
  simd_loop,
  omp_loop,
  omp_pairwise,
  pairwise_loop,
  eigen,
  ufx_serial,
  ufx_host,
  tutorial_serial,
  tutorial_host,
  lambda_serial,
  lambda_host,
  plus_reducer_serial,
  plus_reducer_host,
  sum_serial,
  sum_host
};

// a user's operator that is a plain add: ufx folds it with its generic leaf (the same lanes and
// tree as ufx::plus's vector leaf, so the same bits)
constexpr auto user_add = [](float a, float b) { return a + b; };

template <class Map, how H>
void bm_sum(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto x = random_vector(n, 1);
  float s = 0;
  for (auto _ : state) {
    if constexpr (H == how::serial_loop) s = serial_loop<Map>(x.data(), n);
    else if constexpr (H == how::simd_loop) s = simd_loop<Map>(x.data(), n);
    else if constexpr (H == how::omp_loop) s = omp_loop<Map>(x.data(), n);
    else if constexpr (H == how::omp_pairwise) s = omp_pairwise<Map>(x.data(), n);
    else if constexpr (H == how::pairwise_loop) s = pairwise_loop<Map>(x.data(), n);
#if UFX_BENCH_EIGEN
    else if constexpr (H == how::eigen) {
      const Eigen::Map<const Eigen::VectorXf> v(x.data(), static_cast<Eigen::Index>(n));
      if constexpr (std::is_same_v<Map, ident>) s = v.sum();
      else s = v.cwiseAbs().sum();
    }
#endif
    // a sum as users write it (ufx::reduce with ufx::plus: the plain-sum leaf), |x| as a map
    else if constexpr (H == how::ufx_serial && std::is_same_v<Map, ident>)
      s = ufx::reduce(ufx::serial, x, ufx::plus{}, 0.0f);
    else if constexpr (H == how::ufx_host && std::is_same_v<Map, ident>)
      s = ufx::reduce(ufx::host, x, ufx::plus{}, 0.0f);
    else if constexpr (H == how::ufx_serial) s = ufx::transform_reduce(ufx::serial, x, Map{}, ufx::plus{}, 0.0f);
    else if constexpr (H == how::ufx_host) s = ufx::transform_reduce(ufx::host, x, Map{}, ufx::plus{}, 0.0f);
    else if constexpr (H == how::tutorial_serial) s = ufx::reducer(tutorial_abs_sum{}, 0.0f)(ufx::serial, x);
    else if constexpr (H == how::tutorial_host) s = ufx::reducer(tutorial_abs_sum{}, 0.0f)(ufx::host, x);
    else if constexpr (H == how::lambda_serial) s = ufx::reducer(user_add, 0.0f)(ufx::serial, x);
    else if constexpr (H == how::lambda_host) s = ufx::reducer(user_add, 0.0f)(ufx::host, x);
    else if constexpr (H == how::sum_serial) s = ufx::sum(ufx::serial, x);
    else if constexpr (H == how::sum_host) s = ufx::sum(ufx::host, x);
    else if constexpr (H == how::plus_reducer_serial) s = ufx::reducer(ufx::plus{}, 0.0f)(ufx::serial, x);
    else s = ufx::reducer(ufx::plus{}, 0.0f)(ufx::host, x);
    benchmark::DoNotOptimize(s);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * n * sizeof(float)));
  // accuracy (the second yardstick beside time): the last call's relative error against the
  // float64 sum, compensated (Neumaier), of the same mapped values
  const Map f;
  double exact = 0, c = 0, l1 = 0;
  for (float v : x) {
    const double m = f(v), t = exact + m;
    c += std::abs(exact) >= std::abs(m) ? (exact - t) + m : (m - t) + exact;
    exact = t;
    l1 += std::abs(m);
  }
  exact += c;
  state.counters["rel_err"] = std::abs(static_cast<double>(s) - exact) / std::abs(exact);
  // the error over the sum of magnitudes: what a summation order controls. A sum of uniform [-1, 1]
  // values cancels to about sqrt(N) / 2, so at 2^26 one float ulp of the result is already 1e-7 of
  // it, and rel_err there measures the luck of the last few roundings as much as the order.
  state.counters["l1_err"] = std::abs(static_cast<double>(s) - exact) / l1;
}

constexpr std::size_t side = 4096;

// column sums of a row-major side x side matrix (np.sum(a, axis=0))
template <how H>
void bm_axis0(benchmark::State& state) {
  const auto a = random_vector(side * side, 2);
  std::vector<float> out(side);
  const ufx::ndview<const float, 2> m(a.data(), {side, side});
  for (auto _ : state) {
    if constexpr (H == how::serial_loop || H == how::simd_loop) {
      for (std::size_t j = 0; j < side; ++j) out[j] = 0;
      for (std::size_t i = 0; i < side; ++i)
        for (std::size_t j = 0; j < side; ++j) out[j] += a[i * side + j];
    } else if constexpr (H == how::omp_loop) {
      // each thread owns one slab of columns and walks every row of it in order
#pragma omp parallel
      {
        const auto t = static_cast<std::size_t>(omp_get_thread_num()),
                   nt = static_cast<std::size_t>(omp_get_num_threads());
        const std::size_t j0 = side * t / nt, j1 = side * (t + 1) / nt;
        for (std::size_t j = j0; j < j1; ++j) out[j] = 0;
        for (std::size_t i = 0; i < side; ++i)
#pragma omp simd
          for (std::size_t j = j0; j < j1; ++j) out[j] += a[i * side + j];
      }
    } else if constexpr (H == how::ufx_serial) {
      ufx::reduce(ufx::serial, m, ufx::plus{}, 0.0f, ufx::axis{0}, ufx::out(out));
    } else {
      ufx::reduce(ufx::host, m, ufx::plus{}, 0.0f, ufx::axis{0}, ufx::out(out));
    }
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * side * side * sizeof(float)));
}

// row sums of a row-major side x side matrix (np.sum(a, axis=1))
template <how H>
void bm_axis1(benchmark::State& state) {
  const auto a = random_vector(side * side, 3);
  std::vector<float> out(side);
  const ufx::ndview<const float, 2> m(a.data(), {side, side});
  for (auto _ : state) {
    if constexpr (H == how::serial_loop) {
      for (std::size_t i = 0; i < side; ++i) out[i] = serial_loop<ident>(a.data() + i * side, side);
    } else if constexpr (H == how::simd_loop) {
      for (std::size_t i = 0; i < side; ++i) out[i] = simd_loop<ident>(a.data() + i * side, side);
    } else if constexpr (H == how::omp_loop) {
#pragma omp parallel for schedule(static)
      for (std::size_t i = 0; i < side; ++i) out[i] = simd_loop<ident>(a.data() + i * side, side);
    } else if constexpr (H == how::ufx_serial) {
      ufx::reduce(ufx::serial, m, ufx::plus{}, 0.0f, ufx::axis{1}, ufx::out(out));
    } else {
      ufx::reduce(ufx::host, m, ufx::plus{}, 0.0f, ufx::axis{1}, ufx::out(out));
    }
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * side * side * sizeof(float)));
}

// NumPy's statistics (docs/fusion.md): mean and variance of n floats. ufx::reducers(mean, var) in
// one pass (Chan's update), beside one ufx::sum (the bandwidth to reach), ufx::mean then ufx::var
// (two calls: two passes), and a hand-written OpenMP loop of the naive one-pass formula on data
// shifted by the first element (sum and sum of squares: the fastest loop, not a stable one).
enum class stats_how { one_sum, reducers, two_calls, omp_shifted };

__attribute__((noinline)) std::pair<float, float> omp_shifted(const float* x, std::size_t n) {
  const float k = x[0];
  double s = 0, q = 0;
#pragma omp parallel for simd reduction(+ : s, q) schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    const float d = x[i] - k;
    s += d;
    q += d * d;
  }
  const double m = s / static_cast<double>(n);
  return {static_cast<float>(k + m), static_cast<float>(q / static_cast<double>(n) - m * m)};
}

template <stats_how H>
void bm_stats(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto x = random_vector(n, 4);
  float mean = 0, var = 0;
  for (auto _ : state) {
    if constexpr (H == stats_how::one_sum) {
      mean = ufx::sum(ufx::host, x);
    } else if constexpr (H == stats_how::reducers) {
      std::tie(mean, var) = ufx::reducers(ufx::mean, ufx::var)(ufx::host, x);
    } else if constexpr (H == stats_how::two_calls) {
      mean = ufx::mean(ufx::host, x);
      var = ufx::var(ufx::host, x);
    } else {
      std::tie(mean, var) = omp_shifted(x.data(), n);
    }
    benchmark::DoNotOptimize(mean);
    benchmark::DoNotOptimize(var);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * n * sizeof(float)));
}

// int32 sums: ufx::sum accumulates in int64 (NumPy's result type). The loops beside it: an int64
// accumulator (what NumPy's result asks for; GCC vectorises it, integer addition being
// associative), the same across threads, and an int32 accumulator, the width ufx summed in before
// (unsigned, so that its overflow is defined: the wrong answer, fast).
enum class int_how { int64_loop, omp_int64_loop, int32_loop, ufx_serial, ufx_host };

__attribute__((noinline)) std::int64_t int64_loop(const int* x, std::size_t n) {
  std::int64_t s = 0;
  for (std::size_t i = 0; i < n; ++i) s += x[i];
  return s;
}
__attribute__((noinline)) std::int64_t omp_int64_loop(const int* x, std::size_t n) {
  std::int64_t s = 0;
#pragma omp parallel for simd schedule(static) reduction(+ : s)
  for (std::size_t i = 0; i < n; ++i) s += x[i];
  return s;
}
__attribute__((noinline)) std::int64_t int32_loop(const int* x, std::size_t n) {
  unsigned s = 0;
  for (std::size_t i = 0; i < n; ++i) s += static_cast<unsigned>(x[i]);
  return static_cast<int>(s);
}

template <int_how H>
void bm_int_sum(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<int> x(n);
  std::mt19937 gen(5);
  for (auto& v : x) v = static_cast<int>(gen()); // the whole int32 range: the sum overflows int32
  std::int64_t s = 0;
  for (auto _ : state) {
    if constexpr (H == int_how::int64_loop) s = int64_loop(x.data(), n);
    else if constexpr (H == int_how::omp_int64_loop) s = omp_int64_loop(x.data(), n);
    else if constexpr (H == int_how::int32_loop) s = int32_loop(x.data(), n);
    else if constexpr (H == int_how::ufx_serial) s = ufx::sum(ufx::serial, x);
    else s = ufx::sum(ufx::host, x);
    benchmark::DoNotOptimize(s);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * n * sizeof(int)));
  if (H != int_how::int32_loop && s != int64_loop(x.data(), n)) state.SkipWithError("wrong int64 sum");
}

void sizes(benchmark::internal::Benchmark* b) {
  for (int e = 12; e <= 26; e += 2) b->Arg(int64_t{1} << e);
  b->UseRealTime();
}

} // namespace

BENCHMARK(bm_sum<ident, how::serial_loop>)->Name("sum/serial_loop")->Apply(sizes);
BENCHMARK(bm_sum<ident, how::simd_loop>)->Name("sum/simd_loop")->Apply(sizes);
BENCHMARK(bm_sum<ident, how::ufx_serial>)->Name("sum/ufx_serial")->Apply(sizes);
BENCHMARK(bm_sum<ident, how::sum_serial>)->Name("sum/ufx_sum_serial")->Apply(sizes);
BENCHMARK(bm_sum<ident, how::sum_host>)->Name("sum/ufx_sum_host")->Apply(sizes);
BENCHMARK(bm_sum<ident, how::omp_loop>)->Name("sum/omp_loop")->Apply(sizes);
BENCHMARK(bm_sum<ident, how::ufx_host>)->Name("sum/ufx_host")->Apply(sizes);
BENCHMARK(bm_sum<ident, how::omp_pairwise>)->Name("sum/omp_pairwise")->Apply(sizes);
BENCHMARK(bm_sum<ident, how::pairwise_loop>)->Name("sum/pairwise_loop")->Apply(sizes);
#if UFX_BENCH_EIGEN
BENCHMARK(bm_sum<ident, how::eigen>)->Name("sum/eigen")->Apply(sizes);
BENCHMARK(bm_sum<abs_value, how::eigen>)->Name("abs_sum/eigen")->Apply(sizes);
#endif
// a user's operator (a lambda a + b, identity 0) beside ufx::plus as a reducer and the pairwise loop
BENCHMARK(bm_sum<ident, how::pairwise_loop>)->Name("user_op_sum/pairwise_loop")->Apply(sizes);
BENCHMARK(bm_sum<ident, how::lambda_serial>)->Name("user_op_sum/lambda_serial")->Apply(sizes);
BENCHMARK(bm_sum<ident, how::plus_reducer_serial>)->Name("user_op_sum/plus_serial")->Apply(sizes);
BENCHMARK(bm_sum<ident, how::lambda_host>)->Name("user_op_sum/lambda_host")->Apply(sizes);
BENCHMARK(bm_sum<ident, how::plus_reducer_host>)->Name("user_op_sum/plus_host")->Apply(sizes);
BENCHMARK(bm_sum<abs_value, how::serial_loop>)->Name("abs_sum/serial_loop")->Apply(sizes);
BENCHMARK(bm_sum<abs_value, how::simd_loop>)->Name("abs_sum/simd_loop")->Apply(sizes);
BENCHMARK(bm_sum<abs_value, how::ufx_serial>)->Name("abs_sum/ufx_serial")->Apply(sizes);
BENCHMARK(bm_sum<abs_value, how::omp_loop>)->Name("abs_sum/omp_loop")->Apply(sizes);
BENCHMARK(bm_sum<abs_value, how::ufx_host>)->Name("abs_sum/ufx_host")->Apply(sizes);
BENCHMARK(bm_sum<abs_value, how::omp_pairwise>)->Name("abs_sum/omp_pairwise")->Apply(sizes);
BENCHMARK(bm_sum<abs_value, how::tutorial_serial>)->Name("abs_sum/tutorial_reducer_serial")->Apply(sizes);
BENCHMARK(bm_sum<abs_value, how::tutorial_host>)->Name("abs_sum/tutorial_reducer_host")->Apply(sizes);
BENCHMARK(bm_axis0<how::serial_loop>)->Name("axis0_4096/serial_loop")->UseRealTime();
BENCHMARK(bm_axis0<how::ufx_serial>)->Name("axis0_4096/ufx_serial")->UseRealTime();
BENCHMARK(bm_axis0<how::omp_loop>)->Name("axis0_4096/omp_loop")->UseRealTime();
BENCHMARK(bm_axis0<how::ufx_host>)->Name("axis0_4096/ufx_host")->UseRealTime();
BENCHMARK(bm_axis1<how::serial_loop>)->Name("axis1_4096/serial_loop")->UseRealTime();
BENCHMARK(bm_axis1<how::simd_loop>)->Name("axis1_4096/simd_loop")->UseRealTime();
BENCHMARK(bm_axis1<how::ufx_serial>)->Name("axis1_4096/ufx_serial")->UseRealTime();
BENCHMARK(bm_axis1<how::omp_loop>)->Name("axis1_4096/omp_loop")->UseRealTime();
BENCHMARK(bm_axis1<how::ufx_host>)->Name("axis1_4096/ufx_host")->UseRealTime();

BENCHMARK(bm_stats<stats_how::one_sum>)->Name("stats/one_sum_host")->Apply(sizes);
BENCHMARK(bm_stats<stats_how::reducers>)->Name("stats/mean_var_reducers_host")->Apply(sizes);
BENCHMARK(bm_stats<stats_how::two_calls>)->Name("stats/mean_then_var_host")->Apply(sizes);
BENCHMARK(bm_stats<stats_how::omp_shifted>)->Name("stats/omp_shifted_loop")->Apply(sizes);

BENCHMARK(bm_int_sum<int_how::int64_loop>)->Name("int32_sum/int64_loop")->Apply(sizes);
BENCHMARK(bm_int_sum<int_how::ufx_serial>)->Name("int32_sum/ufx_serial")->Apply(sizes);
BENCHMARK(bm_int_sum<int_how::omp_int64_loop>)->Name("int32_sum/omp_int64_loop")->Apply(sizes);
BENCHMARK(bm_int_sum<int_how::ufx_host>)->Name("int32_sum/ufx_host")->Apply(sizes);
BENCHMARK(bm_int_sum<int_how::int32_loop>)->Name("int32_sum/int32_loop")->Apply(sizes);

BENCHMARK_MAIN();
