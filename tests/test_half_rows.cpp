// float16 rows that GCC builds take their own way (the cpu preset's g++ binary runs this file, beside cpu-asan's clang,
// whose code converts inline): a dense row's float16 operands staged through float 8 at a time with F16C inline
// (detail/body/map.hpp's row_f16c), for a typed function with float parameters and for the ufuncs whose float16 loop
// is their float loop rounded once; and a float16 sum's pairwise tree in libufx (src/half.cpp). Each must give the
// bits of element by element, on every target.
#include "common.hpp"

#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using ufx::float16;
using ufx::index_t;

// The host targets always (the rows under test are theirs: in the CUDA binary too, whose host code nvcc's g++
// compiles), and the device targets of the build.
#if defined(__CUDACC__)
#  define HALF_ROW_TARGETS ufx::serial_t, ufx::host_t, ufx::cuda_t
#else
#  define HALF_ROW_TARGETS UFX_TEST_TARGETS
#endif

namespace {
/// Same bits, or NaN where the expected value is a NaN.
bool same(float16 got, float16 want) {
  return ufx::math::isnan(want) ? ufx::math::isnan(got) : got.bits() == want.bits();
}
/// Within `ulps` float16 steps of each other (NaN only with NaN).
bool near(float16 got, float16 want, int ulps) {
  if (ufx::math::isnan(want) || ufx::math::isnan(got)) return same(got, want);
  auto key = [](float16 h) { return (h.bits() & 0x8000u) ? -static_cast<int>(h.bits() & 0x7fffu) : int(h.bits()); };
  return std::abs(key(got) - key(want)) <= ulps;
}
} // namespace

TEST_CASE_TEMPLATE("a dense row stages float16 through float 8 at a time: the bits of element by element", Target,
                   HALF_ROW_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  // a float parameter reads float16 converted 8 at a time, a float result is written back 8 at a time (F16C inline on
  // the host: detail/body/map.hpp), the last n % 8 through the same conversions, the function called once for each;
  // a float16 sum converts its blocks at once. Lengths around 8 and long ones, offsets that rotate the sum's lanes.
  const auto scaled = ufx::vectorize([] UFX_HD(float a, float b) { return (a - b) * 0.75f; }); // nothing to contract
  const auto mixed = ufx::vectorize([] UFX_HD(double a, float16 b) { return a - static_cast<double>(b); });
  for (int n : {1, 7, 8, 9, 15, 16, 17, 255, 1000, 4099, 70001}) {
    for (int off : {0, 1, 5}) {
      std::vector<float16> x(static_cast<std::size_t>(n + off)), y(x.size()), z(x.size());
      for (std::size_t i = 0; i < x.size(); ++i) {
        x[i] = float16(std::ldexp(static_cast<float>(i % 97) - 40.3f, static_cast<int>(i % 37) - 20));
        y[i] = float16(0.37f * static_cast<float>(i % 13) - 1.5f);
      }
      x[0] = float16(std::numeric_limits<float>::quiet_NaN());
      if (n > 3) x[3] = float16(65504.f), y[3] = float16(-65504.f); // overflows to -inf
      const ufx::ndview<const float16, 1> xv(x.data() + off, {n}), yv(y.data() + off, {n});
      const ufx::ndview<float16, 1> zv(z.data() + off, {n});
      std::vector<double> d(static_cast<std::size_t>(n));
      mixed(Target{}, xv, yv, ufx::out(d));
      if constexpr (std::is_same_v<Target, ufx::serial_t>) { // once an element, not for the padding of a step
        int calls = 0;
        ufx::vectorize([&calls](float a, float) {
          calls += 1;
          return a;
        })(Target{}, xv, yv, ufx::out(zv));
        REQUIRE(calls == n);
      }
      scaled(Target{}, xv, yv, ufx::out(zv));
      for (int i = 0; i < n; ++i) {
        const float a = static_cast<float>(xv(i)), b = static_cast<float>(yv(i));
        REQUIRE(zv(i).bits() == float16((a - b) * 0.75f).bits());
        const double e = static_cast<double>(a) - static_cast<double>(b);
        REQUIRE(std::bit_cast<std::uint64_t>(d[static_cast<std::size_t>(i)]) == std::bit_cast<std::uint64_t>(e));
      }
      // the sum's staged leaf against the same order element by element (a map of its own takes the unstaged leaf)
      const float16 s = ufx::sum(Target{}, yv);
      const float16 t = ufx::transform_reduce(
          Target{}, yv, [] UFX_HD(float16 h) { return h; }, ufx::plus{}, float16(0.f));
      REQUIRE(s.bits() == t.bits());
      if (n > 4) { // magnitudes 2^-20 .. 2^16: another order would give other bits
        const ufx::ndview<const float16, 1> xs(x.data() + off + 4, {n - 4});
        const float16 u = ufx::transform_reduce(
            Target{}, xs, [] UFX_HD(float16 h) { return h; }, ufx::plus{}, float16(0.f));
        REQUIRE(ufx::sum(Target{}, xs).bits() == u.bits());
      }
    }
  }
}

