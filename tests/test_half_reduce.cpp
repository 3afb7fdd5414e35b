// Reductions and scans of ufx::float16 and ufx::bfloat16 on every target, against NumPy 1.24's values (the hex bits
// below; bfloat16's from the exact value rounded to nearest even, NumPy having no bfloat16). What is promised:
// - ufx::sum / prod / reduce by ufx::plus or multiplies accumulate in float and round once to the element type, as
//   np.sum / np.prod of a float16 array do for up to 8192 elements in one run (NumPy rounds each 8192-element buffer,
//   and along a non-contiguous axis each step). The data here keep every float partial sum exact, so every target's
//   order gives the same bits: NumPy's, or for NumPy's axis-0 sum, the exact sum rounded once.
// - mean, var, std, logsumexp compute in float and round once (NumPy's var of float16 computes in float16: one ulp
//   off here).
// - accumulate rounds each step to float16, as np.cumsum: the same bits as NumPy's on serial, host and the sim (each
//   line in order); ufx::cuda's scan associates differently, so there within a bound.
#include "common.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

using ufx::bfloat16;
using ufx::float16;

namespace {

// x[i] = k / 128, k = (7 i^2 + 3 i) mod 511: exact in float16, and every sum of them exact in float.
std::vector<float16> data16(int n) {
  std::vector<float16> x;
  for (int i = 0; i < n; ++i) x.push_back(float16((7 * i * i + 3 * i) % 511 / 128.f));
  return x;
}
// the same with k mod 128, / 64: exact in bfloat16
std::vector<bfloat16> data_bf(int n) {
  std::vector<bfloat16> x;
  for (int i = 0; i < n; ++i) x.push_back(bfloat16((7 * i * i + 3 * i) % 128 / 64.f));
  return x;
}
ufx::ndarray<float16, 2> matrix16() { // data16(1000) as 40 x 25
  ufx::ndarray<float16, 2> m({40, 25});
  const auto x = data16(1000);
  for (std::size_t i = 0; i < x.size(); ++i) m.data()[i] = x[i];
  return m;
}
template <class C>
std::vector<unsigned> bits_of(const C& c) {
  std::vector<unsigned> b;
  for (const auto& h : c) b.push_back(h.bits());
  return b;
}

// np.sum(m, axis=0) of float16(m) computed exactly, rounded once (NumPy's own adds rows in float16: 14 of 25 differ)
const std::vector<unsigned> sum_axis0{0x54e7, 0x5529, 0x53e2, 0x547f, 0x5593, 0x552e, 0x54ce, 0x5535, 0x5562,
                                      0x5455, 0x54ce, 0x54cd, 0x5552, 0x545e, 0x54f0, 0x55c7, 0x54a6, 0x540a,
                                      0x54f4, 0x55e4, 0x551a, 0x5557, 0x54da, 0x54a3, 0x5532};
// np.sum(m, axis=1): NumPy's pairwise float loop, the exact sums rounded once
const std::vector<unsigned> sum_axis1{0x506f, 0x5187, 0x5229, 0x5256, 0x528e, 0x5350, 0x519e, 0x5275, 0x51d7, 0x52c3,
                                      0x513b, 0x52bc, 0x5248, 0x535e, 0x5100, 0x522b, 0x51e2, 0x52a2, 0x52ed, 0x5342,
                                      0x5024, 0x518e, 0x5183, 0x5282, 0x520d, 0x52a2, 0x52c1, 0x526b, 0x521f, 0x51de,
                                      0x5228, 0x517c, 0x5359, 0x5342, 0x51b6, 0x51b4, 0x513d, 0x52d0, 0x526d, 0x5315};

struct twice_f {
  UFX_HD float16 operator()(float16 a) const { return a * 2; }
};

} // namespace

