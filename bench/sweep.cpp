// bench_sweep: the Numba tutorials' benchmark as a tool. Four problems (float32):
//   sum      ufx::reducer(s + v, 0)
//   abs_sum  the tutorial's |x| reducer, ufx::reducer(v < 0 ? s - v : s + v, 0)
//   add      ufx::vectorize(a + b) into an output of the same size
//   matmul   tutorial::tiled_matmul through ufx::kernel, square n x n with n = round(sqrt(N))
//            (N is the element count of each matrix; 16 x 16 tiles, a (ceil(n/16))^2 grid)
// for N = 2^min ... 2^max on every target present (serial, host, sim; cuda when this file is
// compiled by nvcc and a GPU answers), beside a plain C++ loop (target "loop"). Modes:
//   host_data    host containers in, results back in host memory (on sim and cuda: the transfers
//                to the device and back are counted)
//   device_data  (sim, cuda) device_arrays in and out, only a reduction's scalar comes back
// Each point: one warm-up call, then --reps timed calls (std::chrono::steady_clock); the median is
// written. Every result is checked against the exact answer, computed in double (sums to 1e-3 of
// the sum of |x|, add exactly, matmul to 1e-3 of n, on 64 sampled rows when n > 512); a mismatch
// is reported and the exit status is 1.
//
//   bench_sweep [--min 12] [--max 27] [--matmul-max 16] [--reps 5]
//               [--targets serial,host,sim,cuda,loop] [--problems sum,abs_sum,add,matmul]
//               [--csv FILE] [--no-progress]
//
// CSV (FILE, else stdout): problem,target,mode,N,n,median_s,reps (n: the matrix side for matmul,
// else N). A progress bar goes to stderr on a terminal (one line per exponent otherwise), and a
// summary of the largest N to stdout (or stderr when the CSV goes to stdout). scripts/sweep.sh runs
// this, the NumPy/Numba peers (bench/sweep_peers.py) and the plots (bench/sweep_plot.py).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#ifdef _OPENMP
#  include <omp.h>
#endif

#ifdef __CUDACC__
#  include <cuda_runtime.h>
#endif

#include <ufx/ufx.hpp>

#include "bench_common.hpp"
#include "tutorial_kernels.hpp"

namespace {

using tutorial::TPB;

struct options {
  int min = 12, max = 27, matmul_max = 16, reps = 5;
  std::vector<std::string> targets, problems{"sum", "abs_sum", "add", "matmul"};
  std::string csv;
  bool progress = true;
};

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> r;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) r.push_back(item);
  return r;
}

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

[[noreturn]] void usage(const char* msg) {
  std::fprintf(stderr,
               "bench_sweep: %s\nusage: bench_sweep [--min E] [--max E] [--matmul-max E] [--reps R] [--targets LIST] "
               "[--problems LIST] [--csv FILE] [--no-progress]\n",
               msg);
  std::exit(2);
}

options parse(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(("missing value after " + a).c_str());
      return argv[++i];
    };
    auto integer = [&] {
      const std::string v = value();
      char* end = nullptr;
      const long x = std::strtol(v.c_str(), &end, 10);
      if (v.empty() || *end) usage(("not an integer: " + a + " " + v).c_str());
      return static_cast<int>(x);
    };
    if (a == "--min") o.min = integer();
    else if (a == "--max") o.max = integer();
    else if (a == "--matmul-max") o.matmul_max = integer();
    else if (a == "--reps") o.reps = integer();
    else if (a == "--targets") o.targets = split(value());
    else if (a == "--problems") o.problems = split(value());
    else if (a == "--csv") o.csv = value();
    else if (a == "--no-progress") o.progress = false;
    else if (a == "-h" || a == "--help") usage("the tutorials' benchmark sweep");
    else usage(("unknown argument " + a).c_str());
  }
  if (o.min < 0 || o.max > 34 || o.min > o.max) usage("need 0 <= --min <= --max <= 34");
  if (o.reps < 1) usage("--reps must be at least 1");
  for (const auto& p : o.problems)
    if (!has({"sum", "abs_sum", "add", "matmul"}, p)) usage(("unknown problem " + p).c_str());
  return o;
}

bool cuda_present() {
#ifdef __CUDACC__
  return ufx::cuda_available();
#else
  return false;
#endif
}

