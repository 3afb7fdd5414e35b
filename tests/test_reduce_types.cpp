// NumPy's result types for the ready reductions and scans on every target: ufx::plus and
// ufx::multiplies (ufx::sum, ufx::prod, ufx::accumulate and transform_reduce with them, sums of lazy
// expressions, ufx::reducers' parts) accumulate bool and integers narrower than 64 bits in int64
// (signed, bool) or uint64 (unsigned), as np.sum, np.prod and np.cumsum do; floats keep their type;
// a user's operator keeps the types it returns. Integer sums and products are exact (modulo 2^64),
// so every result here is the same value on every target, bit for bit.
#include "common.hpp"

#include <ufx/eigen.hpp>

#include <climits>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <vector>

#include <ufx/lazy.hpp>
#include <ufx/reduce.hpp>
#include <ufx/reducers.hpp>

namespace {

using i64 = std::int64_t;
using u64 = std::uint64_t;

template <class R>
using value_t = std::remove_cvref_t<R>;

// The types of a whole-array sum, product, min and of a cumulative sum of a ufx::ndarray<T, 1> (not
// a std::vector, which has no bool storage).
template <class T>
using sum_of = value_t<decltype(ufx::sum(std::declval<const ufx::ndarray<T, 1>&>()))>;
template <class T>
using prod_of = value_t<decltype(ufx::prod(std::declval<const ufx::ndarray<T, 1>&>()))>;
template <class T>
using min_of = value_t<decltype(ufx::min(std::declval<const ufx::ndarray<T, 1>&>()))>;
template <class T>
using cumsum_of =
    typename value_t<decltype(ufx::accumulate(std::declval<const ufx::ndarray<T, 1>&>(), ufx::plus{}))>::value_type;

// NumPy 1.24: np.sum / np.prod / np.cumsum of bool, int8, int16, int32 give int64, of uint8, uint16,
// uint32 give uint64; 64-bit integers and floats keep their type; np.min keeps every type.
static_assert(std::is_same_v<sum_of<bool>, i64>);
static_assert(std::is_same_v<sum_of<std::int8_t>, i64>);
static_assert(std::is_same_v<sum_of<std::uint8_t>, u64>);
static_assert(std::is_same_v<sum_of<std::int16_t>, i64>);
static_assert(std::is_same_v<sum_of<std::uint16_t>, u64>);
static_assert(std::is_same_v<sum_of<std::int32_t>, i64>);
static_assert(std::is_same_v<sum_of<std::uint32_t>, u64>);
static_assert(std::is_same_v<sum_of<long>, long>);
static_assert(std::is_same_v<sum_of<long long>, long long>);
static_assert(std::is_same_v<sum_of<unsigned long long>, unsigned long long>);
static_assert(std::is_same_v<sum_of<float>, float>);
static_assert(std::is_same_v<sum_of<double>, double>);
static_assert(std::is_same_v<prod_of<bool>, i64>);
static_assert(std::is_same_v<prod_of<std::int8_t>, i64>);
static_assert(std::is_same_v<prod_of<std::uint16_t>, u64>);
static_assert(std::is_same_v<prod_of<std::int32_t>, i64>);
static_assert(std::is_same_v<prod_of<std::uint32_t>, u64>);
static_assert(std::is_same_v<prod_of<float>, float>);
static_assert(std::is_same_v<cumsum_of<bool>, i64>);
static_assert(std::is_same_v<cumsum_of<std::uint8_t>, u64>);
static_assert(std::is_same_v<cumsum_of<std::int32_t>, i64>);
static_assert(std::is_same_v<cumsum_of<float>, float>);
static_assert(std::is_same_v<min_of<bool>, bool>);
static_assert(std::is_same_v<min_of<std::uint8_t>, std::uint8_t>);
static_assert(std::is_same_v<min_of<std::int32_t>, std::int32_t>);

/// a + b in the parameters' type: a user's operator, whose types stay.
struct add_int {
  UFX_HD int operator()(int a, int b) const { return a + b; }
};
struct mul_f {
  template <class T>
  UFX_HD T operator()(T a, T b) const {
    return a * b;
  }
};

/// n values near INT_MAX (n * INT_MAX overflows int from n = 2) and their exact sum.
std::vector<int> near_int_max(int n, i64& exact) {
  std::vector<int> v(static_cast<std::size_t>(n));
  exact = 0;
  for (int i = 0; i < n; ++i) {
    v[static_cast<std::size_t>(i)] = INT_MAX - i % 5;
    exact += INT_MAX - i % 5;
  }
  return v;
}

} // namespace