TEST_CASE_TEMPLATE("sum and prod of float16 accumulate in float and round once, as np.sum and np.prod", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const auto x = data16(1000);
  const float16 s = ufx::sum(Target{}, x);
  static_assert(std::is_same_v<decltype(ufx::sum(Target{}, x)), float16>);
  CHECK(s.bits() == 0x67ba); // np.sum(x): 1978.0 (exactly 1978.125); adding in float16 gives 1982
  CHECK(ufx::sum(Target{}, x, 0.5f).bits() == 0x67bb); // np.sum(x, initial=0.5): 1978.625 rounded once
  CHECK(ufx::reduce(Target{}, x, ufx::plus{}, 0.f).bits() == 0x67ba);
  CHECK(ufx::reducer(ufx::plus{}, 0)(Target{}, x).bits() == 0x67ba);
  // a map's float16 results, summed in float: 2 x = 3956.25, np.float16 3956.0
  CHECK(ufx::transform_reduce(Target{}, x, twice_f{}, ufx::plus{}, 0).bits() == 0x6bba);
  // a user's operator keeps its own accumulator and result: float
  const float f = ufx::reducer([] UFX_HD(float a, float b) { return a + b; }, 0.f)(Target{}, x);
  CHECK(f == 1978.125f);

  std::vector<float16> p;
  for (int i = 0; i < 8; ++i) p.push_back(float16(i % 2 ? 1.75f : 1.25f));
  CHECK(ufx::prod(Target{}, p).bits() == 0x4db9); // np.prod: 22.89 (22.8977...); in float16 steps 22.9
  CHECK(ufx::prod(Target{}, std::vector<float16>(8, float16(1.25f))).bits() == 0x45f6); // 5.96; steps give 5.957
  CHECK(ufx::sum(Target{}, std::vector<float16>{}).bits() == 0);
  CHECK(ufx::prod(Target{}, std::vector<float16>{}).bits() == 0x3c00);

  // 100003 elements (the host's threads, the devices' partials), every partial sum exact in float: 6054.77 rounded
  // once (NumPy rounds each 8192-element buffer; here it gives the same 6056.0)
  std::vector<float16> big;
  for (int i = 0; i < 100003; ++i) big.push_back(float16(i * 7 % 32 / 256.f));
  CHECK(ufx::sum(Target{}, big).bits() == 0x6dea);

  const auto b = data_bf(1000);
  static_assert(std::is_same_v<decltype(ufx::sum(Target{}, b)), bfloat16>);
  CHECK(ufx::sum(Target{}, b).bits() == 0x4476); // 984.125 exactly, bfloat16 984
}

TEST_CASE_TEMPLATE("float16 sums along axes round each output once, into out and with keepdims", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const auto m = matrix16();
  const ufx::ndarray<float16, 1> s0 = ufx::sum(Target{}, m, ufx::axis{0});
  CHECK(bits_of(s0) == sum_axis0);
  const ufx::ndarray<float16, 2> s1 = ufx::sum(Target{}, m, ufx::axis{1}, ufx::keepdims);
  CHECK(s1.extent(1) == 1);
  CHECK(bits_of(s1) == sum_axis1);
  ufx::ndarray<float16, 1> d16({40});
  ufx::sum(Target{}, m, ufx::axis{1}, ufx::out(d16));
  CHECK(bits_of(d16) == sum_axis1);
  // a float result (a user's operator) written into a float16 destination, rounded there
  ufx::ndarray<float16, 1> d0({25});
  ufx::reducer([] UFX_HD(float a, float b) { return a + b; }, 0.f)(Target{}, m, ufx::axis{0}, ufx::out(d0));
  CHECK(bits_of(d0) == sum_axis0);
  // an elementwise float result into a float16 destination (ufx::out's same_kind), rounded there
  ufx::vectorize([] UFX_HD(float16 a) { return a * 0.5f; })(Target{}, s0, ufx::out(d0));
  CHECK(float(d0(24)) == float(float16(float(s0(24)) * 0.5f)));
  // empty: zeros
  const ufx::ndarray<float16, 1> e = ufx::sum(Target{}, ufx::ndarray<float16, 2>({0, 3}), ufx::axis{0});
  CHECK(bits_of(e) == std::vector<unsigned>(3, 0));
}