/// The targets to run: those asked for (default: every one present) and the loop.
std::vector<std::string> present_targets(const options& o) {
  std::vector<std::string> all{"loop", "serial", "host", "sim"};
  if (cuda_present()) all.push_back("cuda");
  if (o.targets.empty()) return all;
  std::vector<std::string> r;
  for (const auto& t : o.targets) {
    if (!has({"loop", "serial", "host", "sim", "cuda"}, t)) usage(("unknown target " + t).c_str());
    if (t == "cuda" && !cuda_present()) {
#ifdef __CUDACC__
      std::fprintf(stderr, "bench_sweep: cuda left out: %s\n", std::string(ufx::cuda_unavailable_reason()).c_str());
#else
      std::fprintf(stderr, "bench_sweep: this build was not compiled by nvcc (bench_sweep_cuda is); cuda left out\n");
#endif
      continue;
    }
    if (!has(r, t)) r.push_back(t);
  }
  return r;
}

std::vector<std::string> modes_of(const std::string& target) {
  if (target == "sim" || target == "cuda") return {"host_data", "device_data"};
  return {"host_data"};
}

void device_sync([[maybe_unused]] const std::string& target) {
#ifdef __CUDACC__
  if (target == "cuda") cudaDeviceSynchronize();
#endif
}

/// One warm-up call, then `reps` timed calls; the median in seconds.
double median_seconds(int reps, const std::string& target, const std::function<void()>& f) {
  f();
  device_sync(target);
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    const auto a = std::chrono::steady_clock::now();
    f();
    device_sync(target);
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count());
  }
  std::sort(t.begin(), t.end());
  const std::size_t m = t.size() / 2;
  return t.size() % 2 ? t[m] : 0.5 * (t[m - 1] + t[m]);
}

// ---- progress bar ------------------------------------------------------------------------------

struct progress_bar {
  std::size_t total = 0, done = 0;
  bool tty = false, enabled = true;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  void show(const std::string& what) {
    if (!enabled || !tty) return;
    constexpr int width = 30;
    const int filled = total ? static_cast<int>(width * done / total) : width;
    const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "\r[%s%s] %zu/%zu %-36s %6.1fs\x1b[K", std::string(filled, '#').c_str(),
                 std::string(width - filled, ' ').c_str(), done, total, what.c_str(), el);
    std::fflush(stderr);
  }
  void line(const std::string& what) {
    if (!enabled || tty) return;
    const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "bench_sweep: %zu/%zu done (%s), %.1fs\n", done, total, what.c_str(), el);
  }
  void finish() {
    if (enabled && tty) std::fprintf(stderr, "\n");
  }
};

// ---- the problems --------------------------------------------------------------------------------

struct row {
  std::string problem, target, mode;
  long long N, n;
  double median_s;
  int reps;
};

struct data {
  std::size_t N = 0;
  ufx::index_t n = 0; // matrix side
  std::vector<float> x, y, z;
  ufx::ndarray<float, 2> A, B, C;
  // the loop's results, which every target's are checked against
  float sum = 0, abs_sum = 0, sum_of_abs = 0;
  std::vector<float> add;
  ufx::ndarray<float, 2> matmul; // rows 0, row_step, 2 row_step, ... (all of them up to n = 512)
  ufx::index_t row_step = 1;
};

// functors, not lambdas: nvcc's extended lambdas cannot live at namespace scope
struct plus_op {
  UFX_HD float operator()(float s, float v) const { return s + v; }
};
struct abs_plus_op { // the tutorial's |x| reducer
  UFX_HD float operator()(float s, float v) const { return v < 0 ? s - v : s + v; }
};
const auto sum_r = ufx::reducer(plus_op{}, 0.f);
const auto abs_sum_r = ufx::reducer(abs_plus_op{}, 0.f);
const auto add_v = ufx::vectorize(plus_op{});
const auto tiled = ufx::kernel(tutorial::tiled_matmul{}, "tiled_matmul");

/// sum_r or abs_sum_r (two types) on the same arguments.
template <class... A>
float reduce(const std::string& problem, const A&... a) {
  return problem == "sum" ? sum_r(a...) : abs_sum_r(a...);
}

