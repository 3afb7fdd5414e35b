// ufx::kernel: raw kernels in the style of @cuda.jit, on every target (ufx::cuda when a GPU
// answers), the tutorials' kernels ported, and the sim's checks, each shown failing.
#include "common.hpp"
#include "tutorial_kernels.hpp"

#include <numeric>
#include <string>
#include <vector>

using ufx_test::error_message;
using ufx_test::iota_f;
using ufx_test::kernel_runnable;
using ufx_test::runnable;

namespace {

using tutorial::TPB;
using add_body = tutorial::vector_add;
using matmul_body = tutorial::matmul;
using tiled_body = tutorial::tiled_matmul;
using tiled_early_return_body = tutorial::tiled_matmul_early_return;
using doubled_2d_body = tutorial::doubled_threadidx;
using doubled_grid_body = tutorial::doubled_grid;
using sum_body = tutorial::grid_stride_sum;

struct block_reverse_body { // shared memory, one barrier: each block reverses its slice
  UFX_HD void operator()(const ufx::thread& t, ufx::shared<int[64]> s, ufx::ndview<int, 1> a) const {
    const auto i = t.grid<1>();
    const unsigned tx = t.thread_idx().x, n = t.block_dim().x;
    s[tx] = a(i);
    t.sync();
    a(i) = s[n - 1 - tx];
  }
};

struct pair_t {
  int a;
  double b;
};
struct typed_body {
  UFX_HD void operator()(const ufx::thread& t, ufx::shared<pair_t[32]> p, ufx::shared<bool[32]> flag,
                         ufx::shared<double[]> dyn, ufx::ndview<double, 1> out) const {
    const unsigned i = t.thread_idx().x;
    p[i] = pair_t{static_cast<int>(i), 0.5 * i};
    flag[i] = i % 2 == 0;
    dyn[i] = 2.0 * i;
    t.sync();
    const unsigned j = 31 - i;
    out(t.grid<1>()) = p[j].a + p[j].b + (flag[j] ? 1000.0 : 0.0) + dyn[j] + static_cast<double>(dyn.extent(0));
  }
};

std::vector<float> matmul_ref(const std::vector<float>& A, const std::vector<float>& B, int n, int k, int m) {
  std::vector<float> C(static_cast<std::size_t>(n * m), 0.f);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) {
      float s = 0;
      for (int q = 0; q < k; ++q) s += A[static_cast<std::size_t>(i * k + q)] * B[static_cast<std::size_t>(q * m + j)];
      C[static_cast<std::size_t>(i * m + j)] = s;
    }
  return C;
}

std::vector<float> pattern(int n, int seed) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = static_cast<float>((i * 7 + seed * 3) % 11) - 5.f;
  return v;
}

} // namespace

TEST_CASE_TEMPLATE("kernel: vector add with grid(1) and a bounds check, host vectors copied in and out", Target,
                   UFX_TEST_TARGETS) {
  if (!kernel_runnable<Target>()) return;
  const Target tgt{};
  auto add = ufx::kernel(add_body{}, "add");
  for (int n : {1, 100, 1000, 4097}) {
    auto x = iota_f(n), y = iota_f(n, 10.f);
    std::vector<float> out(static_cast<std::size_t>(n), -1.f);
    const int threads = 128, blocks = (n + threads - 1) / threads;
    add[{blocks, threads}](tgt, x, y, out);
    for (int i = 0; i < n; ++i)
      REQUIRE(out[static_cast<std::size_t>(i)] == x[static_cast<std::size_t>(i)] + y[static_cast<std::size_t>(i)]);
    std::vector<float> out2(static_cast<std::size_t>(n), -1.f);
    add.forall(n)(tgt, x, y, out2); // Numba's kernel.forall(n)
    CHECK(out2 == out);
  }
}

struct scale_body { // a body with state: a configured launch must not outlive it
  float factor;
  UFX_HD void operator()(const ufx::thread& t, ufx::ndview<float, 1> a) const {
    const auto i = t.grid<1>();
    if (i < a.extent(0)) a(i) *= factor;
  }
};