TEST_CASE_TEMPLATE("max, min, argmax and argmin of float16: a NaN first", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto x = data16(1000);
  CHECK(ufx::max(Target{}, x).bits() == 0x43f8); // 3.984
  CHECK(ufx::min(Target{}, x).bits() == 0);
  CHECK(ufx::argmax(Target{}, x) == 149);
  CHECK(ufx::argmin(Target{}, x) == 0);
  x[500] = float16::from_bits(0x7e00);
  CHECK(ufx::math::isnan(ufx::max(Target{}, x)));
  CHECK(ufx::argmax(Target{}, x) == 500);
  CHECK(ufx::argmin(Target{}, x) == 500);
}

TEST_CASE_TEMPLATE("accumulate of float16 rounds each step, as np.cumsum", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const auto x = data16(200);
  const std::vector<float16> c = ufx::accumulate(Target{}, x, ufx::plus{});
  std::vector<float16> step{x[0]};
  for (std::size_t i = 1; i < x.size(); ++i) step.push_back(step.back() + x[i]);
  CHECK(step[49].bits() == 0x54fa); // np.cumsum(x)[[49, 99, 199]]
  CHECK(step[99].bits() == 0x599e);
  CHECK(step[199].bits() == 0x5e0c);
  if constexpr (std::is_same_v<Target, ufx::cuda_t>) { // Thrust's order: roundings elsewhere
    for (std::size_t i = 0; i < x.size(); ++i) CHECK(std::fabs(float(c[i]) - float(step[i])) <= 0.01f * step[i]);
  } else {
    CHECK(bits_of(c) == bits_of(step));
  }
}

TEST_CASE_TEMPLATE("mean, var, std and logsumexp of float16 compute in float and round once", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const auto x = data16(1000);
  static_assert(std::is_same_v<decltype(ufx::mean(Target{}, x)), float16>);
  CHECK(ufx::mean(Target{}, x).bits() == 0x3fea); // np.mean(x): 1.979
  CHECK(ufx::var(Target{}, x).bits() == 0x3d4f);  // 1.32750... rounded once (np.var(x), in float16 steps: 0x3d50)
  CHECK(ufx::std(Target{}, x).bits() == 0x3c9c);  // np.std(x): 1.152
  CHECK(ufx::var(ufx::ddof{1})(Target{}, x).bits() == 0x3d51);
  const auto [s, mu] = ufx::reducers(ufx::sum, ufx::mean)(Target{}, x);
  CHECK(s.bits() == 0x67ba);
  CHECK(mu.bits() == 0x3fea);
  const std::vector<float16> head(x.begin(), x.begin() + 100);
  CHECK(ufx::logsumexp(Target{}, head).bits() == 0x470b); // scipy.special.logsumexp: 7.043
  const auto b = data_bf(1000);
  CHECK(ufx::mean(Target{}, b).bits() == 0x3f7c); // 0.984125, bfloat16 0.984375
  CHECK(ufx::var(Target{}, b).bits() == 0x3eab);  // 0.33427 -> 0.333984
}

TEST_CASE("a float16 sum of host data larger than the sim device combines the chunks' float partials, rounds once") {
  // 1000 in the first half, -1000 in the second: every partial sum exact in float, the sum 0. A chunk's partial (many
  // thousands) rounded to float16 would be an infinity, and the two halves' infinities would add to a NaN
  std::vector<float16> x(32768, float16(1000.f));
  for (std::size_t i = x.size() / 2; i < x.size(); ++i) x[i] = float16(-1000.f);
  REQUIRE(ufx::sum(ufx::serial, x).bits() == 0);
  for (std::size_t budget : {std::size_t{4} << 10, std::size_t{16} << 10}) {
    const auto before = ufx::detail::sim_stats();
    const float16 s = ufx::sum(ufx::chunked(ufx::sim, budget), x);
    CHECK(ufx::detail::sim_stats().host_to_device - before.host_to_device >= 4); // chunks
    CHECK(s.bits() == 0);
    CHECK(ufx::sum(ufx::chunked(ufx::sim, budget), x, float16(0.5f)).bits() == 0x3800); // Numba's init: 0.5
    CHECK(ufx::mean(ufx::chunked(ufx::sim, budget), x).bits() == 0);
  }
}
