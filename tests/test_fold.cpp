// The fold every reduction performs (docs/reduce.md, "What op may assume"): each partial starts
// from the identity, elements join on the right (op(acc, x)), partials combine by op. The Numba
// tutorial's |x| reducer, whose left argument must be an accumulator, on every target, size, axis
// and code path, against exact sums (integer-valued floats below 2^24).
#include "common.hpp"

#include <array>
#include <cstdint>
#include <limits>
#include <vector>

#include <ufx/reduce.hpp>

namespace {

// The tutorial's reducer: `if b < 0: return a - b else: return a + b`.
struct abs_sum_op {
  UFX_HD float operator()(float a, float b) const { return b < 0 ? a - b : a + b; }
};

// Checks the contract itself: elements are positive, accumulators are <= 0 (minus the number of
// elements folded in, the identity 0). A positive left argument (a raw element where an
// accumulator belongs) poisons the result with NaN.
struct witness_op {
  UFX_HD float operator()(float a, float b) const {
    if (a > 0) return std::numeric_limits<float>::quiet_NaN();
    return b > 0 ? a - 1 : a + b;
  }
};

struct diff_f {
  UFX_HD float operator()(float a, float b) const { return a - b; }
};

// Integer values in [-5, 5], the first one negative: a partial that began with a raw element
// would be off by twice it.
float value(std::int64_t i) { return static_cast<float>((i * 7 + 3) % 11) - 8.0f + static_cast<float>(i % 3); }

std::vector<float> values(std::int64_t n, std::int64_t from = 0) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = value(from + i);
  return v;
}

double exact_abs_sum(const float* p, std::int64_t n, std::int64_t step = 1) {
  double s = 0;
  for (std::int64_t i = 0; i < n; ++i) s += p[i * step] < 0 ? -static_cast<double>(p[i * step]) : p[i * step];
  return s;
}

// 0..3, then 2^k - 1, 2^k, 2^k + 1 for k = 3..20 (every leaf, lane, block and cutoff of the CPU and
// device paths is a power of two or a small multiple of one), and 2^20 + 3.
std::vector<std::int64_t> sweep() {
  std::vector<std::int64_t> n{0, 1, 2, 3};
  for (int k = 3; k <= 20; ++k)
    for (std::int64_t d = -1; d <= 1; ++d) n.push_back((std::int64_t{1} << k) + d);
  n.push_back((std::int64_t{1} << 20) + 3);
  return n;
}

} // namespace

TEST_CASE_TEMPLATE("the tutorial's |x| reducer sums |x| exactly on every target, for sizes 0 to 2^20 + 3", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto absum = ufx::reducer(abs_sum_op{}, 0.f);
  auto witness = ufx::reducer(witness_op{}, 0.f);
  CHECK(absum(Target{}, std::vector<float>{-1, 3, 5, -2}) == 11.f); // the example (ufx gave 9)
  const std::vector<float> all = values((std::int64_t{1} << 20) + 3);
  const std::vector<float> ones(all.size(), 1.f);
  int wrong = 0, poisoned = 0;
  for (const std::int64_t n : sweep()) {
    const ufx::ndview<const float, 1> x(all.data(), {n});
    const float got = absum(Target{}, x);
    const float count = witness(Target{}, ufx::ndview<const float, 1>(ones.data(), {n}));
    if (static_cast<double>(got) != exact_abs_sum(all.data(), n)) {
      if (wrong++ < 5) MESSAGE("n = " << n << ": " << got << " instead of " << exact_abs_sum(all.data(), n));
    }
    if (count != -static_cast<float>(n)) {
      if (poisoned++ < 5) MESSAGE("n = " << n << ": the witness gave " << count << " (a raw element on op's left)");
    }
  }
  CHECK(wrong == 0);
  CHECK(poisoned == 0);
  // Numba's init joins once, on the left of the total; a strided input takes the strided leaves
  const ufx::ndview<const float, 1> odd(all.data() + 1, {1000}, {3});
  CHECK(absum(Target{}, odd, 10.f) == static_cast<float>(10 + exact_abs_sum(all.data() + 1, 1000, 3)));
  // ufx::reduce and transform_reduce (the mapped value is the element) fold the same way
  CHECK(ufx::reduce(Target{}, all, abs_sum_op{}, 0.f) ==
        static_cast<float>(exact_abs_sum(all.data(), std::int64_t(all.size()))));
  std::vector<float> shifted(all.size());
  for (std::size_t i = 0; i < all.size(); ++i) shifted[i] = all[i] - 1.f;
  CHECK(ufx::transform_reduce(Target{}, all, ones, diff_f{}, abs_sum_op{}, 0.f) ==
        static_cast<float>(exact_abs_sum(shifted.data(), std::int64_t(shifted.size()))));
}