TEST_CASE_TEMPLATE("kernel: a launch configured from a temporary kernel holds it (no dangling reference)", Target,
                   UFX_TEST_TARGETS) {
  if (!kernel_runnable<Target>()) return;
  const Target tgt{};
  // the kernel is gone at the end of each declaration; the launch keeps what it needs
  auto launch = ufx::kernel(scale_body{3.f}, "triple")[{1, 8}];
  auto all = ufx::kernel(scale_body{2.f}, "twice").forall(5);
  auto bad = ufx::kernel(scale_body{2.f}, "twice")[{0, 8}];
  CHECK(launch.owns_kernel());
  std::vector<float> x{1, 2, 3, 4, 5};
  launch(tgt, x);
  CHECK(x == std::vector<float>{3, 6, 9, 12, 15});
  all(tgt, x);
  CHECK(x == std::vector<float>{6, 12, 18, 24, 30});
  const auto copy = launch; // a copy holds its own kernel
  copy(tgt, x);
  CHECK(x[4] == 90.f);
  const std::string msg = error_message([&] { bad(tgt, x); });
  CHECK_MESSAGE(msg.find("kernel 'twice'") != std::string::npos, msg);
  CHECK(x[4] == 90.f); // nothing ran
  // a named kernel's launch refers to it
  const auto named = ufx::kernel(scale_body{1.f}, "one");
  CHECK_FALSE(named[{1, 8}].owns_kernel());
  CHECK_FALSE(named.forall(3).owns_kernel());
}

TEST_CASE_TEMPLATE("kernel: inputs are not copied back, outputs are, device arrays pass without copies", Target,
                   UFX_TEST_TARGETS) {
  if (!kernel_runnable<Target>()) return;
  const Target tgt{};
  auto add = ufx::kernel(add_body{}, "add");
  const int n = 300;
  auto x = iota_f(n), y = iota_f(n, 1.f);
  if constexpr (Target::is_device) {
    // to_device / device_array_like / copy_to_host, as the tutorial
    auto dx = ufx::to_device(x, tgt), dy = ufx::to_device(y, tgt);
    ufx::device_array<float, 1> dout({n}, tgt.space());
    add.forall(n)(dx, dy, dout); // the target comes from where the data lives
    const auto h = dout.to_host();
    for (int i = 0; i < n; ++i) REQUIRE(h(i) == x[static_cast<std::size_t>(i)] + y[static_cast<std::size_t>(i)]);
  }
  std::vector<float> out(static_cast<std::size_t>(n));
  add.forall(n)(tgt, x, y, out);
  CHECK(x == iota_f(n));
  CHECK(out[5] == 11.f);
}

TEST_CASE_TEMPLATE("kernel: grid(2) matmul, thread_idx and grid(2) doubled", Target, UFX_TEST_TARGETS) {
  if (!kernel_runnable<Target>()) return;
  const Target tgt{};
  const int n = 37, k = 19, m = 23;
  const auto A = pattern(n * k, 1), B = pattern(k * m, 2);
  ufx::ndarray<float, 2> a({n, k}), b({k, m}), c({n, m});
  std::copy(A.begin(), A.end(), a.data());
  std::copy(B.begin(), B.end(), b.data());
  auto matmul = ufx::kernel(matmul_body{}, "matmul");
  matmul[{{(n + TPB - 1) / TPB, (m + TPB - 1) / TPB}, {TPB, TPB}}](tgt, a, b, c);
  const auto ref = matmul_ref(A, B, n, k, m);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) REQUIRE(c(i, j) == ref[static_cast<std::size_t>(i * m + j)]);

  ufx::ndarray<float, 2> d({5, 7});
  for (int i = 0; i < 35; ++i) d.data()[i] = static_cast<float>(i);
  ufx::kernel(doubled_2d_body{}, "doubled")[{1, {5, 7}}](tgt, d);
  CHECK(d(4, 6) == 68.f);
  CHECK(d(0, 1) == 2.f);
  ufx::kernel(doubled_grid_body{}, "doubled")[{{2, 2}, {4, 4}}](tgt, d);
  CHECK(d(4, 6) == 136.f);
  CHECK(d(3, 3) == 4.f * 24.f);
}

