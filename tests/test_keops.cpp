// Reductions over broadcast operands without materialising them (KeOps's job) and ufx::logsumexp,
// on every target: the Gaussian-kernel sum sum_j exp(-|x_i - y_j|^2 / s) over (n, 1) and (m)
// operands of point structs, in O(n + m) device memory; logsumexp against a double reference,
// its special values (empty, -inf, +inf, NaN, values whose exp overflows), axes, keepdims, out, and
// its transform form.
#include "common.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <tuple>
#include <vector>

#include <ufx/reduce.hpp>

using ufx_test::error_message;

namespace {

struct pt {
  float x, y, z;
};
using arr3 = std::array<float, 3>;

/// exp(-|a - b|^2 * inv_s) for point structs and for std::array<float, 3>.
struct gauss {
  float inv_s;
  UFX_HD float operator()(const pt& a, const pt& b) const {
    const float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
    return ::expf(-(dx * dx + dy * dy + dz * dz) * inv_s);
  }
  UFX_HD float operator()(const arr3& a, const arr3& b) const {
    const float dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return ::expf(-(dx * dx + dy * dy + dz * dz) * inv_s);
  }
};

/// -|a - b|^2 * inv_s: the exponent of the Gaussian kernel (logsumexp's transform form).
struct neg_sqdist {
  float inv_s;
  UFX_HD float operator()(const pt& a, const pt& b) const {
    const float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
    return -(dx * dx + dy * dy + dz * dz) * inv_s;
  }
};

/// |a - b|^2 in float (a map whose sum has no closed form to drift towards).
struct sqdist_f {
  UFX_HD float operator()(const pt& a, const pt& b) const {
    const float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
    return dx * dx + dy * dy + dz * dz;
  }
};
/// A user's operators with an identity: the fold seeds with op(identity, x).
struct user_plus {
  UFX_HD float operator()(float a, float b) const { return a + b; }
};
struct user_max {
  UFX_HD float operator()(float a, float b) const { return a > b ? a : b; }
};

struct negate_f {
  template <class T>
  UFX_HD T operator()(T a) const {
    return -a;
  }
};
struct add_scaled_f {
  UFX_HD double operator()(double a, double b) const { return a + 0.5 * b; }
};

std::vector<pt> random_points(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  std::vector<pt> v(n);
  for (auto& p : v) p = {d(gen), d(gen), d(gen)};
  return v;
}

double sqdist(const pt& a, const pt& b) {
  const double dx = double(a.x) - b.x, dy = double(a.y) - b.y, dz = double(a.z) - b.z;
  return dx * dx + dy * dy + dz * dz;
}

/// The hand loop: r_i = sum_j exp(-|x_i - y_j|^2 * inv_s), in double.
std::vector<double> gauss_rows(const std::vector<pt>& x, const std::vector<pt>& y, double inv_s) {
  std::vector<double> r(x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    for (const pt& b : y) r[i] += std::exp(-sqdist(x[i], b) * inv_s);
  return r;
}

/// log(sum(exp(v))), stable, the sum compensated (Neumaier): the reference, in double.
double lse_ref(const std::vector<double>& v) {
  if (v.empty()) return -std::numeric_limits<double>::infinity();
  double m = -std::numeric_limits<double>::infinity();
  for (double e : v) {
    if (e != e) return e;
    m = e > m ? e : m;
  }
  if (std::isinf(m)) return m;
  double s = 0, c = 0;
  for (double e : v) {
    const double t = std::exp(e - m), u = s + t;
    c += std::abs(s) >= t ? (s - u) + t : (t - u) + s;
    s = u;
  }
  return m + std::log(s + c);
}

template <class C>
bool close_rel(const C& got, const std::vector<double>& want, double tol) {
  bool ok = static_cast<std::size_t>(got.size()) == want.size();
  for (std::size_t i = 0; ok && i < want.size(); ++i)
    ok = std::abs(double(got.data()[i]) - want[i]) <= tol * std::abs(want[i]) + 1e-30;
  return ok;
}

} // namespace

// ---- the Gaussian-kernel sum over broadcast point operands

TEST_CASE_TEMPLATE("the Gaussian-kernel sum over (n,1) and (m) point operands equals the hand loop", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const float inv_s = 1.f / 0.3f;
  for (const auto& nm : {std::pair<int, int>{257, 389}, {389, 257}, {300, 1}, {1, 300}, {1000, 613}}) {
    const int n = nm.first, m = nm.second; // CAPTURE takes no structured binding (clang 14)
    CAPTURE(n);
    CAPTURE(m);
    const auto xs = random_points(std::size_t(n), 7), ys = random_points(std::size_t(m), 8);
    const auto ref = gauss_rows(xs, ys, inv_s);
    const ufx::ndview<const pt, 2> x(xs.data(), {n, 1}); // (n, 1): broadcast against y's (m) to (n, m)

    // per x: axis 1 (the reduced dimension innermost)
    const auto r = ufx::transform_reduce(Target{}, x, ys, gauss{inv_s}, ufx::plus{}, 0.f, ufx::axis{1});
    REQUIRE(r.shape() == std::array<ufx::index_t, 1>{n});
    CHECK(close_rel(r, ref, 2e-5));

    // keepdims and out into an existing vector (a host destination written from any target)
    const auto k = ufx::transform_reduce(Target{}, x, ys, gauss{inv_s}, ufx::plus{}, 0.f, ufx::axis{1}, ufx::keepdims);
    REQUIRE(k.shape() == std::array<ufx::index_t, 2>{n, 1});
    std::vector<float> dst(static_cast<std::size_t>(n));
    ufx::transform_reduce(Target{}, x, ys, gauss{inv_s}, ufx::plus{}, 0.f, ufx::axis{1}, ufx::out(dst));
    CHECK(close_rel(dst, ref, 2e-5));
    bool same = true;
    for (int i = 0; i < n; ++i) same = same && k(i, 0) == r(i) && dst[std::size_t(i)] == r(i);
    CHECK(same);

    // per y: axis 0 (a kept dimension innermost: rows of outputs at a time on the CPU)
    const auto c = ufx::transform_reduce(Target{}, x, ys, gauss{inv_s}, ufx::plus{}, 0.f, ufx::axis{0});
    CHECK(close_rel(c, gauss_rows(ys, xs, inv_s), 2e-5));

    // std::array<float, 3> elements, both operands (n, 1) and (1, m) ndarrays
    ufx::ndarray<arr3, 2> xa({n, 1}), ya({1, m});
    for (int i = 0; i < n; ++i) xa(i, 0) = {xs[std::size_t(i)].x, xs[std::size_t(i)].y, xs[std::size_t(i)].z};
    for (int j = 0; j < m; ++j) ya(0, j) = {ys[std::size_t(j)].x, ys[std::size_t(j)].y, ys[std::size_t(j)].z};
    const auto ra = ufx::transform_reduce(Target{}, xa, ya, gauss{inv_s}, ufx::plus{}, 0.f, ufx::axis{1});
    same = true;
    for (int i = 0; i < n; ++i) same = same && ra(i) == r(i); // the same operands in the same order
    CHECK(same);
  }
}

TEST_CASE_TEMPLATE("a broadcast operand read once per run gives bitwise the strided run's result", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  // y contiguous: x steps by 0 and y by 1 along the run (x read once per run); y every other element
  // of a longer array: the strided run. The same positions in the same pairwise order.
  const int n = 37, m = 4099;
  const auto xs = random_points(static_cast<std::size_t>(n), 1), ys = random_points(static_cast<std::size_t>(m), 2);
  std::vector<pt> y2(2 * static_cast<std::size_t>(m));
  for (std::size_t j = 0; j < ys.size(); ++j) y2[2 * j] = ys[j], y2[2 * j + 1] = {1e9f, 1e9f, 1e9f};
  const ufx::ndview<const pt, 2> x(xs.data(), {n, 1});
  const ufx::ndview<const pt, 1> y_unit(ys.data(), {m}), y_strided(y2.data(), {m}, {2});
  for (float inv_s : {1.f, 0.01f}) {
    const auto a = ufx::transform_reduce(Target{}, x, y_unit, gauss{inv_s}, ufx::plus{}, 0.f, ufx::axis{1});
    const auto b = ufx::transform_reduce(Target{}, x, y_strided, gauss{inv_s}, ufx::plus{}, 0.f, ufx::axis{1});
    const auto c = ufx::transform_reduce(Target{}, x, y_unit, gauss{inv_s}, ufx::plus{}, 0.f, ufx::axis{0});
    const auto d = ufx::transform_reduce(Target{}, x, y_strided, gauss{inv_s}, ufx::plus{}, 0.f, ufx::axis{0});
    bool same = true;
    for (int i = 0; i < n; ++i) same = same && a(i) == b(i);
    for (int j = 0; j < m; ++j) same = same && c(j) == d(j);
    CHECK(same);
    CHECK(close_rel(a, gauss_rows(xs, ys, inv_s), 2e-5));
  }
}

TEST_CASE_TEMPLATE("the Gaussian-kernel sum of device point arrays stays on the device", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  if constexpr (!ufx::is_device_target_v<Target>) return;
  else {
    const int n = 333, m = 517;
    const auto xs = random_points(std::size_t(n), 3), ys = random_points(std::size_t(m), 4);
    const auto dx = ufx::to_device(ufx::ndview<const pt, 2>(xs.data(), {n, 1}), Target{});
    const auto dy = ufx::to_device(ys, Target{});
    const auto r = ufx::transform_reduce(dx, dy, gauss{2.f}, ufx::plus{}, 0.f, ufx::axis{1});
    static_assert(std::is_same_v<decltype(r), const ufx::device_array<float, 1>>);
    CHECK(close_rel(r.to_host(), gauss_rows(xs, ys, 2.0), 2e-5));
  }
}

TEST_CASE("the Gaussian-kernel sum needs O(n + m) device memory: 4096 x 4096 on a 4 MiB sim device") {
  const ufx::sim_config saved = ufx::sim_configuration();
  ufx::configure_sim(ufx::sim_config{1, std::size_t{4} << 20});
  {
    // the (n, m) matrix would be 64 MiB; the points are 48 KiB each, the partials at most 2^17
    // accumulators (0.5 MiB of float sums, 1 MiB of logsumexp's (max, sum) pairs)
    const int n = 4096, m = 4096;
    const auto xs = random_points(std::size_t(n), 5), ys = random_points(std::size_t(m), 6);
    const auto ref = gauss_rows(xs, ys, 4.0);
    const auto before = ufx::detail::sim_stats();
    {
      const auto dx = ufx::to_device(ufx::ndview<const pt, 2>(xs.data(), {n, 1}), ufx::sim);
      const auto dy = ufx::to_device(ys, ufx::sim);
      const auto r = ufx::transform_reduce(dx, dy, gauss{4.f}, ufx::plus{}, 0.f, ufx::axis{1});
      CHECK(close_rel(r.to_host(), ref, 2e-5));
      const auto l = ufx::logsumexp(dx, dy, neg_sqdist{4.f}, ufx::axis{1});
      std::vector<double> lref(ref.size());
      for (std::size_t i = 0; i < ref.size(); ++i) lref[i] = std::log(ref[i]);
      CHECK(close_rel(l.to_host(), lref, 2e-5));
    }
    // host operands on the small device: staged (in chunks where they do not fit), the same values
    const auto h = ufx::transform_reduce(ufx::sim, ufx::ndview<const pt, 2>(xs.data(), {n, 1}), ys, gauss{4.f},
                                         ufx::plus{}, 0.f, ufx::axis{1});
    CHECK(close_rel(h, ref, 2e-5));
    // logsumexp of host data 4x the device: chunks, their partials combined pairwise (4194 whole
    // cycles of 300, 300.5, ..., 799.5; the last 304 elements add less than exp(-348) each)
    std::vector<float> big(std::size_t{1} << 22);
    for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<float>(i % 1000) * 0.5f + 300.f;
    const auto staged = ufx::detail::sim_stats().host_to_device;
    const float whole = ufx::logsumexp(ufx::sim, big);
    CHECK(ufx::detail::sim_stats().host_to_device - staged >= 4); // in chunks
    CHECK(std::abs(whole - ufx::logsumexp(ufx::serial, big)) <= 2e-6f * whole);
    CHECK(std::abs(double(whole) - (799.5 + std::log(4194 / (1 - std::exp(-0.5))))) < 1e-3);
    CHECK(ufx::detail::sim_stats().live_allocations == before.live_allocations);
  }
  ufx::configure_sim(saved);
}

// ---- the tiled device path: tiles of y in shared memory, reused by a block of outputs

namespace {
/// Tiled reductions launched so far (every device target counts its launches on the host).
long tiled_launches() { return ufx::detail::testing().tiled_reduce.launches.load(); }

template <class A, class B>
bool close_to(const A& got, const B& want, double tol) {
  bool ok = got.size() == static_cast<ufx::index_t>(want.size());
  for (ufx::index_t i = 0; ok && i < got.size(); ++i)
    ok = std::abs(double(got.data()[i]) - double(want.data()[i])) <= tol * std::abs(double(want.data()[i])) + 1e-30;
  return ok;
}
} // namespace

TEST_CASE_TEMPLATE("the tiled device reduction equals ufx::serial's, and is taken only where it applies", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  if constexpr (!ufx::is_device_target_v<Target>) return;
  else {
    const float inv_s = 1.f / 0.3f;
    // n, m not multiples of the block (256) or of the fold's 8; m = 100003: 391 tiles, a tree of
    // 256 and a rest; n = 300, m = 100003 splits each output's tiles among blocks
    for (const auto& nm :
         {std::pair<int, int>{1000, 777}, {1, 5000}, {4097, 3}, {255, 1000}, {256, 1}, {300, 100003}}) {
      const int n = nm.first, m = nm.second; // CAPTURE takes no structured binding (clang 14)
      CAPTURE(n);
      CAPTURE(m);
      // outputs enough to fill a block, and positions to tile (an extent-1 reduced axis leaves every
      // input constant along the reduction: nothing to tile)
      const bool tiled = n >= 256 && m > 1, tiled0 = m >= 256 && n > 1;
      const auto xs = random_points(std::size_t(n), 21), ys = random_points(std::size_t(m), 22);
      const ufx::ndview<const pt, 2> x(xs.data(), {n, 1});
      const auto dx = ufx::to_device(x, Target{});
      const auto dy = ufx::to_device(ys, Target{});

      long before = tiled_launches();
      const auto g = ufx::transform_reduce(dx, dy, gauss{inv_s}, ufx::plus{}, 0.f, ufx::axis{1}).to_host();
      CHECK(tiled_launches() - before == (tiled ? 1 : 0));
      CHECK(close_to(g, ufx::transform_reduce(ufx::serial, x, ys, gauss{inv_s}, ufx::plus{}, 0.f, ufx::axis{1}), 1e-5));
      CHECK(close_rel(g, gauss_rows(xs, ys, inv_s), 2e-5));

      // the squared distances' sum (growing with m, no cancellation to hide an error), and the
      // other axis: y is then the side constant along the reduced axis, x read in tiles
      before = tiled_launches();
      const auto d = ufx::transform_reduce(dx, dy, sqdist_f{}, ufx::plus{}, 0.f, ufx::axis{1}).to_host();
      const auto d0 = ufx::transform_reduce(dx, dy, sqdist_f{}, ufx::plus{}, 0.f, ufx::axis{0}).to_host();
      CHECK(tiled_launches() - before == (tiled ? 1 : 0) + (tiled0 ? 1 : 0));
      CHECK(close_to(d, ufx::transform_reduce(ufx::serial, x, ys, sqdist_f{}, ufx::plus{}, 0.f, ufx::axis{1}), 1e-5));
      CHECK(close_to(d0, ufx::transform_reduce(ufx::serial, x, ys, sqdist_f{}, ufx::plus{}, 0.f, ufx::axis{0}), 1e-5));

      // a user's operator with an identity (seeded with op(identity, x)): a sum, and a max (exact)
      before = tiled_launches();
      const auto u = ufx::transform_reduce(dx, dy, gauss{inv_s}, user_plus{}, 0.f, ufx::axis{1}).to_host();
      const auto mx = ufx::transform_reduce(dx, dy, sqdist_f{}, user_max{}, -1.f, ufx::axis{1}).to_host();
      CHECK(tiled_launches() - before == (tiled ? 2 : 0));
      CHECK(close_to(u, g, 1e-5));
      // the max picks the same element on every target; its value is sqdist_f as the target's
      // compiler built it: bitwise serial's on the sim (host code), and on ufx::cuda within the
      // roundings nvcc's FMA contraction of dx*dx + dy*dy + dz*dz moves (each way of evaluating
      // these nonnegative terms is within 3 u of the exact value, so the two within 6 u, u = 2^-24;
      // docs/vectorize.md, "Across targets")
      const auto mx_ref = ufx::transform_reduce(ufx::serial, x, ys, sqdist_f{}, user_max{}, -1.f, ufx::axis{1});
      bool same = true;
      for (int i = 0; i < n; ++i) {
        if constexpr (std::is_same_v<Target, ufx::cuda_t>)
          same = same && std::abs(mx(i) - mx_ref(i)) <= 6 * 0x1p-24f * mx_ref(i);
        else same = same && mx(i) == mx_ref(i);
      }
      CHECK(same);

      // logsumexp of the kernel's exponent: the tiled path with its (max, sum) accumulator
      before = tiled_launches();
      const auto l = ufx::logsumexp(dx, dy, neg_sqdist{inv_s}, ufx::axis{1}).to_host();
      CHECK(tiled_launches() - before == (tiled ? 1 : 0));
      const auto l_ref = ufx::logsumexp(ufx::serial, x, ys, neg_sqdist{inv_s}, ufx::axis{1});
      bool ok = true;
      for (int i = 0; i < n; ++i) ok = ok && std::abs(l(i) - l_ref(i)) <= 2e-6f * std::max(1.f, std::abs(l_ref(i)));
      CHECK(ok);

      // keepdims, out, and the per-lane path (switched off) within the same tolerance
      const auto k =
          ufx::transform_reduce(dx, dy, gauss{inv_s}, ufx::plus{}, 0.f, ufx::axis{1}, ufx::keepdims).to_host();
      REQUIRE(k.shape() == std::array<ufx::index_t, 2>{n, 1});
      std::vector<float> dst(static_cast<std::size_t>(n));
      ufx::transform_reduce(Target{}, x, ys, gauss{inv_s}, ufx::plus{}, 0.f, ufx::axis{1}, ufx::out(dst));
      ufx::detail::testing().tiled_reduce.enabled = false;
      before = tiled_launches();
      const auto lanes = ufx::transform_reduce(dx, dy, gauss{inv_s}, ufx::plus{}, 0.f, ufx::axis{1}).to_host();
      ufx::detail::testing().tiled_reduce.enabled = true;
      CHECK(tiled_launches() == before);
      same = true;
      for (int i = 0; i < n; ++i) same = same && k(i, 0) == g(i) && dst[std::size_t(i)] == g(i);
      CHECK(same);
      CHECK(close_to(lanes, g, 1e-5));
    }
  }
}

TEST_CASE("the tiled reduction on a sim stream is queued in the stream's order") {
  const int n = 700, m = 3001;
  const auto xs = random_points(std::size_t(n), 23), ys = random_points(std::size_t(m), 24);
  const auto dx = ufx::to_device(ufx::ndview<const pt, 2>(xs.data(), {n, 1}), ufx::sim);
  const auto dy = ufx::to_device(ys, ufx::sim);
  const auto whole = ufx::transform_reduce(dx, dy, gauss{2.f}, ufx::plus{}, 0.f, ufx::axis{1}).to_host();
  ufx::stream s(ufx::sim);
  ufx::device_array<float, 1> r({n}, ufx::sim);
  const long before = tiled_launches();
  ufx::transform_reduce(ufx::sim.on(s), dx, dy, gauss{2.f}, ufx::plus{}, 0.f, ufx::axis{1}, ufx::out(r));
  ufx::transform_reduce(ufx::sim.on(s), dx, dy, sqdist_f{}, ufx::plus{}, 0.f, ufx::axis{1},
                        ufx::out(r)); // after the first
  CHECK(tiled_launches() - before == 2);
  s.synchronize();
  CHECK(close_to(r.to_host(),
                 ufx::transform_reduce(ufx::serial, ufx::ndview<const pt, 2>(xs.data(), {n, 1}), ys, sqdist_f{},
                                       ufx::plus{}, 0.f, ufx::axis{1}),
                 1e-5));
  ufx::transform_reduce(ufx::sim.on(s), dx, dy, gauss{2.f}, ufx::plus{}, 0.f, ufx::axis{1}, ufx::out(r));
  s.synchronize();
  const auto h = r.to_host();
  bool same = true;
  for (int i = 0; i < n; ++i) same = same && h(i) == whole(i);
  CHECK(same);
}

namespace {
struct pt3d {
  double x, y, z;
};
/// |a - b|^2 * w + c for double points, a third (scalar) operand.
struct sqdist_d {
  UFX_HD double operator()(const pt3d& a, const pt3d& b, double w) const {
    const double dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
    return (dx * dx + dy * dy + dz * dz) * w;
  }
};
long blocked_launches() { return ufx::detail::testing().tiled_blocked_launches.load(); }
} // namespace

TEST_CASE_TEMPLATE("several outputs per thread of the tiled reduction change no bit of any output", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  if constexpr (!ufx::is_device_target_v<Target>) return;
  else {
    // float points with a float sum: 4 outputs a thread; double points with a double sum and a scalar
    // operand: 2 (ufx::detail::tile_outputs_per_thread); each output's fold is the same, so the results
    // are bitwise those of one output a thread, on the sim and on ufx::cuda alike
    static_assert(
        ufx::detail::tile_outputs_per_thread<ufx::detail::reduce_body<
            float, gauss, ufx::plus, ufx::detail::array_acc<const pt>, ufx::detail::array_acc<const pt>>>::value == 4);
    static_assert(
        ufx::detail::tile_outputs_per_thread<
            ufx::detail::reduce_body<double, sqdist_d, ufx::plus, ufx::detail::array_acc<const pt3d>,
                                     ufx::detail::array_acc<const pt3d>, ufx::detail::scalar_acc<double>>>::value == 2);
    auto& state = ufx::detail::testing();
    // n = 4100: four full blocks of 4 x 256 outputs and 4 outputs in a fifth; m = 1203: 4 tiles and a
    // short one, runs of 8 and a rest; n = 4000: too few outputs for 4 a thread (one each)
    for (const auto& nm : {std::pair<int, int>{4100, 1203}, {4000, 517}, {2100, 300}}) {
      const int n = nm.first, m = nm.second; // CAPTURE takes no structured binding (clang 14)
      CAPTURE(n);
      CAPTURE(m);
      const auto xs = random_points(std::size_t(n), 31), ys = random_points(std::size_t(m), 32);
      const auto dx = ufx::to_device(ufx::ndview<const pt, 2>(xs.data(), {n, 1}), Target{});
      const auto dy = ufx::to_device(ys, Target{});
      std::vector<pt3d> xd(xs.size()), yd(ys.size());
      for (std::size_t i = 0; i < xs.size(); ++i) xd[i] = {xs[i].x, xs[i].y, xs[i].z};
      for (std::size_t i = 0; i < ys.size(); ++i) yd[i] = {ys[i].x, ys[i].y, ys[i].z};
      const auto ddx = ufx::to_device(ufx::ndview<const pt3d, 2>(xd.data(), {n, 1}), Target{});
      const auto ddy = ufx::to_device(yd, Target{});
      auto run = [&] {
        return std::tuple{ufx::transform_reduce(dx, dy, gauss{2.f}, ufx::plus{}, 0.f, ufx::axis{1}).to_host(),
                          ufx::logsumexp(dx, dy, neg_sqdist{2.f}, ufx::axis{1}).to_host(),
                          // the other axis: x read in tiles, one output per y (m of them)
                          ufx::transform_reduce(dx, dy, sqdist_f{}, ufx::plus{}, 0.f, ufx::axis{0}).to_host(),
                          ufx::transform_reduce(ddx, ddy, 0.5, sqdist_d{}, ufx::plus{}, 0.0, ufx::axis{1}).to_host()};
      };
      const long launches = tiled_launches(), blocked = blocked_launches();
      const auto many = run();
      CHECK(tiled_launches() - launches == 4);
      // float: 4 a thread from 4 * 4 * 256 outputs on; double: 2 a thread from 4 * 2 * 256
      CHECK(blocked_launches() - blocked == (n >= 4096 ? 2 : 0) + (m >= 4096 ? 1 : 0) + (n >= 2048 ? 1 : 0));
      state.tiled_outputs_per_thread = 1;
      const long blocked_one = blocked_launches();
      const auto one = run();
      state.tiled_outputs_per_thread = 0;
      CHECK(blocked_launches() == blocked_one);
      auto same = [](const auto& a, const auto& b) {
        bool ok = a.size() == b.size();
        for (ufx::index_t i = 0; ok && i < a.size(); ++i)
          ok = std::memcmp(&a.data()[i], &b.data()[i], sizeof(a.data()[i])) == 0;
        return ok;
      };
      CHECK(same(std::get<0>(many), std::get<0>(one)));
      CHECK(same(std::get<1>(many), std::get<1>(one)));
      CHECK(same(std::get<2>(many), std::get<2>(one)));
      CHECK(same(std::get<3>(many), std::get<3>(one)));
      // and the values: the double sum against a double loop
      std::vector<double> want(std::size_t(n), 0.0);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < m; ++j) want[std::size_t(i)] += sqdist(xs[std::size_t(i)], ys[std::size_t(j)]) * 0.5;
      CHECK(close_rel(std::get<3>(many), want, 1e-12));
      CHECK(close_rel(std::get<0>(many), gauss_rows(xs, ys, 2.0), 2e-5));
    }
  }
}

