// A speed guard: the rows where a regression once went unseen (a generic gufunc core lost 5.4x to a
// change in ndview), each a ufx call beside the hand-written loop that does the same work, in one
// process, interleaved, medians of 21 pairs. A row fails only when ufx takes 2x the loop's time or
// more: a shared, noisy machine does not trip it, a lost vector loop or a call in a hot loop does.
// Built like a user's Release build (tests/guards/CMakeLists.txt: -O3, NDEBUG, the baseline ISA).
#include <ufx/ufx.hpp>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace {

/// The generic core: run-time sizes, the textbook i-j-k order.
struct matmul_core {
  void operator()(ufx::ndview<const float, 2> a, ufx::ndview<const float, 2> b, ufx::ndview<float, 2> c) const {
    for (ufx::index_t i = 0; i < c.extent(0); ++i)
      for (ufx::index_t j = 0; j < c.extent(1); ++j) {
        float s = 0;
        for (ufx::index_t k = 0; k < a.extent(1); ++k) s += a(i, k) * b(k, j);
        c(i, j) = s;
      }
  }
};

void matmul_batch(const float* a, const float* b, float* c, int n, long q) {
  const float* A = a + q * n * n;
  const float* B = b + q * n * n;
  float* C = c + q * n * n;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float s = 0;
      for (int k = 0; k < n; ++k) s += A[i * n + k] * B[k * n + j];
      C[i * n + j] = s;
    }
}

__attribute__((noinline)) void matmul_loop(const float* a, const float* b, float* c, int n, long batch) {
  for (long q = 0; q < batch; ++q) matmul_batch(a, b, c, n, q);
}
// ufx::host runs on oneTBB's threads: its peer does too (an OpenMP pool beside them, interleaved,
// would have the two pools' waiting threads take each other's cores).
template <class Body>
void tbb_blocks(long n, const Body& body) {
  tbb::parallel_for(
      tbb::blocked_range<long>(0, n),
      [&](const tbb::blocked_range<long>& r) {
        for (long i = r.begin(); i < r.end(); ++i) body(i);
      },
      tbb::static_partitioner{});
}

__attribute__((noinline)) void matmul_tbb(const float* a, const float* b, float* c, int n, long batch) {
  tbb_blocks(batch, [&](long q) { matmul_batch(a, b, c, n, q); });
}

__attribute__((noinline)) void add_loop(const float* x, const float* y, float* z, long n) {
  for (long i = 0; i < n; ++i) z[i] = x[i] + y[i];
}
__attribute__((noinline)) void add_tbb(const float* x, const float* y, float* z, long n) {
  constexpr long block = 4096;
  tbb_blocks((n + block - 1) / block,
             [&](long q) { add_loop(x + q * block, y + q * block, z + q * block, std::min(block, n - q * block)); });
}

// NumPy's pairwise sum: 8 accumulators over blocks of at most 128 elements.
float pairwise(const float* x, std::size_t n) {
  if (n < 8) {
    float s = 0;
    for (std::size_t i = 0; i < n; ++i) s += x[i];
    return s;
  }
  if (n <= 128) {
    float r[8];
    for (int j = 0; j < 8; ++j) r[j] = x[j];
    std::size_t i = 8;
    for (; i + 8 <= n; i += 8)
      for (int j = 0; j < 8; ++j) r[j] += x[i + j];
    float s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) s += x[i];
    return s;
  }
  std::size_t n2 = n / 2;
  n2 -= n2 % 8;
  return pairwise(x, n2) + pairwise(x + n2, n - n2);
}
__attribute__((noinline)) float sum_loop(const float* x, long n) { return pairwise(x, static_cast<std::size_t>(n)); }

