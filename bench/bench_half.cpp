// float16 on the CPU (issue 48): a float16 add and a float16 sum of 2^24 elements, ufx beside a hand-written loop that
// converts with the same instructions (F16C's vcvtph2ps / vcvtps2ph, 8 lanes; AVX2 + F16C, chosen at run time as
// libufx's conversions are, so the baseline build compares like with like). Rows:
//   half_add/hand_f16c           z[i] = float16(float(x[i]) + float(y[i])), 8 at a time, one thread
//   half_add/ufx_serial_half     ufx::vectorize([](float16 a, float16 b) { return a + b; }) on ufx::serial
//   half_add/ufx_serial_float    ufx::vectorize([](float a, float b) { return a + b; }) into a float16 out (the row
//                                staged through float 8 at a time, F16C inline: docs/element_types.md)
//   half_add/ufx_add_serial      ufx::add (NumPy's float16 add: in float, rounded once; staged the same way)
//   half_add/ufx_host_half       the first on ufx::host
//   half_sum/hand_f16c           a float sum of the converted elements in 16 lanes, one thread
//   half_sum/ufx_serial          ufx::sum (NumPy's rule: float accumulators, one rounding to float16; the pairwise
//                                tree run by libufx's F16C code)
//   half_sum/ufx_host            the same on ufx::host
#include <benchmark/benchmark.h>

#include <cstddef>
#include <ufx/ufx.hpp>
#include <vector>

#include "bench_common.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#  include <immintrin.h>
#  define UFX_BENCH_F16C 1
#else
#  define UFX_BENCH_F16C 0
#endif

namespace {
using ufx::float16;

using ufx_bench::random_halves;

#if UFX_BENCH_F16C
__attribute__((target("avx2,f16c"))) void add_f16c(const float16* x, const float16* y, float16* z, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 a = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i)));
    const __m256 b = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(y + i)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(z + i),
                     _mm256_cvtps_ph(_mm256_add_ps(a, b), _MM_FROUND_TO_NEAREST_INT));
  }
  for (; i < n; ++i) z[i] = x[i] + y[i];
}
__attribute__((target("avx2,f16c"))) float sum_f16c(const float16* x, std::size_t n) {
  __m256 s0 = _mm256_setzero_ps(), s1 = s0;
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    s0 = _mm256_add_ps(s0, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i))));
    s1 = _mm256_add_ps(s1, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i + 8))));
  }
  alignas(32) float t[8];
  _mm256_store_ps(t, _mm256_add_ps(s0, s1));
  float s = 0;
  for (float v : t) s += v;
  for (; i < n; ++i) s += float(x[i]);
  return s;
}
#endif

enum class how { hand_f16c, ufx_serial_half, ufx_serial_float, ufx_host_half, ufx_add };

template <how H>
void bm_add(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const std::vector<float16> x = random_halves(n, 1), y = random_halves(n, 2);
  std::vector<float16> z(n);
  static const auto add_half = ufx::vectorize([](float16 a, float16 b) { return a + b; });
  static const auto add_float = ufx::vectorize([](float a, float b) { return a + b; });
  if (H == how::hand_f16c && !(UFX_BENCH_F16C && __builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx2"))) {
    state.SkipWithError("no AVX2 + F16C on this CPU");
    return;
  }
  for (auto _ : state) {
    if constexpr (H == how::hand_f16c) {
#if UFX_BENCH_F16C
      add_f16c(x.data(), y.data(), z.data(), n);
#endif
    } else if constexpr (H == how::ufx_serial_half) {
      add_half(ufx::serial, x, y, ufx::out(z));
    } else if constexpr (H == how::ufx_serial_float) {
      add_float(ufx::serial, x, y, ufx::out(z));
    } else if constexpr (H == how::ufx_add) {
      ufx::add(ufx::serial, x, y, ufx::out(z));
    } else {
      add_half(ufx::host, x, y, ufx::out(z));
    }
    benchmark::DoNotOptimize(z.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n * 3 * sizeof(float16)));
}

template <how H>
void bm_sum(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const std::vector<float16> x = random_halves(n, 3);
  if (H == how::hand_f16c && !(UFX_BENCH_F16C && __builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx2"))) {
    state.SkipWithError("no AVX2 + F16C on this CPU");
    return;
  }
  for (auto _ : state) {
    float s = 0;
    if constexpr (H == how::hand_f16c) {
#if UFX_BENCH_F16C
      s = sum_f16c(x.data(), n);
#endif
    } else if constexpr (H == how::ufx_serial_half) {
      s = float(ufx::sum(ufx::serial, x));
    } else {
      s = float(ufx::sum(ufx::host, x));
    }
    benchmark::DoNotOptimize(s);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n * sizeof(float16)));
}

void sizes(benchmark::internal::Benchmark* b) { b->Arg(int64_t{1} << 24)->UseRealTime(); }

} // namespace

BENCHMARK(bm_add<how::hand_f16c>)->Name("half_add/hand_f16c")->Apply(sizes);
BENCHMARK(bm_add<how::ufx_serial_half>)->Name("half_add/ufx_serial_half")->Apply(sizes);
BENCHMARK(bm_add<how::ufx_serial_float>)->Name("half_add/ufx_serial_float")->Apply(sizes);
BENCHMARK(bm_add<how::ufx_add>)->Name("half_add/ufx_add_serial")->Apply(sizes);
BENCHMARK(bm_add<how::ufx_host_half>)->Name("half_add/ufx_host_half")->Apply(sizes);
BENCHMARK(bm_sum<how::hand_f16c>)->Name("half_sum/hand_f16c")->Apply(sizes);
BENCHMARK(bm_sum<how::ufx_serial_half>)->Name("half_sum/ufx_serial")->Apply(sizes);
BENCHMARK(bm_sum<how::ufx_host_half>)->Name("half_sum/ufx_host")->Apply(sizes);

BENCHMARK_MAIN();