TEST_CASE("the sim's tiled body checks the 16-byte alignment of the runs ufx::cuda reads in 16-byte loads") {
  // runs of 8 three-float points (96 bytes) are 16-byte loads on cuda; the sim reads them element by
  // element and throws where such a load would fault, so the cases above, which pass, show every run
  // they read was aligned; runs of 8 double points (192 bytes) are read element by element on both
  static_assert(ufx::detail::tile_run_vector<pt> && !ufx::detail::tile_run_vector<pt3d>);
  alignas(16) pt tile[24] = {};
  tile[9].y = 5.f;
  CHECK(ufx::detail::hold_y<pt>{tile}.run(8).at(0, 1).y == 5.f);
  CHECK_THROWS_WITH_AS(ufx::detail::hold_y<pt>{tile + 1}.run(8),
                       "ufx: the tiled reduction's run of 8 tile elements of 12 bytes at position 8 starts 12 bytes "
                       "past a 16-byte boundary, which ufx::cuda reads in 16-byte loads (a ufx bug: please report it)",
                       ufx::kernel_error);
  alignas(16) pt3d dtile[17] = {};
  dtile[9].y = 6.0;
  CHECK(ufx::detail::hold_y<pt3d>{dtile + 1}.run(8).at(0, 0).y == 6.0);
}