ufx::launch_config tiles(ufx::index_t n) {
  const unsigned g = static_cast<unsigned>((n + TPB - 1) / TPB);
  return {{g, g}, {TPB, TPB}};
}

volatile float sink; // keeps the loops' sums alive

struct checker {
  int failures = 0;
  void scalar(const std::string& what, float got, float want, float scale) {
    if (!(std::fabs(got - want) <= 1e-3f * scale + 1e-6f)) {
      ++failures;
      std::fprintf(stderr, "\nbench_sweep: WRONG %s: %.9g, the loop gives %.9g\n", what.c_str(), got, want);
    }
  }
  void vec(const std::string& what, const float* got, const float* want, std::size_t n, float tol) {
    for (std::size_t i = 0; i < n; ++i)
      if (!(std::fabs(got[i] - want[i]) <= tol)) {
        ++failures;
        std::fprintf(stderr, "\nbench_sweep: WRONG %s at %zu: %.9g, the loop gives %.9g\n", what.c_str(), i, got[i],
                     want[i]);
        return;
      }
  }
  void matmul(const std::string& what, const float* got, const data& d) {
    for (ufx::index_t i = 0; i < d.n; i += d.row_step)
      vec(what + " row " + std::to_string(i), got + i * d.n, d.matmul.data() + i * d.n, static_cast<std::size_t>(d.n),
          1e-3f * static_cast<float>(d.n));
  }
};

/// Times `problem` on `target` in `mode` over `d`, checks the result; the median in seconds.
template <class Target>
double run_on(Target tg, const std::string& tname, const std::string& problem, const std::string& mode, data& d,
              int reps, checker& check) {
  const std::string what = problem + " " + tname + " " + mode + " N=" + std::to_string(d.N);
  const float scale = d.sum_of_abs;
  constexpr bool device = !(std::is_same_v<Target, ufx::serial_t> || std::is_same_v<Target, ufx::host_t>);
  if (!device || mode == "host_data") { // host containers in and out (transfers counted on a device)
    if (problem == "sum" || problem == "abs_sum") {
      float got = 0;
      const double t = median_seconds(reps, tname, [&] { got = reduce(problem, tg, d.x); });
      check.scalar(what, got, problem == "sum" ? d.sum : d.abs_sum, scale);
      return t;
    }
    if (problem == "add") {
      std::fill(d.z.begin(), d.z.end(), 0.f);
      const double t = median_seconds(reps, tname, [&] { add_v(tg, d.x, d.y, ufx::out(d.z)); });
      check.vec(what, d.z.data(), d.add.data(), d.N, 0.f);
      return t;
    }
    const double t = median_seconds(reps, tname, [&] { tiled[tiles(d.n)](tg, d.A, d.B, d.C); });
    check.matmul(what, d.C.data(), d);
    return t;
  }
  if constexpr (device) {
    // device_data: copies made before timing, results copied back after
    if (problem == "sum" || problem == "abs_sum") {
      auto dx = ufx::to_device(d.x, tg);
      float got = 0;
      const double t = median_seconds(reps, tname, [&] { got = reduce(problem, dx); });
      check.scalar(what, got, problem == "sum" ? d.sum : d.abs_sum, scale);
      return t;
    }
    if (problem == "add") {
      auto dx = ufx::to_device(d.x, tg), dy = ufx::to_device(d.y, tg);
      ufx::device_array<float, 1> dz({static_cast<ufx::index_t>(d.N)}, tg);
      const double t = median_seconds(reps, tname, [&] { add_v(dx, dy, ufx::out(dz)); });
      std::fill(d.z.begin(), d.z.end(), 0.f);
      dz.copy_to_host(d.z);
      check.vec(what, d.z.data(), d.add.data(), d.N, 0.f);
      return t;
    }
    auto dA = ufx::to_device(d.A, tg), dB = ufx::to_device(d.B, tg);
    ufx::device_array<float, 2> dC({d.n, d.n}, tg);
    const double t = median_seconds(reps, tname, [&] { tiled[tiles(d.n)](dA, dB, dC); });
    const auto C = dC.to_host();
    check.matmul(what, C.data(), d);
    return t;
  }
  return 0; // not reached: serial and host have host_data only
}