TEST_CASE_TEMPLATE("kernel: the shared-memory tiled matmul, sizes that are and are not multiples of the tile", Target,
                   UFX_TEST_TARGETS) {
  if (!kernel_runnable<Target>()) return;
  const Target tgt{};
  auto tiled = ufx::kernel(tiled_body{}, "tiled");
  auto rows = ufx::kernel(tutorial::tiled_matmul_rows{}, "tiled_rows"); // its warps walk rows (test_profile.cpp)
  for (int n : {16, 48, 50}) {
    const auto A = pattern(n * n, 3), B = pattern(n * n, 4);
    ufx::ndarray<float, 2> a({n, n}), b({n, n}), c({n, n});
    std::copy(A.begin(), A.end(), a.data());
    std::copy(B.begin(), B.end(), b.data());
    const unsigned blocks = static_cast<unsigned>((n + TPB - 1) / TPB);
    tiled[{{blocks, blocks}, {TPB, TPB}}](tgt, a, b, c);
    const auto ref = matmul_ref(A, B, n, n, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) REQUIRE(c(i, j) == doctest::Approx(ref[static_cast<std::size_t>(i * n + j)]));
    ufx::ndarray<float, 2> c2({n, n});
    rows[{{blocks, blocks}, {TPB, TPB}}](tgt, a, b, c2);
    CHECK(c2 == c); // the same sums in the same order
  }
}

TEST_CASE_TEMPLATE("kernel: grid-stride sum with atomic_add into one element", Target, UFX_TEST_TARGETS) {
  if (!kernel_runnable<Target>()) return;
  const Target tgt{};
  auto sum = ufx::kernel(sum_body{}, "sum");
  const int n = 100000;
  std::vector<float> x(static_cast<std::size_t>(n), 1.f), out{0.f};
  sum[{8, 64}](tgt, x, out);
  CHECK(out[0] == static_cast<float>(n));
}

TEST_CASE_TEMPLATE("kernel: shared arrays of a block, a barrier between writes and reads", Target, UFX_TEST_TARGETS) {
  if (!kernel_runnable<Target>()) return;
  const Target tgt{};
  std::vector<int> a(256);
  std::iota(a.begin(), a.end(), 0);
  ufx::kernel(block_reverse_body{}, "reverse")[{4, 64}](tgt, a);
  CHECK(a[0] == 63);
  CHECK(a[63] == 0);
  CHECK(a[64] == 127);
  CHECK(a[255] == 192);
}

// ---- the sim's checks (ufx::serial and ufx::host run kernels through the same block runner)

TEST_CASE("kernel on sim: the tutorial's early return before sync() is reported as barrier divergence") {
  if (!kernel_runnable<ufx::sim_t>()) return;
  auto early = ufx::kernel(tiled_early_return_body{}, "tiled");
  const int n = 20; // not a multiple of 16: threads of the last blocks return early
  ufx::ndarray<float, 2> a({n, n}, 1.f), b({n, n}, 1.f), c({n, n}, -1.f);
  const std::string msg = error_message([&] { early[{{2, 2}, {TPB, TPB}}](ufx::sim, a, b, c); });
  CHECK(msg.find("kernel 'tiled' on ufx::sim device 0, block (1, 1, 0), thread (4, 4, 0)") != std::string::npos);
  CHECK(msg.find("barrier divergence: this thread returned while thread (0, 0, 0) waits at t.sync() on line") !=
        std::string::npos);
  CHECK(c(0, 0) == -1.f); // the output is not copied back from a failed kernel
  CHECK_THROWS_AS((early[{{2, 2}, {TPB, TPB}}](ufx::sim, a, b, c)), ufx::kernel_error);
  // a multiple of 16: every thread reaches every barrier, and the kernel is right
  ufx::ndarray<float, 2> a2({32, 32}, 1.f), b2({32, 32}, 2.f), c2({32, 32});
  early[{{2, 2}, {TPB, TPB}}](ufx::sim, a2, b2, c2);
  CHECK(c2(31, 31) == 64.f);
}