// ---- logsumexp

TEST_CASE_TEMPLATE("logsumexp of float and double vectors of every size matches a double reference", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  std::mt19937 gen(11);
  std::normal_distribution<double> nd(0.0, 30.0);
  for (int n : {1, 2, 3, 31, 97, 513, 4099, 65537, 300007}) {
    CAPTURE(n);
    std::vector<double> d(static_cast<std::size_t>(n)), fd(static_cast<std::size_t>(n));
    std::vector<float> f(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < d.size(); ++i) {
      d[i] = nd(gen) + 500.0; // exp(500) overflows float and nearly double
      f[i] = static_cast<float>(d[i]);
      fd[i] = f[i];
    }
    const double rd = ufx::logsumexp(Target{}, d);
    const float rf = ufx::logsumexp(Target{}, f);
    static_assert(std::is_same_v<decltype(ufx::logsumexp(Target{}, f)), float>);
    CHECK(std::abs(rd - lse_ref(d)) <= 1e-13 * std::abs(lse_ref(d)));
    CHECK(std::abs(double(rf) - lse_ref(fd)) <= 4e-7 * std::abs(lse_ref(fd)));
    if constexpr (!ufx::is_device_target_v<Target>) CHECK(rf == ufx::logsumexp(ufx::serial, f)); // one pairwise order
  }
}