TEST_CASE_TEMPLATE("int32 sums widen to int64 as np.sum's do: INT_MAX + INT_MAX + 7 is 4294967301", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const std::vector<int> x{INT_MAX, INT_MAX, 7};
  const auto s = ufx::sum(Target{}, x);
  static_assert(std::is_same_v<decltype(s), const i64>);
  CHECK(s == 4294967301);
  CHECK(ufx::reduce(Target{}, x, ufx::plus{}, 0) == 4294967301); // np.add.reduce: the same rule
  CHECK(ufx::sum(Target{}, x, 10) == 4294967311);                // init joins in int64
  CHECK(ufx::sum(Target{}, std::vector<int>{}) == 0);
  static_assert(std::is_same_v<decltype(ufx::sum(Target{}, std::vector<int>{})), i64>);
  // long sums: the CPU leaves' vector code, the host's threads, the device lanes and tiles
  for (int n : {2, 31, 129, 1025, 4099, 65537, 262147}) {
    CAPTURE(n);
    i64 exact = 0;
    const auto v = near_int_max(n, exact);
    CHECK(ufx::sum(Target{}, v) == exact);
    ufx::ndarray<int, 1> a({n});
    std::copy(v.begin(), v.end(), a.data());
    CHECK(ufx::sum(Target{}, a) == exact); // an ndarray
    i64 even = 0;
    for (int i = 0; i < n; i += 2) even += v[static_cast<std::size_t>(i)];
    CHECK(ufx::sum(Target{}, ufx::ndview<const int, 1>(v.data(), {(n + 1) / 2}, {2})) == even); // strided
  }
}

TEST_CASE_TEMPLATE("unsigned sums widen to uint64, bool and small signed ones to int64", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const std::vector<std::uint32_t> u{4000000000u, 4000000000u, 5u};
  const auto su = ufx::sum(Target{}, u);
  static_assert(std::is_same_v<decltype(su), const u64>);
  CHECK(su == 8000000005ull);

  const std::vector<std::int8_t> s8(1000, 100);
  const auto r8 = ufx::sum(Target{}, s8);
  static_assert(std::is_same_v<decltype(r8), const i64>);
  CHECK(r8 == 100000);
  const std::vector<std::uint8_t> u8(1000, 200);
  const auto ru8 = ufx::sum(Target{}, u8);
  static_assert(std::is_same_v<decltype(ru8), const u64>); // C++ would add uint8 in (signed) int
  CHECK(ru8 == 200000u);
  const std::vector<std::int16_t> s16(100000, 30000); // 3e9: past INT_MAX
  const auto r16 = ufx::sum(Target{}, s16);
  static_assert(std::is_same_v<decltype(r16), const i64>);
  CHECK(r16 == 3000000000);
  const std::vector<std::int16_t> neg(100000, -30000);
  CHECK(ufx::sum(Target{}, neg) == -3000000000);
  ufx::ndarray<bool, 1> flags({5000}, true);
  flags(7) = false;
  const auto count = ufx::sum(Target{}, flags);
  static_assert(std::is_same_v<decltype(count), const i64>);
  CHECK(count == 4999);
  const std::vector<float> f{0.5f, 1.5f};
  static_assert(std::is_same_v<decltype(ufx::sum(Target{}, f)), float>); // floats keep their type
  CHECK(ufx::sum(Target{}, f) == 2.0f);
}

