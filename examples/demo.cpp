// A short tour of ufx: each step prints what it computed and checks it; the demo exits non-zero
// if any result is wrong. Built as C++ and, when nvcc is found, as CUDA (hence UFX_HD lambdas).
#include <ufx/ufx.hpp>

#include <cstdio>
#include <string>
#include <tuple>
#include <vector>
#if __has_include(<Eigen/Core>)
#  include <ufx/eigen.hpp>
#  define UFX_DEMO_EIGEN 1
#endif

namespace {

int failures = 0;

void expect(bool ok, const char* what) {
  if (!ok) {
    std::printf("  !! wrong: %s\n", what);
    ++failures;
  }
}

template <class T>
void print(const char* label, const std::vector<T>& v) {
  std::printf("  %s = [", label);
  for (std::size_t i = 0; i < v.size(); ++i) std::printf(i ? ", %g" : "%g", static_cast<double>(v[i]));
  std::printf("]\n");
}

template <class T>
void print(const char* label, const ufx::ndarray<T, 2>& a) {
  std::printf("  %s, shape (%td,%td):\n", label, a.extent(0), a.extent(1));
  for (ufx::index_t i = 0; i < a.extent(0); ++i) {
    std::printf("    [");
    for (ufx::index_t j = 0; j < a.extent(1); ++j) std::printf(j ? " %4g" : "%4g", static_cast<double>(a(i, j)));
    std::printf("]\n");
  }
}

void section(const char* title) { std::printf("\n== %s\n", title); }

} // namespace