TEST_CASE_TEMPLATE("logsumexp does not overflow, and keeps NumPy's special values", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(ufx::logsumexp(Target{}, std::vector<float>{1000.f, 1001.f}) ==
        doctest::Approx(1001.3132616875183).epsilon(1e-7));
  CHECK(ufx::logsumexp(Target{}, std::vector<double>{1000, 1001}) ==
        doctest::Approx(1001.3132616875183).epsilon(1e-15));
  CHECK(ufx::logsumexp(Target{}, std::vector<double>{-1000, -1001}) ==
        doctest::Approx(-999.6867383124817).epsilon(1e-15));
  CHECK(ufx::logsumexp(Target{}, std::vector<float>{0.f}) == 0.f);
  CHECK(ufx::logsumexp(Target{}, std::vector<float>(1000, 0.f)) == doctest::Approx(std::log(1000.0)).epsilon(1e-6));
  // empty: -inf (scipy.special.logsumexp([]) is -inf), also along an axis of extent 0
  CHECK(ufx::logsumexp(Target{}, std::vector<float>{}) == -inf);
  const auto e = ufx::logsumexp(Target{}, ufx::ndarray<double, 2>({3, 0}), ufx::axis{1});
  CHECK(e.shape() == std::array<ufx::index_t, 1>{3});
  CHECK((e(0) == -INFINITY && e(1) == -INFINITY && e(2) == -INFINITY));
  // -inf terms add nothing; all -inf is -inf; a +inf is +inf (also beside -inf); a NaN is NaN
  CHECK(ufx::logsumexp(Target{}, std::vector<float>{-inf, 0.f, -inf}) == 0.f);
  CHECK(ufx::logsumexp(Target{}, std::vector<float>(700, -inf)) == -inf);
  CHECK(ufx::logsumexp(Target{}, std::vector<float>{1.f, inf, 2.f}) == inf);
  CHECK(ufx::logsumexp(Target{}, std::vector<float>{-inf, inf, inf}) == inf);
  std::vector<float> big(5000, 3.f);
  big[4321] = inf;
  CHECK(ufx::logsumexp(Target{}, big) == inf);
  big[17] = nan;
  CHECK(std::isnan(ufx::logsumexp(Target{}, big)));
  CHECK(std::isnan(ufx::logsumexp(Target{}, std::vector<float>{-inf, nan})));
  CHECK(std::isnan(ufx::logsumexp(Target{}, std::vector<double>{nan, inf})));
  // integers and bool compute in double, as np.exp of them gives float64
  const auto ri = ufx::logsumexp(Target{}, std::vector<int>{1, 2, 3});
  static_assert(std::is_same_v<decltype(ri), const double>);
  CHECK(ri == doctest::Approx(3.40760596444438).epsilon(1e-14));
  CHECK(ufx::logsumexp(Target{}, std::vector<std::int64_t>{700, 800}) ==
        doctest::Approx(800 + std::log1p(std::exp(-100.0))));
}