TEST_CASE_TEMPLATE("kernel: threads waiting at different sync() calls", Target, ufx::serial_t, ufx::host_t,
                   ufx::sim_t) {
  if (!kernel_runnable<Target>()) return;
  auto k = ufx::kernel(
      [] UFX_HD(const ufx::thread& t, ufx::ndview<int, 1> a) {
        if (t.thread_idx().x % 2 == 0) {
          t.sync();
          a(0) = 1;
        } else {
          t.sync();
          a(1) = 1;
        }
      },
      "split");
  std::vector<int> a(2, 0);
  const std::string msg = error_message([&] { k[{1, 4}](Target{}, a); });
  CHECK(msg.find("kernel 'split' on") != std::string::npos);
  CHECK(msg.find("block (0, 0, 0), thread (1, 0, 0): barrier divergence: this thread waits at t.sync() on line") !=
        std::string::npos);
  CHECK(msg.find("while thread (0, 0, 0) waits at t.sync() on line") != std::string::npos);
}

TEST_CASE("kernel on sim: shared-memory races within one barrier interval, and none across a barrier") {
  if (!kernel_runnable<ufx::sim_t>()) return;
  std::vector<int> a(8, 0);
  // write then read a neighbour's element without sync() (after a first barrier interval that
  // fills every element, so no read is of an element never written)
  auto racy = ufx::kernel(
      [] UFX_HD(const ufx::thread& t, ufx::shared<int[8]> s, ufx::ndview<int, 1> out) {
        const unsigned i = t.thread_idx().x;
        s[i] = 0;
        t.sync();
        s[i] = static_cast<int>(i) + 1;
        out(i) = s[(i + 1) % 8];
      },
      "racy");
  std::string msg = error_message([&] { racy[{1, 8}](ufx::sim, a); });
  CHECK(msg.find("kernel 'racy' on ufx::sim device 0, block (0, 0, 0), thread (1, 0, 0): shared-memory race: this "
                 "thread writes element (1) of shared array 0 (parameter 1), which thread (0, 0, 0) read since the "
                 "last sync()") != std::string::npos);
  // two writers of one element
  auto two_writers = ufx::kernel(
      [] UFX_HD(const ufx::thread& t, ufx::shared<float[2][3]> s) { s(1, 2) = float(t.thread_idx().x); }, "w");
  msg = error_message([&] { two_writers[{1, 2}](ufx::sim); });
  CHECK(msg.find("thread (1, 0, 0): shared-memory race: this thread writes element (1, 2) of shared array 0 "
                 "(parameter 1), which thread (0, 0, 0) wrote") != std::string::npos);
  // a reader after a writer, in a second array
  auto reader = ufx::kernel(
      [] UFX_HD(const ufx::thread& t, ufx::shared<int[4]>, ufx::shared<int[4]> s2, ufx::ndview<int, 1> out) {
        if (t.thread_idx().x == 0) s2[3] = 7;
        else out(t.thread_idx().x) = s2[3];
      },
      "reader");
  msg = error_message([&] { reader[{1, 2}](ufx::sim, a); });
  CHECK(msg.find("thread (1, 0, 0): shared-memory race: this thread reads element (3) of shared array 1 (parameter "
                 "2), which thread (0, 0, 0) wrote since the last sync()") != std::string::npos);
  // many readers of one element, and the same accesses separated by barriers: no race
  auto fine = ufx::kernel(
      [] UFX_HD(const ufx::thread& t, ufx::shared<int[8]> s, ufx::ndview<int, 1> out) {
        const unsigned i = t.thread_idx().x;
        if (i == 0) s[0] = 5;
        t.sync();
        out(i) = s[0];
        t.sync();
        s[i] = out(i) + static_cast<int>(i);
        t.sync();
        out(i) = s[(i + 1) % 8];
      },
      "fine");
  fine[{1, 8}](ufx::sim, a);
  CHECK(a == std::vector<int>{6, 7, 8, 9, 10, 11, 12, 5});
}

TEST_CASE_TEMPLATE("kernel: shared arrays of any trivially copyable type, and one sized by shared_bytes", Target,
                   UFX_TEST_TARGETS) {
  if (!kernel_runnable<Target>()) return;
  std::vector<double> out(64);
  ufx::kernel(typed_body{}, "typed")[{2, 32, 32 * sizeof(double)}](Target{}, out);
  for (int b = 0; b < 2; ++b)
    for (unsigned i = 0; i < 32; ++i) {
      const unsigned j = 31 - i;
      REQUIRE(out[b * 32 + i] == j + 0.5 * j + (j % 2 == 0 ? 1000.0 : 0.0) + 2.0 * j + 32.0);
    }
}