TEST_CASE_TEMPLATE("axis sums and keepdims of int32 arrays are int64 arrays", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const ufx::index_t n0 = 3, n1 = 20011;
  ufx::ndarray<int, 2> a({n0, n1});
  std::vector<i64> rows(n0, 0), cols(static_cast<std::size_t>(n1), 0);
  for (ufx::index_t i = 0; i < n0; ++i)
    for (ufx::index_t j = 0; j < n1; ++j) {
      const int v = (i + j) % 3 ? INT_MAX - static_cast<int>(j % 7) : INT_MIN + static_cast<int>(i);
      a(i, j) = v;
      rows[static_cast<std::size_t>(i)] += v;
      cols[static_cast<std::size_t>(j)] += v;
    }
  const auto r = ufx::sum(Target{}, a, ufx::axis{1});
  static_assert(std::is_same_v<decltype(r), const ufx::ndarray<i64, 1>>);
  for (ufx::index_t i = 0; i < n0; ++i) CHECK(r(i) == rows[static_cast<std::size_t>(i)]);
  const auto c = ufx::sum(Target{}, a, ufx::axis{0});
  static_assert(std::is_same_v<decltype(c), const ufx::ndarray<i64, 1>>);
  long bad = 0;
  for (ufx::index_t j = 0; j < n1; ++j) bad += c(j) != cols[static_cast<std::size_t>(j)];
  CHECK(bad == 0);
  const auto k = ufx::sum(Target{}, a, ufx::axis{-1}, ufx::keepdims);
  static_assert(std::is_same_v<decltype(k), const ufx::ndarray<i64, 2>>);
  REQUIRE(k.shape() == std::array<ufx::index_t, 2>{n0, 1});
  for (ufx::index_t i = 0; i < n0; ++i) CHECK(k(i, 0) == rows[static_cast<std::size_t>(i)]);
  // Eigen keeps its shapes, with the widened scalar
  Eigen::MatrixXi m = Eigen::MatrixXi::Constant(4, 3, INT_MAX);
  const auto mc = ufx::sum(Target{}, m, ufx::axis{0});
  static_assert(std::is_same_v<typename value_t<decltype(mc)>::Scalar, i64>);
  REQUIRE((mc.rows() == 1 && mc.cols() == 3));
  CHECK(mc(0, 2) == 4 * i64{INT_MAX});
}

TEST_CASE_TEMPLATE("int32 products widen to int64: 65536 * 65536 is 4294967296", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const std::vector<int> x{65536, 65536};
  const auto p = ufx::prod(Target{}, x);
  static_assert(std::is_same_v<decltype(p), const i64>);
  CHECK(p == 4294967296);
  const std::vector<std::uint32_t> u{65536u, 65536u, 3u};
  const auto pu = ufx::prod(Target{}, u);
  static_assert(std::is_same_v<decltype(pu), const u64>);
  CHECK(pu == 12884901888ull);
  CHECK(ufx::prod(Target{}, std::vector<std::int8_t>(40, -2)) == (i64{1} << 40)); // (-2)^40
  // along an axis: each row's product of 31 twos and a three
  ufx::ndarray<int, 2> a({4, 32}, 2);
  for (int i = 0; i < 4; ++i) a(i, i) = 3;
  const auto r = ufx::prod(Target{}, a, ufx::axis{1});
  static_assert(std::is_same_v<decltype(r), const ufx::ndarray<i64, 1>>);
  for (int i = 0; i < 4; ++i) CHECK(r(i) == 3 * (i64{1} << 31));
  CHECK(ufx::prod(Target{}, std::vector<int>{}) == 1);
}

TEST_CASE_TEMPLATE("cumulative sums and products of small integers widen as np.cumsum's do", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const std::vector<int> x{INT_MAX, 1, INT_MAX};
  const auto c = ufx::accumulate(Target{}, x, ufx::plus{});
  static_assert(std::is_same_v<decltype(c), const std::vector<i64>>);
  CHECK(c == std::vector<i64>{INT_MAX, i64{INT_MAX} + 1, 2 * i64{INT_MAX} + 1});
  const auto cp = ufx::accumulate(Target{}, std::vector<int>{65536, 65536, -2}, ufx::multiplies{});
  CHECK(cp == std::vector<i64>{65536, 4294967296, -8589934592});
  const std::vector<std::uint8_t> u8(300, 255);
  const auto cu = ufx::accumulate(Target{}, u8, ufx::plus{});
  static_assert(std::is_same_v<decltype(cu), const std::vector<u64>>);
  CHECK(cu.back() == 300u * 255u);
  ufx::ndarray<int, 2> a({2, 5000}, INT_MAX); // along axis 1: long lines
  const auto ca = ufx::accumulate(Target{}, a, ufx::plus{}, ufx::axis{1});
  static_assert(std::is_same_v<decltype(ca), const ufx::ndarray<i64, 2>>);
  CHECK(ca(1, 4999) == 5000 * i64{INT_MAX});
  // a user's operator keeps its types (and its small values do not overflow)
  const auto own = ufx::accumulate(Target{}, std::vector<int>{1, 2, 3}, add_int{});
  static_assert(std::is_same_v<decltype(own), const std::vector<int>>);
  CHECK(own == std::vector<int>{1, 3, 6});
}