TEST_CASE_TEMPLATE("ufuncs on float16 arrays compute in float and round once, staged or not: every bit pattern", Target,
                   HALF_ROW_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  // all 65,536 patterns against a walk of them (NaNs, infinities, subnormals); the host stages these through float 8
  // at a time (half_in_float), which must give float16 arithmetic's bits, and must not where the result is not float16
  const index_t n = 65536 + 5;
  ufx::ndarray<float16, 1> x({n}), y({n});
  for (index_t i = 0; i < n; ++i) {
    x(i) = float16::from_bits(static_cast<std::uint16_t>(i));
    y(i) = float16::from_bits(static_cast<std::uint16_t>(i * 40503u + 977u));
  }
  auto check = [&](const char* what, const ufx::ndarray<float16, 1>& got, auto&& want, int ulps = 0) {
    index_t bad = 0, first = -1;
    for (index_t i = 0; i < n; ++i)
      if (!near(got(i), want(i), ulps)) bad += 1, first = first < 0 ? i : first;
    INFO(std::string(what) << ": first at " << first);
    CHECK(bad == 0);
  };
  check("add", ufx::add(Target{}, x, y), [&](index_t i) { return x(i) + y(i); });
  check("multiply", ufx::multiply(Target{}, x, y), [&](index_t i) { return x(i) * y(i); });
  check("divide", ufx::divide(Target{}, x, y), [&](index_t i) { return x(i) / y(i); });
  check("sqrt", ufx::sqrt(Target{}, x), [&](index_t i) { return float16(std::sqrt(static_cast<float>(x(i)))); });
  // exp: ufx::math's kernel on the host targets (the same bits), CUDA's expf on ufx::cuda (within 2 ulp of float: a
  // float16 step where that crosses a midpoint); + - * / and sqrt are correctly rounded everywhere
  check(
      "exp", ufx::exp(Target{}, x), [&](index_t i) { return float16(ufx::math::exp(static_cast<float>(x(i)))); },
      std::is_same_v<Target, ufx::cuda_t> ? 1 : 0);
  check("add of a scalar", ufx::add(Target{}, x, 1.5), [&](index_t i) { return x(i) + float16(1.5f); });
  // an int8 operand: float16 too (exact in it)
  ufx::ndarray<std::int8_t, 1> k({n});
  for (index_t i = 0; i < n; ++i) k(i) = static_cast<std::int8_t>(i * 7);
  check("add of int8", ufx::add(Target{}, x, k), [&](index_t i) { return x(i) + float16(static_cast<float>(k(i))); });
  // in place
  ufx::ndarray<float16, 1> z = x;
  ufx::add(Target{}, z, y, ufx::out(z));
  check("add in place", z, [&](index_t i) { return x(i) + y(i); });
  // into a float32 out: NumPy rounds to float16 first (the float16 loop, then the cast), so no staging here
  ufx::ndarray<float, 1> w({n});
  ufx::add(Target{}, x, y, ufx::out(w));
  index_t bad = 0;
  for (index_t i = 0; i < n; ++i) {
    const float want = static_cast<float>(x(i) + y(i));
    bad += (want != want) ? w(i) == w(i) : std::bit_cast<std::uint32_t>(w(i)) != std::bit_cast<std::uint32_t>(want);
  }
  CHECK(bad == 0);
}

TEST_CASE_TEMPLATE("the staged rows' conversions give the portable code's bits: every float16, floats around each "
                   "midpoint, NaN payloads",
                   Target, HALF_ROW_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  namespace hb = ufx::detail::half_bits;
  const auto identity = ufx::vectorize([] UFX_HD(float a) { return a; });
  // float16 -> float: an input staged through float (8 a step, and a tail of 3)
  const index_t n = 0x10000 + 3;
  std::vector<float16> h(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) h[static_cast<std::size_t>(i)] = float16::from_bits(static_cast<std::uint16_t>(i));
  std::vector<float> widened(h.size());
  identity(Target{}, h, ufx::out(widened));
  index_t bad = 0;
  for (index_t i = 0; i < n; ++i)
    bad += std::bit_cast<std::uint32_t>(widened[static_cast<std::size_t>(i)]) !=
           hb::f16_to_f32_portable(static_cast<std::uint16_t>(i));
  CHECK(bad == 0);
  // float -> float16: an output staged from float; every midpoint between float16s and the floats next to it, a
  // sample of all floats (NaNs with payloads, infinities, subnormals), a length that is not a multiple of 8
  std::vector<float> fs;
  for (std::uint64_t u = 0; u < (std::uint64_t(1) << 32); u += 4099)
    fs.push_back(std::bit_cast<float>(std::uint32_t(u)));
  for (std::uint32_t p = 0; p < 0x7c00; ++p) {
    const double lo = hb::bits_as<float>(hb::f16_to_f32_portable(static_cast<std::uint16_t>(p)));
    const double hi =
        p + 1 == 0x7c00 ? 65520.0 : hb::bits_as<float>(hb::f16_to_f32_portable(static_cast<std::uint16_t>(p + 1)));
    const std::uint32_t mid = std::bit_cast<std::uint32_t>(static_cast<float>((lo + hi) / 2));
    for (std::uint32_t k = mid - 2; k <= mid + 2; ++k) {
      fs.push_back(std::bit_cast<float>(k));
      fs.push_back(-std::bit_cast<float>(k));
    }
  }
  fs.resize(fs.size() - fs.size() % 8 + 5);
  std::vector<float16> narrowed(fs.size());
  identity(Target{}, fs, ufx::out(narrowed));
  bad = 0;
  for (std::size_t i = 0; i < fs.size(); ++i) bad += narrowed[i].bits() != hb::f32_to_f16_portable(fs[i]);
  CHECK(bad == 0);
}