TEST_CASE("kernel on sim: out-of-range shared index, an exception from the body, a host pointer") {
  if (!kernel_runnable<ufx::sim_t>()) return;
  auto oob =
      ufx::kernel([] UFX_HD(const ufx::thread& t, ufx::shared<float[4][4]> s) { s(t.thread_idx().x, 4) = 1.f; }, "oob");
  std::string msg = error_message([&] { oob[{1, 2}](ufx::sim); });
  CHECK(msg == "kernel 'oob' on ufx::sim device 0, block (0, 0, 0), thread (0, 0, 0): ufx::shared: index (0, 4) out "
               "of range for shape (4, 4)");
  auto throws = ufx::kernel(
      [] UFX_HD(const ufx::thread& t) {
#if !defined(__CUDA_ARCH__) // device code cannot throw; the sim runs the host side
        if (t.block_idx().x == 2 && t.thread_idx().x == 3) throw std::runtime_error("bad value");
#else
        (void)t;
#endif
      },
      "throws");
  msg = error_message([&] { throws[{4, 8}](ufx::sim); });
  CHECK(msg == "kernel 'throws' on ufx::sim device 0, block (2, 0, 0), thread (3, 0, 0): bad value");
  float host_value = 0;
  auto ptr = ufx::kernel([] UFX_HD(const ufx::thread&, float* p) { *p = 1.f; }, "ptr");
  msg = error_message([&] { ptr[{1, 1}](ufx::sim, &host_value); });
  CHECK(msg == "ufx::kernel: argument 1 is a pointer to host memory but the kernel runs on ufx::sim device 0 (pass "
               "arrays as containers or ndviews, which ufx copies; or allocate the memory there)");
  CHECK(host_value == 0.f);
  auto dev = ufx::to_device(std::vector<float>{0.f}, ufx::sim);
  ptr[{1, 1}](ufx::sim, dev.data()); // a device pointer is fine
  CHECK(dev.to_host()(0) == 1.f);
  ptr[{1, 1}](ufx::host, &host_value); // and a host pointer on a CPU target
  CHECK(host_value == 1.f);
}

TEST_CASE("kernel on sim: an out-of-range ndview index (checked on the sim in every build)") {
  if (!kernel_runnable<ufx::sim_t>()) return;
  auto k = ufx::kernel([] UFX_HD(const ufx::thread& t, ufx::ndview<float, 1> a) { a(t.grid<1>()) = 1.f; }, "no_check");
  std::vector<float> a(100, 0.f);
  const std::string msg = error_message([&] { k[{1, 128}](ufx::sim, a); });
  CHECK(msg == "kernel 'no_check' on ufx::sim device 0, block (0, 0, 0), thread (100, 0, 0): ufx::ndview: index "
               "(100) out of range for shape (100)");
  CHECK(a[0] == 0.f); // nothing copied back
}

TEST_CASE_TEMPLATE("kernel: launch configurations the device cannot run are refused before any copy", Target,
                   UFX_TEST_TARGETS) {
  if (!runnable<Target>()) return;
  const Target tgt{};
  auto add = ufx::kernel(add_body{}, "add");
  std::vector<float> x(8, 1.f), y(8, 2.f), out(8, -1.f);
  std::string msg = error_message([&] { add[{1, 2048}](tgt, x, y, out); });
  CHECK(msg.find("cannot launch kernel 'add' with grid (1, 1, 1), block (2048, 1, 1): 2048 threads per block, more "
                 "than the device's") != std::string::npos);
  CHECK_THROWS_AS((add[{0, 32}](tgt, x, y, out)), ufx::launch_error);
  msg = error_message([&] { add[{0, 32}](tgt, x, y, out); });
  CHECK(msg.find("a grid or block extent is 0") != std::string::npos);
  msg = error_message([&] { add[{1, 32, std::size_t{1} << 20}](tgt, x, y, out); });
  CHECK(msg.find("1048576 bytes of shared memory per block, more than the device's") != std::string::npos);
  auto tiled = ufx::kernel(tiled_body{}, "tiled");
  ufx::ndarray<float, 2> a({16, 16}, 1.f), c({16, 16}, 0.f);
  msg = error_message([&] { tiled[{1, {16, 16}, 48 << 10}](tgt, a, a, c); });
  CHECK(msg.find("bytes of shared memory per block (2048 in shared arrays, 49152 dynamic)") != std::string::npos);
  msg = error_message([&] { add[{-1, 32}](tgt, x, y, out); });
  CHECK(msg.find("grid.x is more than 2^31 - 1") != std::string::npos);
  CHECK(out == std::vector<float>(8, -1.f));
  add.forall(0)(tgt, x, y, out); // no work: launches nothing, not an error
  CHECK(out == std::vector<float>(8, -1.f));
  CHECK(error_message([&] { (void)add.forall(-1); }) == "kernel 'add': forall(-1): the thread count is negative");
  CHECK(error_message([&] { (void)add.forall(10, 0); }) == "kernel 'add': forall: the block size is 0");
}