TEST_CASE_TEMPLATE("out with a narrower integer destination: the int64 result cast in, as NumPy's same_kind out",
                   Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const std::vector<int> x{INT_MAX, INT_MAX, 7};
  ufx::ndarray<int, 0> narrow(std::array<ufx::index_t, 0>{});
  ufx::sum(Target{}, x, ufx::out(narrow));
  CHECK(narrow() == 5); // np.sum(x, out=np.zeros((), np.int32)): 4294967301 mod 2^32
  ufx::ndarray<i64, 0> wide(std::array<ufx::index_t, 0>{});
  ufx::sum(Target{}, x, ufx::out(wide));
  CHECK(wide() == 4294967301);
  ufx::ndarray<int, 2> a({2, 3}, INT_MAX);
  ufx::ndarray<int, 1> rows({2}, -1);
  ufx::sum(Target{}, a, ufx::axis{1}, ufx::out(rows));
  CHECK((rows(0) == INT_MAX - 2 && rows(1) == INT_MAX - 2)); // 3 * INT_MAX mod 2^32, as NumPy's
  ufx::ndarray<double, 1> rows_d({2}, -1);
  ufx::sum(Target{}, a, ufx::axis{1}, ufx::out(rows_d));
  CHECK(rows_d(0) == 3.0 * INT_MAX); // exact in int64, then rounded once
  ufx::ndarray<std::uint8_t, 0> small(std::array<ufx::index_t, 0>{});
  ufx::sum(Target{}, std::vector<std::uint8_t>(3, 200), ufx::out(small)); // uint64 into uint8: same kind
  CHECK(small() == static_cast<std::uint8_t>(600));
}

TEST_CASE_TEMPLATE("lazy sums, transform_reduce and reducers' sums widen; a user's reducer keeps its types", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const std::vector<int> x{INT_MAX, INT_MAX, 7}, y{1, 1, 1};
  auto sub = ufx::vectorize([] UFX_HD(int a, int b) { return a - b; });
  const auto s = ufx::sum(Target{}, sub(ufx::lazy(x), y)); // (INT_MAX - 1) * 2 + 6
  static_assert(std::is_same_v<decltype(s), const i64>);
  CHECK(s == 4294967298);
  const auto t = ufx::transform_reduce(Target{}, x, y, mul_f{}, ufx::plus{}, 0);
  static_assert(std::is_same_v<decltype(t), const i64>);
  CHECK(t == 4294967301);
  const std::vector<int> z{INT_MAX, 3, 7};
  const auto [rs, rp, rmax] = ufx::reducers(ufx::sum, ufx::prod, ufx::max)(Target{}, z);
  static_assert(std::is_same_v<decltype(rs), const i64>);
  static_assert(std::is_same_v<decltype(rp), const i64>);
  static_assert(std::is_same_v<decltype(rmax), const int>);
  CHECK(rs == i64{INT_MAX} + 10);
  CHECK(rp == 21 * i64{INT_MAX});
  CHECK(rmax == INT_MAX);
  auto own = ufx::reducer(add_int{}, 0);
  const auto o = own(Target{}, y);
  static_assert(std::is_same_v<decltype(o), const int>);
  CHECK(o == 3);
  auto own_lambda = ufx::reducer([] UFX_HD(short a, short b) { return static_cast<short>(a + b); }, short{0});
  static_assert(std::is_same_v<decltype(own_lambda(Target{}, std::vector<short>{1, 2})), short>);
  CHECK(own_lambda(Target{}, std::vector<short>{1, 2}) == 3);
}

TEST_CASE_TEMPLATE("device operands: int32 sums come back as int64 device arrays and values", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  if constexpr (!ufx::is_device_target_v<Target>) return;
  else {
    ufx::ndarray<int, 2> a({3, 4099}, INT_MAX);
    const auto d = ufx::to_device(a, Target{});
    CHECK(ufx::sum(d) == 3 * 4099 * i64{INT_MAX}); // ufx::cuda: CUB's reduce, int64 over int32
    auto r = ufx::sum(d, ufx::axis{1});
    static_assert(std::is_same_v<decltype(r), ufx::device_array<i64, 1>>);
    const auto h = r.to_host();
    for (int i = 0; i < 3; ++i) CHECK(h(i) == 4099 * i64{INT_MAX});
    auto c = ufx::sum(d, ufx::axis{0}); // lanes per output
    CHECK(c.to_host()(4098) == 3 * i64{INT_MAX});
  }
}