TEST_CASE_TEMPLATE("logsumexp along every axis of a rank-3 array, with keepdims and out", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const ufx::index_t s0 = 5, s1 = 67, s2 = 131;
  ufx::ndarray<double, 3> a({s0, s1, s2});
  std::mt19937 gen(3);
  std::normal_distribution<double> nd(900.0, 50.0);
  for (ufx::index_t i = 0; i < a.size(); ++i) a.data()[i] = nd(gen);
  // the reference of one axis set, in C order of the keepdims shape
  auto reference = [&](unsigned mask) {
    const ufx::index_t k0 = (mask & 1) ? 1 : s0, k1 = (mask & 2) ? 1 : s1, k2 = (mask & 4) ? 1 : s2;
    std::vector<std::vector<double>> groups(std::size_t(k0 * k1 * k2));
    for (ufx::index_t i = 0; i < s0; ++i)
      for (ufx::index_t j = 0; j < s1; ++j)
        for (ufx::index_t k = 0; k < s2; ++k) {
          const ufx::index_t o = (((mask & 1) ? 0 : i) * k1 + ((mask & 2) ? 0 : j)) * k2 + ((mask & 4) ? 0 : k);
          groups[std::size_t(o)].push_back(a(i, j, k));
        }
    std::vector<double> r;
    for (const auto& g : groups) r.push_back(lse_ref(g));
    return r;
  };
  auto check = [&](unsigned mask, auto axes) {
    CAPTURE(mask);
    const auto ref = reference(mask);
    const auto r = ufx::logsumexp(Target{}, a, axes);
    const auto k = ufx::logsumexp(Target{}, a, axes, ufx::keepdims);
    static_assert(std::remove_cvref_t<decltype(k)>::rank == 3);
    CHECK(close_rel(std::vector<double>(r.data(), r.data() + r.size()), ref, 1e-14));
    CHECK(close_rel(std::vector<double>(k.data(), k.data() + k.size()), ref, 1e-14));
    ufx::ndarray<double, 3> dst(k.shape());
    ufx::logsumexp(Target{}, a, axes, ufx::keepdims, ufx::out(dst));
    CHECK(close_rel(std::vector<double>(dst.data(), dst.data() + dst.size()), ref, 1e-14));
  };
  check(1, ufx::axis{0});
  check(2, ufx::axis{1});
  check(4, ufx::axis{-1});
  check(3, ufx::axis{0, 1});
  check(5, ufx::axis{2, 0});
  check(6, ufx::axis{1, 2});
  const double all = ufx::logsumexp(Target{}, a);
  CHECK(all == doctest::Approx(double(reference(7)[0])).epsilon(1e-14));
  CHECK(ufx::logsumexp(Target{}, a, ufx::axis{0, 1, 2}) == all);
  // float32 along axis 0 of a matrix (outputs innermost)
  ufx::ndarray<float, 2> mf({1000, 37});
  for (ufx::index_t i = 0; i < mf.size(); ++i) mf.data()[i] = static_cast<float>(nd(gen));
  const auto cf = ufx::logsumexp(Target{}, mf, ufx::axis{0});
  std::vector<double> cref;
  for (ufx::index_t j = 0; j < 37; ++j) {
    std::vector<double> col;
    for (ufx::index_t i = 0; i < 1000; ++i) col.push_back(mf(i, j));
    cref.push_back(lse_ref(col));
  }
  CHECK(close_rel(std::vector<double>(cf.data(), cf.data() + cf.size()), cref, 4e-7));
  CHECK_THROWS_AS(ufx::logsumexp(Target{}, a, ufx::axis{3}), ufx::shape_error);
}