TEST_CASE_TEMPLATE("the |x| reducer along axis 0 and 1, with keepdims and out, strided and broadcast", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto absum = ufx::reducer(abs_sum_op{}, 0.f);
  const std::array<std::array<ufx::index_t, 2>, 6> shapes{
      {{1, 1}, {3, 1025}, {1025, 3}, {257, 129}, {2, 70000}, {70000, 2}}};
  for (const auto& s : shapes) {
    CAPTURE(s[0]);
    CAPTURE(s[1]);
    const std::vector<float> v = values(s[0] * s[1]);
    const ufx::ndview<const float, 2> m(v.data(), s);
    // exact row and column sums of |x|
    std::vector<double> col(static_cast<std::size_t>(s[1])), row(static_cast<std::size_t>(s[0]));
    for (ufx::index_t j = 0; j < s[1]; ++j) col[static_cast<std::size_t>(j)] = exact_abs_sum(v.data() + j, s[0], s[1]);
    for (ufx::index_t i = 0; i < s[0]; ++i) row[static_cast<std::size_t>(i)] = exact_abs_sum(v.data() + i * s[1], s[1]);

    const auto a0 = absum(Target{}, m, ufx::axis{0});
    const auto a1 = absum(Target{}, m, ufx::axis{1});
    const auto k0 = absum(Target{}, m, ufx::axis{0}, ufx::keepdims);
    ufx::ndarray<float, 1> o1({s[0]});
    absum(Target{}, m, ufx::axis{1}, ufx::out(o1));
    // the transpose: axis 1 of it is axis 0 of m, read with a stride
    const ufx::ndview<const float, 2> t(v.data(), {s[1], s[0]}, {1, s[1]});
    const auto t1 = absum(Target{}, t, ufx::axis{1});
    REQUIRE(a0.size() == s[1]);
    REQUIRE(a1.size() == s[0]);
    REQUIRE(k0.shape() == std::array<ufx::index_t, 2>{1, s[1]});
    int bad = 0;
    for (ufx::index_t j = 0; j < s[1]; ++j) {
      const double e = col[static_cast<std::size_t>(j)];
      bad += static_cast<double>(a0(j)) != e || static_cast<double>(k0(0, j)) != e || static_cast<double>(t1(j)) != e;
    }
    for (ufx::index_t i = 0; i < s[0]; ++i) {
      const double e = row[static_cast<std::size_t>(i)];
      bad += static_cast<double>(a1(i)) != e || static_cast<double>(o1(i)) != e;
    }
    CHECK(bad == 0);
  }
  // broadcast operands, (n, 1) against (m): runs in which one operand steps by 0; the mapped value
  // x_i - y_j is the element, summed as |x_i - y_j| along each axis and over all
  const std::int64_t n = 300, mm = 2000;
  const std::vector<float> xs = values(n), ys = values(mm, 5);
  const ufx::ndview<const float, 2> xc(xs.data(), {n, 1});
  const auto r1 = ufx::transform_reduce(Target{}, xc, ys, diff_f{}, abs_sum_op{}, 0.f, ufx::axis{1});
  const auto r0 = ufx::transform_reduce(Target{}, xc, ys, diff_f{}, abs_sum_op{}, 0.f, ufx::axis{0});
  const float all = ufx::transform_reduce(Target{}, xc, ys, diff_f{}, abs_sum_op{}, 0.f);
  double total = 0;
  int bad = 0;
  std::vector<double> cols(static_cast<std::size_t>(mm));
  for (std::int64_t i = 0; i < n; ++i) {
    double s = 0;
    for (std::int64_t j = 0; j < mm; ++j) {
      const double d = static_cast<double>(xs[static_cast<std::size_t>(i)]) - ys[static_cast<std::size_t>(j)];
      s += d < 0 ? -d : d;
      cols[static_cast<std::size_t>(j)] += d < 0 ? -d : d;
    }
    bad += static_cast<double>(r1(i)) != s;
    total += s;
  }
  for (std::int64_t j = 0; j < mm; ++j) bad += static_cast<double>(r0(j)) != cols[static_cast<std::size_t>(j)];
  CHECK(bad == 0);
  CHECK(static_cast<double>(all) == total);
}

TEST_CASE("the |x| reducer through the sim's chunks: partials of chunks combine as accumulators") {
  const ufx::sim_config saved = ufx::sim_configuration();
  ufx::configure_sim(ufx::sim_config{1, std::size_t{1} << 20}); // a 1 MiB device
  {
    auto absum = ufx::reducer(abs_sum_op{}, 0.f);
    const std::vector<float> x = values((std::int64_t{1} << 20) + 3); // 4 MiB
    const auto before = ufx::detail::sim_stats();
    const float s = absum(ufx::sim, x);
    CHECK(ufx::detail::sim_stats().host_to_device - before.host_to_device >= 4); // it did run in chunks
    CHECK(static_cast<double>(s) == exact_abs_sum(x.data(), std::int64_t(x.size())));
    CHECK(static_cast<double>(absum(ufx::chunked(ufx::sim, 64 << 10), x)) ==
          exact_abs_sum(x.data(), std::int64_t(x.size())));
    // axis 0 of a (3000, 100) matrix: the chunked dimension reduced (per-chunk partials), and axis 1
    const std::vector<float> v = values(3000 * 100);
    const ufx::ndview<const float, 2> m(v.data(), {3000, 100});
    const auto t = ufx::chunked(ufx::sim, 64 << 10);
    const auto a0 = absum(t, m, ufx::axis{0});
    const auto a1 = absum(t, m, ufx::axis{1}, ufx::keepdims);
    int bad = 0;
    for (ufx::index_t j = 0; j < 100; ++j) bad += static_cast<double>(a0(j)) != exact_abs_sum(v.data() + j, 3000, 100);
    for (ufx::index_t i = 0; i < 3000; ++i)
      bad += static_cast<double>(a1(i, 0)) != exact_abs_sum(v.data() + i * 100, 100);
    CHECK(bad == 0);
  }
  ufx::configure_sim(saved);
}

TEST_CASE_TEMPLATE("a reducer without identity sums with a symmetric operator and rejects an empty array", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  // a symmetric operator needs no identity: any split gives the sum
  auto sum = ufx::reducer(ufx_test::add_f{});
  const std::vector<float> x = values(100003);
  double e = 0;
  for (float v : x) e += v;
  CHECK(static_cast<double>(sum(Target{}, x)) == e);
  CHECK(sum(Target{}, std::vector<float>{-4.f}) == -4.f);
  CHECK_THROWS_AS(sum(Target{}, std::vector<float>{}), ufx::value_error);
}