/// mean and variance in one pass over values shifted by the first (n: a multiple of 8), in double
/// with 8 accumulators each: the textbook stable one-pass form.
__attribute__((noinline)) std::pair<double, double> mean_var_loop(const float* x, long n) {
  const double k = x[0];
  double s[8] = {}, q[8] = {};
  for (long i = 0; i < n; i += 8)
    for (int j = 0; j < 8; ++j) {
      const double d = x[i + j] - k;
      s[j] += d;
      q[j] += d * d;
    }
  double sd = 0, qd = 0;
  for (int j = 0; j < 8; ++j) sd += s[j], qd += q[j];
  const double m = sd / static_cast<double>(n);
  return {k + m, qd / static_cast<double>(n) - m * m};
}

double seconds(const std::function<void()>& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

volatile float sink;

} // namespace

int main() {
  constexpr int reps = 21;
  constexpr double limit = 2.0;
  const int n = 32;
  const long batch = 256;
  const long len = 1L << 20;
  ufx::ndarray<float, 3> a({batch, n, n}), b({batch, n, n}), c({batch, n, n});
  for (ufx::index_t i = 0; i < a.size(); ++i) {
    a.data()[i] = static_cast<float>(i % 17) * 0.25f;
    b.data()[i] = static_cast<float>(i % 13) * 0.5f;
  }
  std::vector<float> x(static_cast<std::size_t>(len)), y(x.size()), z(x.size());
  for (long i = 0; i < len; ++i) {
    x[static_cast<std::size_t>(i)] = 1000.f + static_cast<float>(i % 1001) * 0.01f;
    y[static_cast<std::size_t>(i)] = static_cast<float>(i % 7);
  }
  const auto matmul = ufx::guvectorize<"(m,n),(n,p)->(m,p)">(matmul_core{});
  const auto add = ufx::vectorize([](float p, float q) { return p + q; });
  const std::span<const float> xs(x), ys(y);
  const std::span<float> zs(z);

  struct row {
    std::string name;
    std::function<void()> ufx, loop;
  };
  const std::vector<row> rows = {
      {"generic gufunc core 32x32, serial", [&] { matmul(ufx::serial, a, b, ufx::out(c)); },
       [&] { matmul_loop(a.data(), b.data(), c.data(), n, batch); }},
      {"generic gufunc core 32x32, host / oneTBB loop", [&] { matmul(ufx::host, a, b, ufx::out(c)); },
       [&] { matmul_tbb(a.data(), b.data(), c.data(), n, batch); }},
      {"add 2^20 floats, serial", [&] { add(ufx::serial, xs, ys, ufx::out(zs)); },
       [&] { add_loop(x.data(), y.data(), z.data(), len); }},
      {"add 2^20 floats, host / oneTBB loop", [&] { add(ufx::host, xs, ys, ufx::out(zs)); },
       [&] { add_tbb(x.data(), y.data(), z.data(), len); }},
      {"sum 2^20 floats, serial / pairwise loop", [&] { sink = ufx::sum(ufx::serial, xs); },
       [&] { sink = sum_loop(x.data(), len); }},
      {"mean and var 2^20 floats, serial / shifted loop",
       [&] { sink = static_cast<float>(std::get<1>(ufx::reducers(ufx::mean, ufx::var)(ufx::serial, xs))); },
       [&] { sink = static_cast<float>(mean_var_loop(x.data(), len).second); }},
  };

  int failed = 0;
  std::printf("%-50s %12s %12s %7s\n", "row (median of 21, interleaved)", "ufx us", "loop us", "ratio");
  for (const row& r : rows) {
    r.ufx(); // warm: page faults, thread pools, caches
    r.loop();
    std::vector<double> tu, tl, ratio;
    for (int k = 0; k < reps; ++k) {
      const double u = seconds(r.ufx), l = seconds(r.loop);
      tu.push_back(u);
      tl.push_back(l);
      ratio.push_back(u / l);
    }
    const double q = median(ratio);
    const bool bad = !(q < limit);
    failed += bad;
    std::printf("%-50s %12.1f %12.1f %7.2f%s\n", r.name.c_str(), median(tu) * 1e6, median(tl) * 1e6, q,
                bad ? "  FAILED: ufx takes 2x the hand-written loop's time or more" : "");
  }
  std::printf("speed guard: %d of %zu rows at 2x or worse\n", failed, rows.size());
  return failed ? 1 : 0;
}