/// The plain C++ loops (one thread), which also make the reference results.
double run_loop(const std::string& problem, data& d, int reps) {
  if (problem == "sum")
    return median_seconds(reps, "loop", [&] {
      float s = 0;
      for (std::size_t i = 0; i < d.N; ++i) s += d.x[i];
      sink = s;
    });
  if (problem == "abs_sum")
    return median_seconds(reps, "loop", [&] {
      float s = 0;
      for (std::size_t i = 0; i < d.N; ++i) s += std::fabs(d.x[i]);
      sink = s;
    });
  if (problem == "add")
    return median_seconds(reps, "loop", [&] {
      for (std::size_t i = 0; i < d.N; ++i) d.z[i] = d.x[i] + d.y[i];
      sink = d.z[d.N - 1];
    });
  // matmul: i-k-j order (rows of B and C contiguous, the inner loop vectorises)
  const ufx::index_t n = d.n;
  return median_seconds(reps, "loop", [&] {
    float* c = d.C.data();
    const float *a = d.A.data(), *b = d.B.data();
    std::fill(c, c + n * n, 0.f);
    for (ufx::index_t i = 0; i < n; ++i)
      for (ufx::index_t k = 0; k < n; ++k) {
        const float aik = a[i * n + k];
        for (ufx::index_t j = 0; j < n; ++j) c[i * n + j] += aik * b[k * n + j];
      }
    sink = c[n * n - 1];
  });
}

/// The reference results, in double (so every target is checked against the exact answer, not
/// against the float loop's rounding).
void reference(data& d, const std::vector<std::string>& problems) {
  double s = 0, a = 0;
  for (std::size_t i = 0; i < d.N; ++i) s += d.x[i], a += std::fabs(d.x[i]);
  d.sum = static_cast<float>(s);
  d.abs_sum = d.sum_of_abs = static_cast<float>(a);
  if (has(problems, "add")) {
    d.add.resize(d.N);
    for (std::size_t i = 0; i < d.N; ++i) d.add[i] = d.x[i] + d.y[i];
  }
  if (has(problems, "matmul")) {
    const ufx::index_t n = d.n;
    d.matmul = ufx::ndarray<float, 2>({n, n});
    std::vector<double> acc(static_cast<std::size_t>(n));
    d.row_step = n > 512 ? n / 64 : 1; // a sample of the rows of large products (the check is O(n^3))
    for (ufx::index_t i = 0; i < n; i += d.row_step) {
      std::fill(acc.begin(), acc.end(), 0.0);
      for (ufx::index_t k = 0; k < n; ++k) {
        const double aik = d.A(i, k);
        for (ufx::index_t j = 0; j < n; ++j) acc[static_cast<std::size_t>(j)] += aik * d.B(k, j);
      }
      for (ufx::index_t j = 0; j < n; ++j) d.matmul(i, j) = static_cast<float>(acc[static_cast<std::size_t>(j)]);
    }
  }
}

std::string pow2(int e) { return "2^" + std::to_string(e); }

int omp_threads() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

} // namespace