TEST_CASE_TEMPLATE("logsumexp of a map over broadcast operands: KeOps's log-sum-exp of a Gaussian kernel", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const int n = 211, m = 347;
  const auto xs = random_points(std::size_t(n), 9), ys = random_points(std::size_t(m), 10);
  const ufx::ndview<const pt, 2> x(xs.data(), {n, 1});
  // a narrow kernel: most exp(-d^2 / s) underflow float, and a naive log(sum(exp)) is -inf for many rows
  for (float inv_s : {1.f, 1e4f}) {
    CAPTURE(inv_s);
    std::vector<double> ref(static_cast<std::size_t>(n));
    int naive_inf = 0;
    for (int i = 0; i < n; ++i) {
      std::vector<double> v;
      float naive = 0;
      for (const pt& b : ys) {
        v.push_back(-sqdist(xs[std::size_t(i)], b) * inv_s);
        naive += std::exp(neg_sqdist{inv_s}(xs[std::size_t(i)], b));
      }
      ref[std::size_t(i)] = lse_ref(v);
      naive_inf += std::isinf(std::log(naive)) ? 1 : 0;
    }
    if (inv_s > 100) CHECK(naive_inf > 0);
    const auto r = ufx::logsumexp(Target{}, x, ys, neg_sqdist{inv_s}, ufx::axis{1});
    REQUIRE(r.shape() == std::array<ufx::index_t, 1>{n});
    bool ok = true;
    for (int i = 0; i < n; ++i)
      ok = ok && std::abs(r(i) - ref[std::size_t(i)]) <= 2e-5 * std::max(1.0, std::abs(ref[std::size_t(i)]));
    CHECK(ok);
  }
  // a map of one operand, and of an array and a scalar
  const std::vector<double> v{1000, 1001, 999};
  CHECK(ufx::logsumexp(Target{}, v, negate_f{}) == doctest::Approx(-999 + std::log1p(std::exp(-1.0) + std::exp(-2.0))));
  CHECK(ufx::logsumexp(Target{}, v, 2.0, add_scaled_f{}) == doctest::Approx(ufx::logsumexp(Target{}, v) + 1.0));
  CHECK_THROWS_AS(ufx::logsumexp(Target{}, v, std::vector<double>(2), add_scaled_f{}), ufx::shape_error);
}