int main() {
  std::printf("ufx demo (default target: %s)\n", std::string(ufx::default_target().name()).c_str());

  // 1. One scalar function becomes an array kernel.
  section("vectorize a scalar function over std::vector");
  auto axpy = ufx::vectorize([] UFX_HD(float a, float x, float y) { return a * x + y; });
  const std::vector<float> x{0, 1, 2, 3, 4}, y{10, 10, 10, 10, 10};
  std::vector<float> r = axpy(2.f, x, y); // the scalar 2 broadcasts like an array
  print("x", x);
  print("2*x + y", r);
  expect(r == std::vector<float>{10, 12, 14, 16, 18}, "2*x + y");

  // 2. NumPy broadcasting: (3,1) + (1,4) -> (3,4).
  section("broadcasting (3,1) + (1,4) with ufx::ndarray");
  auto add = ufx::vectorize([] UFX_HD(int a, int b) { return a + b; });
  ufx::ndarray<int, 2> col({3, 1}), row({1, 4});
  for (int i = 0; i < 3; ++i) col(i, 0) = 10 * (i + 1);
  for (int j = 0; j < 4; ++j) row(0, j) = j;
  ufx::ndarray<int, 2> table = add(col, row);
  print("col + row", table);
  expect(table.extent(0) == 3 && table.extent(1) == 4 && table(2, 3) == 33, "(3,1) + (1,4)");

#ifdef UFX_DEMO_EIGEN
  // 3. Eigen in, Eigen out: a (3,4) matrix plus a (1,4) row vector.
  section("Eigen: matrix + row vector");
  auto addf = ufx::vectorize([] UFX_HD(float a, float b) { return a + b; });
  Eigen::MatrixXf A(3, 4);
  A << 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12;
  Eigen::RowVectorXf bias(4);
  bias << 100, 200, 300, 400;
  Eigen::MatrixXf B = addf(A, bias);
  std::printf("  A + bias =\n");
  for (int i = 0; i < 3; ++i) std::printf("    [%5g %5g %5g %5g]\n", B(i, 0), B(i, 1), B(i, 2), B(i, 3));
  expect(B.isApprox(A + bias.replicate(3, 1)), "A + bias");
#endif

  // 4. A function returning a tuple has several outputs, as np.divmod.
  section("divmod: one function, two outputs");
  auto divmod = ufx::vectorize([] UFX_HD(int a, int b) { return std::tuple<int, int>(a / b, a % b); });
  const std::vector<int> n{7, 9, 20, 3};
  auto [q, m] = divmod(n, 4);
  print("n", n);
  print("n / 4", q);
  print("n % 4", m);
  expect(q == std::vector<int>{1, 2, 5, 0} && m == std::vector<int>{3, 1, 0, 3}, "divmod(n, 4)");

  // 5. out(...) writes into an existing container; it may be one of the inputs.
  section("out: into an existing container, and in place");
  std::vector<float> z(5);
  axpy(1.f, x, x, ufx::out(z));
  print("z = x + x", z);
  std::vector<float> acc{1, 1, 1, 1, 1};
  for (int step = 0; step < 3; ++step) axpy(2.f, acc, 0.f, ufx::out(acc)); // acc *= 2, three times
  print("acc after three in-place doublings", acc);
  expect(z == std::vector<float>{0, 2, 4, 6, 8} && acc == std::vector<float>(5, 8.f), "out / in place");

  // 6. Device arrays: data stays on the device between calls. ufx::sim emulates a device on the CPU.
  section("device arrays on ufx::sim");
  auto dx = ufx::to_device(x, ufx::sim);
  auto dy = axpy(3.f, dx, dx); // runs where the data lives; the result is a device_array
  ufx::ndarray<float, 1> back = dy.to_host();
  std::vector<float> back_vec(5);
  dy.copy_to_host(back_vec);
  print("3*x + x, computed on sim, copied back", back_vec);
  expect(back(4) == 16.f && back_vec == std::vector<float>{0, 4, 8, 12, 16}, "device round trip");

  // 7. Reductions, as Numba's @cuda.reduce: a binary function and its identity.
  section("reducer: a sum and a sum of |x|, whole and along an axis");
  auto sum = ufx::reducer([] UFX_HD(float s, float v) { return s + v; }, 0.f);
  auto abs_sum = ufx::reducer([] UFX_HD(float s, float v) { return v < 0 ? s - v : s + v; }, 0.f);
  const std::vector<float> w{-1, 3, 5, -2};
  const float total = sum(w), magnitude = abs_sum(ufx::sim, w);
  ufx::ndarray<float, 2> mat{{1, -2, 3}, {-4, 5, -6}};
  ufx::ndarray<float, 1> rows = abs_sum(mat, ufx::axis{1}); // np.abs(m).sum(axis=1)
  print("w", w);
  std::printf("  sum(w) = %g, sum(|w|) on sim = %g, sum(|m|, axis=1) = [%g, %g]\n", total, magnitude, rows(0), rows(1));
  expect(total == 5.f && magnitude == 11.f && rows(0) == 6.f && rows(1) == 15.f, "reductions");

  // 8. A raw kernel, as Numba's @cuda.jit: threads, blocks, a bounds guard, shared memory and a
  //    barrier. ufx::sim runs each block's threads as fibers and checks races and indices.
  section("a raw kernel: each block reverses its 8 elements through shared memory");
  auto reverse = ufx::kernel(
      [] UFX_HD(const ufx::thread& t, ufx::shared<float[8]> s, ufx::ndview<float, 1> a) {
        const ufx::index_t i = t.grid<1>(); // cuda.grid(1)
        const unsigned tx = t.thread_idx().x;
        if (i < a.extent(0)) s[tx] = a(i);
        t.sync(); // cuda.syncthreads()
        if (i < a.extent(0)) a(i) = s[7 - tx];
      },
      "reverse");
  std::vector<float> v(16);
  for (int i = 0; i < 16; ++i) v[static_cast<std::size_t>(i)] = static_cast<float>(i);
  if (ufx::host_kernels_available()) {
    reverse[{2, 8}](ufx::sim, v); // kern[blocks, threads](v): v is copied to the device and back
    print("v after reverse[2 blocks, 8 threads]", v);
    expect(v[0] == 7.f && v[7] == 0.f && v[8] == 15.f && v[15] == 8.f, "block reverse");
  } else {
    std::printf("  skipped: this ufx was built without Boost.Context, which raw kernels on the CPU need\n");
  }

  // 9. Shapes that do not broadcast: an error naming every shape, before anything runs.
  section("a shape error");
  try {
    add(std::vector<int>(3), std::vector<int>(4));
    expect(false, "(3,) + (4,) should have thrown");
  } catch (const ufx::shape_error& e) {
    std::printf("  caught ufx::shape_error: %s\n", e.what());
  }

  std::printf("\n%s\n", failures == 0 ? "demo finished: every result checked" : "demo finished WITH WRONG RESULTS");
  return failures == 0 ? 0 : 1;
}