int main(int argc, char** argv) {
  const options o = parse(argc, argv);
  const auto targets = present_targets(o);

  // plan: every (N, problem, target, mode), for the progress bar's total
  std::size_t total = 0;
  for (int e = o.min; e <= o.max; ++e)
    for (const auto& p : o.problems) {
      if (p == "matmul" && e > o.matmul_max) continue;
      for (const auto& t : targets) total += modes_of(t == "loop" ? "serial" : t).size();
    }

  std::FILE* csv = stdout;
  if (!o.csv.empty()) {
    csv = std::fopen(o.csv.c_str(), "w");
    if (!csv) {
      std::perror(o.csv.c_str());
      return 2;
    }
  }
  std::fprintf(csv, "problem,target,mode,N,n,median_s,reps\n");
  std::fflush(csv);

  progress_bar bar;
  bar.total = total;
  bar.tty = isatty(2);
  bar.enabled = o.progress;
  checker check;
  std::vector<row> rows;

  // the largest inputs once; each N takes a prefix
  const std::size_t Nmax = std::size_t{1} << o.max;
  const auto xs = ufx_bench::random_vector(Nmax, 1), ys = ufx_bench::random_vector(Nmax, 2);

  for (int e = o.min; e <= o.max; ++e) {
    data d;
    d.N = std::size_t{1} << e;
    d.x.assign(xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(d.N));
    d.y.assign(ys.begin(), ys.begin() + static_cast<std::ptrdiff_t>(d.N));
    d.z.assign(d.N, 0.f);
    const bool mm = has(o.problems, "matmul") && e <= o.matmul_max;
    if (mm) {
      d.n = static_cast<ufx::index_t>(std::llround(std::sqrt(static_cast<double>(d.N))));
      d.A = ufx::ndarray<float, 2>({d.n, d.n});
      d.B = ufx::ndarray<float, 2>({d.n, d.n});
      d.C = ufx::ndarray<float, 2>({d.n, d.n});
      std::copy(xs.begin(), xs.begin() + d.n * d.n, d.A.data());
      std::copy(ys.begin(), ys.begin() + d.n * d.n, d.B.data());
    }
    bar.show("reference " + pow2(e));
    reference(d, mm ? o.problems : std::vector<std::string>{"sum", "abs_sum", "add"});

    for (const auto& p : o.problems) {
      if (p == "matmul" && !mm) continue;
      for (const auto& t : targets)
        for (const auto& m : modes_of(t == "loop" ? "serial" : t)) {
          bar.show(p + " " + t + (m == "device_data" ? " (device)" : "") + " " + pow2(e));
          double s = 0;
          try {
            if (t == "loop") s = run_loop(p, d, o.reps);
            else if (t == "serial") s = run_on(ufx::serial, t, p, m, d, o.reps, check);
            else if (t == "host") s = run_on(ufx::host, t, p, m, d, o.reps, check);
            else if (t == "sim") s = run_on(ufx::sim, t, p, m, d, o.reps, check);
#ifdef __CUDACC__
            else if (t == "cuda") s = run_on(ufx::cuda, t, p, m, d, o.reps, check);
#endif
          } catch (const std::exception& ex) {
            std::fprintf(stderr, "\nbench_sweep: %s on %s (%s) at N=%zu failed: %s\n", p.c_str(), t.c_str(), m.c_str(),
                         d.N, ex.what());
            ++check.failures;
            ++bar.done;
            continue;
          }
          const long long n = p == "matmul" ? static_cast<long long>(d.n) : static_cast<long long>(d.N);
          rows.push_back({p, t, m, static_cast<long long>(d.N), n, s, o.reps});
          std::fprintf(csv, "%s,%s,%s,%zu,%lld,%.9g,%d\n", p.c_str(), t.c_str(), m.c_str(), d.N, n, s, o.reps);
          std::fflush(csv);
          ++bar.done;
        }
    }
    bar.show("done " + pow2(e));
    bar.line("N = " + pow2(e));
  }
  bar.finish();
  if (csv != stdout) std::fclose(csv);

  // summary: the largest N of each problem, each target and mode beside the loop
  std::FILE* out = csv == stdout ? stderr : stdout;
  std::fprintf(out, "bench_sweep: %zu points, %d reps each (median), %d OpenMP threads%s\n", rows.size(), o.reps,
               omp_threads(), check.failures ? "" : "; every result checked against the exact answer");
  for (const auto& p : o.problems) {
    long long Nbig = 0;
    double loop = 0;
    for (const auto& r : rows)
      if (r.problem == p) Nbig = std::max(Nbig, r.N);
    for (const auto& r : rows)
      if (r.problem == p && r.N == Nbig && r.target == "loop") loop = r.median_s;
    if (!Nbig) continue;
    std::fprintf(
        out, "  %-8s N=2^%d%s\n", p.c_str(), static_cast<int>(std::log2(static_cast<double>(Nbig))),
        p == "matmul"
            ? (" (" + std::to_string(static_cast<long long>(std::llround(std::sqrt(double(Nbig))))) + "^2)").c_str()
            : "");
    for (const auto& r : rows)
      if (r.problem == p && r.N == Nbig)
        std::fprintf(out, "    %-6s %-11s %11.4e s  %9.3fx the loop\n", r.target.c_str(), r.mode.c_str(), r.median_s,
                     loop > 0 && r.median_s > 0 ? loop / r.median_s : 0.0);
  }
  if (check.failures) {
    std::fprintf(stderr, "bench_sweep: %d WRONG or failed results\n", check.failures);
    return 1;
  }
  return 0;
}