TEST_CASE("kernel: t.sync() outside a kernel launch is an error, not a hang") {
  const ufx::thread t;
  CHECK(error_message([&] { t.sync(); }) == "ufx::thread::sync(): this thread is not running in a kernel launch");
}

TEST_CASE("kernel: operands on two sim devices need an explicit target") {
  if (!kernel_runnable<ufx::sim_t>()) return;
  ufx::configure_sim(ufx::sim_config{2, std::size_t{64} << 20});
  {
    auto add = ufx::kernel(add_body{}, "add");
    auto x = ufx::to_device(iota_f(10), ufx::sim.device(0));
    auto y = ufx::to_device(iota_f(10), ufx::sim.device(1));
    ufx::device_array<float, 1> out({10}, ufx::sim.device(1).space());
    const std::string msg = error_message([&] { add.forall(10)(x, y, out); });
    CHECK(msg.find("operands live on two devices (ufx::sim device 0 and ufx::sim device 1)") != std::string::npos);
    add.forall(10)(ufx::sim.device(1), x, y, out); // x is staged to device 1
    CHECK(out.to_host()(9) == 18.f);
  }
  ufx::configure_sim(ufx::sim_config{});
}

TEST_CASE("kernel: Eigen-free containers of rank 2 and scalars by value") {
  if (!kernel_runnable<ufx::host_t>()) return;
  auto axpy = ufx::kernel(
      [] UFX_HD(const ufx::thread& t, float a, ufx::ndview<const float, 2> x, ufx::ndview<float, 2> y) {
        auto [i, j] = t.grid<2>();
        if (i < y.extent(0) && j < y.extent(1)) y(i, j) += a * x(i, j);
      },
      "axpy");
  ufx::ndarray<float, 2> x({3, 5}, 2.f), y({3, 5}, 1.f);
  axpy[{{1, 1}, {4, 8}}](ufx::sim, 3, x, y); // an int converts to the float parameter
  CHECK(y(2, 4) == 7.f);
  CHECK(y(0, 0) == 7.f);
}

TEST_CASE("kernel: a ufx built without Boost.Context refuses CPU and sim launches, saying what to install") {
  auto add = ufx::kernel(add_body{}, "add");
  std::vector<float> a(8, 1.f), b(8, 2.f), c(8, 0.f);
  if (ufx::host_kernels_available()) {
    add[{1, 8}](ufx::serial, a, b, c);
    CHECK(c[7] == 3.f);
  } else {
    for (const std::string where : {"ufx::serial", "ufx::host", "ufx::sim device 0"}) {
      CAPTURE(where);
      const std::string msg = error_message([&] {
        if (where == "ufx::serial") add[{1, 8}](ufx::serial, a, b, c);
        else if (where == "ufx::host") add[{1, 8}](ufx::host, a, b, c);
        else add[{1, 8}](ufx::sim, a, b, c);
      });
      CHECK(msg ==
            "kernel 'add' on " + where +
                ": ufx was built without Boost.Context (Debian's libboost-context-dev), which runs a raw kernel's "
                "block threads on the host; install it and rebuild ufx");
    }
    CHECK(c[7] == 0.f); // nothing written
  }
}
