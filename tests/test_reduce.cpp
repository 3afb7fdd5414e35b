// ufx::reducer, ufx::reduce, ufx::transform_reduce, ufx::argmin / argmax on every target: values,
// sizes, axes, result containers, out, errors, accuracy.
#include "common.hpp"

#include <ufx/eigen.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

#include <ufx/reduce.hpp>

using ufx_test::error_message;

namespace {

struct abs_f {
  template <class T>
  UFX_HD T operator()(T a) const {
    return a < T(0) ? -a : a;
  }
};
struct mul_f {
  template <class T>
  UFX_HD T operator()(T a, T b) const {
    return a * b;
  }
};

const float nan_f = std::numeric_limits<float>::quiet_NaN();

// Sizes around every boundary of the CPU tree (leaves of 512 floats, the host's 2^15 cutoff).
const int sizes[] = {0, 1, 2, 7, 31, 97, 127, 129, 511, 513, 1023, 1025, 4099, 32767, 32769, 65537, 262147};

std::vector<float> small_ints(int n) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = static_cast<float>(i % 7 - 3);
  return v;
}

// Brute-force reduction of a rank-3 array over the axes in `mask`, in C order of the kept shape.
template <class T, class Op>
std::vector<T> reference(const ufx::ndarray<T, 3>& a, unsigned mask, Op op, T identity) {
  std::array<ufx::index_t, 3> kept{};
  for (int d = 0; d < 3; ++d) kept[d] = (mask & (1u << d)) ? 1 : a.extent(d);
  std::vector<T> r(static_cast<std::size_t>(kept[0] * kept[1] * kept[2]), identity);
  for (ufx::index_t i = 0; i < a.extent(0); ++i)
    for (ufx::index_t j = 0; j < a.extent(1); ++j)
      for (ufx::index_t k = 0; k < a.extent(2); ++k) {
        const ufx::index_t o[3] = {(mask & 1) ? 0 : i, (mask & 2) ? 0 : j, (mask & 4) ? 0 : k};
        T& t = r[static_cast<std::size_t>((o[0] * kept[1] + o[1]) * kept[2] + o[2])];
        t = op(t, a(i, j, k));
      }
  return r;
}

template <class C>
std::vector<double> values_of(const C& c) {
  return std::vector<double>(c.begin(), c.end());
}

template <class Target, class A, class T, class... Axis>
void check_axes(const A& a, unsigned mask, Axis... ax) {
  auto sum = ufx::reducer(ufx::plus{}, T(0));
  const auto ref = reference<T>(a, mask, ufx::plus{}, T(0));
  const auto r = sum(Target{}, a, ufx::axis{ax...});
  const auto k = sum(Target{}, a, ufx::axis{ax...}, ufx::keepdims);
  static_assert(std::remove_cvref_t<decltype(k)>::rank == 3);
  if constexpr (sizeof...(Axis) == 3) { // every axis: a scalar, as NumPy gives (int sums in int64)
    static_assert(std::is_same_v<decltype(r), const std::conditional_t<std::is_integral_v<T>, std::int64_t, T>>);
    CHECK(r == ref[0]);
    CHECK(values_of(k) == values_of(ref));
    return;
  } else {
    static_assert(std::remove_cvref_t<decltype(r)>::rank == 3 - static_cast<int>(sizeof...(Axis)));
    ufx::index_t expect_size = 1;
    int j = 0;
    for (int d = 0; d < 3; ++d) {
      const bool reduced = (mask >> d) & 1u;
      CHECK(k.extent(d) == (reduced ? 1 : a.extent(d)));
      if (!reduced) CHECK(r.extent(j++) == a.extent(d));
      if (!reduced) expect_size *= a.extent(d);
    }
    REQUIRE(r.size() == expect_size);
    CHECK(values_of(r) == values_of(ref));
    CHECK(values_of(k) == values_of(ref));
  }
}

template <class Target, class T>
void check_all_axes(const ufx::ndarray<T, 3>& a) {
  check_axes<Target, ufx::ndarray<T, 3>, T>(a, 1, 0);
  check_axes<Target, ufx::ndarray<T, 3>, T>(a, 2, 1);
  check_axes<Target, ufx::ndarray<T, 3>, T>(a, 4, 2);
  check_axes<Target, ufx::ndarray<T, 3>, T>(a, 3, 0, 1);
  check_axes<Target, ufx::ndarray<T, 3>, T>(a, 5, 2, 0);
  check_axes<Target, ufx::ndarray<T, 3>, T>(a, 6, -2, -1);
  check_axes<Target, ufx::ndarray<T, 3>, T>(a, 7, 0, 1, 2);
}

template <class T>
ufx::ndarray<T, 3> sample3(ufx::index_t n0, ufx::index_t n1, ufx::index_t n2) {
  ufx::ndarray<T, 3> a({n0, n1, n2});
  for (ufx::index_t i = 0; i < a.size(); ++i) a.data()[i] = static_cast<T>((i * 7919) % 23 - 11);
  return a;
}

} // namespace

TEST_CASE_TEMPLATE("a reducer sums std::vectors of every size to a scalar", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto sum = ufx::reducer([] UFX_HD(float a, float b) { return a + b; }, 0.0f);
  for (int n : sizes) {
    CAPTURE(n);
    const auto x = small_ints(n);
    double expect = 0;
    for (float v : x) expect += v;
    const float s = sum(Target{}, x);
    CHECK(s == expect); // small integers: every order is exact
  }
}

TEST_CASE_TEMPLATE("sum(x, init) is op(init, sum(x)) and an empty reduction returns the identity", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto sum = ufx::reducer(ufx::plus{}, 0.0f);
  const std::vector<float> x{1, 2, 3}, empty;
  CHECK(sum(Target{}, x, 10.0f) == 16.0f);
  CHECK(sum(Target{}, empty) == 0.0f);
  CHECK(sum(Target{}, empty, 5.0f) == 5.0f);
  auto prod = ufx::reducer(ufx::multiplies{}, 1.0);
  CHECK(prod(Target{}, std::vector<double>{}) == 1.0);
  CHECK(prod(Target{}, std::vector<double>{2, 3, 4}, 0.5) == 12.0);
}

// A call naming no target on host containers compiles the host path alone, and a full reduction
// of one such container the dense tree alone (issue #29: detail/step/run.hpp, detail/step/reduce_dense.hpp):
// what the types decide, and that those calls give the general path's results, empty ones too.
static_assert(!ufx::detail::reaches_device<void, std::vector<float>, float, std::array<int, 3>>);
static_assert(!ufx::detail::reaches_device<void, ufx::ndarray<double, 2>>);
static_assert(ufx::detail::reaches_device<void, std::vector<float>, ufx::ndview<const float, 1>>);
static_assert(ufx::detail::reaches_device<void, ufx::device_array<float, 1>>);
static_assert(ufx::detail::reaches_device<ufx::out_t<ufx::ndview<float, 1>&>, std::vector<float>>);
static_assert(ufx::detail::dense_by_type<void, std::vector<float>> == !UFX_CUDA_TU); // nvcc: ufx::cuda may run it
static_assert(ufx::detail::dense_by_type<ufx::serial_t, std::vector<float>, float>);
static_assert(!ufx::detail::dense_by_type<ufx::sim_t, std::vector<float>>);
static_assert(!ufx::detail::dense_by_type<void, std::vector<float>, std::vector<float>>); // may broadcast
static_assert(!ufx::detail::dense_by_type<void, ufx::ndview<const float, 1>>);
static_assert(!ufx::detail::dense_by_type<ufx::target, std::vector<float>>);

TEST_CASE("full reductions of host containers naming no target: the dense path's values, empty ones too") {
  auto sum = ufx::reducer(ufx::plus{}, 0.0f);
  auto biggest = ufx::reducer(ufx::maximum);
  const std::vector<float> x{1, 2, 3}, empty;
  CHECK(sum(x) == 6.0f);
  CHECK(sum(x, 10.0f) == 16.0f);
  CHECK(sum(empty) == 0.0f);
  CHECK(sum(empty, 5.0f) == 5.0f);
  CHECK(biggest(std::array<float, 3>{3, 9, 2}) == 9.0f);
  CHECK(biggest(ufx::ndarray<float, 2>({2, 2}, 7.f)) == 7.0f);
  CHECK_THROWS_AS(biggest(empty), ufx::value_error);
  CHECK(biggest(empty, 4.0f) == 4.0f);
  CHECK(ufx::reduce(x, ufx::plus{}, 0.f) == 6.0f);
  CHECK(ufx::transform_reduce(
            x, 2.f, [](float a, float b) { return a * b; }, ufx::plus{}, 0.f) == 12.0f);
  // the same values through a run-time target, which compiles every path
  CHECK(sum(ufx::target(ufx::serial), x) == 6.0f);
  CHECK_THROWS_AS(biggest(ufx::target(ufx::host), empty), ufx::value_error);
}

TEST_CASE_TEMPLATE("an empty reduction without identity is a value_error in NumPy's words", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto biggest = ufx::reducer(ufx::maximum);
  CHECK(biggest(Target{}, std::vector<float>{3, 9, 2}) == 9.0f);
  CHECK_THROWS_AS(biggest(Target{}, std::vector<float>{}), ufx::value_error);
  CHECK(error_message([&] {
          biggest(Target{}, std::vector<float>{});
        }).find("zero-size array to reduction operation which has no identity") != std::string::npos);
  CHECK(biggest(Target{}, std::vector<float>{}, 4.0f) == 4.0f); // an init stands in for the identity
  // NumPy raises even when there are no outputs, as long as the reduced extent is zero
  ufx::ndarray<float, 2> none({0, 0});
  CHECK_THROWS_AS(biggest(Target{}, none, ufx::axis{1}), ufx::value_error);
  ufx::ndarray<float, 2> rows0({0, 3});
  CHECK(biggest(Target{}, rows0, ufx::axis{1}).size() == 0);
}

TEST_CASE_TEMPLATE("every axis combination of a rank-3 array, with and without keepdims", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  check_all_axes<Target>(sample3<int>(2, 3, 5));
  check_all_axes<Target>(sample3<double>(3, 1, 4));    // an extent-1 dimension
  check_all_axes<Target>(sample3<double>(67, 45, 71)); // above the host's serial cutoff
  check_all_axes<Target>(sample3<double>(2, 3, 8193)); // long reductions with few outputs
  check_all_axes<Target>(sample3<double>(4099, 2, 3)); // a long outer axis, tiny inner ones
}

TEST_CASE_TEMPLATE("zero-size dimensions give empty results or identities", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  check_all_axes<Target>(sample3<int>(0, 3, 4));
  check_all_axes<Target>(sample3<int>(2, 0, 4));
  auto sum = ufx::reducer(ufx::plus{}, 0);
  const auto r = sum(Target{}, sample3<int>(2, 0, 4), ufx::axis{1});
  REQUIRE(r.shape() == std::array<ufx::index_t, 2>{2, 4});
  for (auto v : r) CHECK(v == 0);
}

TEST_CASE_TEMPLATE("axis errors are shape_errors in NumPy's words", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto sum = ufx::reducer(ufx::plus{}, 0);
  const auto a = sample3<int>(2, 3, 4);
  CHECK_THROWS_AS(sum(Target{}, a, ufx::axis{3}), ufx::shape_error);
  CHECK(error_message([&] {
          sum(Target{}, a, ufx::axis{3});
        }).find("axis 3 is out of bounds for array of dimension 3") != std::string::npos);
  CHECK(error_message([&] { sum(Target{}, a, ufx::axis{-4}); }).find("axis -4 is out of bounds") != std::string::npos);
  CHECK_THROWS_AS(sum(Target{}, a, ufx::axis{0, -3}), ufx::shape_error);
  CHECK(error_message([&] {
          sum(Target{}, a, ufx::axis{1, 1});
        }).find("duplicate value in 'axis'") != std::string::npos);
}

TEST_CASE_TEMPLATE("a vector reduced along axis 0 gives a scalar, or a one-element vector with keepdims", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto sum = ufx::reducer(ufx::plus{}, 0.0f);
  const std::vector<float> x{1, 2, 3, 4};
  const float s = sum(Target{}, x, ufx::axis{0});
  CHECK(s == 10.0f);
  const std::vector<float> k = sum(Target{}, x, ufx::keepdims);
  CHECK(k == std::vector<float>{10.0f});
}

TEST_CASE_TEMPLATE("Eigen axis reductions keep Eigen's shapes, as colwise() and rowwise() do", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto sum = ufx::reducer(ufx::plus{}, 0.0);
  Eigen::MatrixXd A(5, 7);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 7; ++j) A(i, j) = 10 * i + j;
  Eigen::MatrixXd c = sum(Target{}, A, ufx::axis{0});
  static_assert(std::is_same_v<decltype(sum(Target{}, A, ufx::axis{0})), Eigen::MatrixXd>);
  REQUIRE(c.rows() == 1);
  REQUIRE(c.cols() == 7);
  CHECK(c == A.colwise().sum());
  Eigen::MatrixXd r = sum(Target{}, A, ufx::axis{1});
  REQUIRE(r.rows() == 5);
  REQUIRE(r.cols() == 1);
  CHECK(r == A.rowwise().sum());
  CHECK(sum(Target{}, A) == A.sum());
  Eigen::ArrayXXd arr = A.array();
  auto ra = sum(Target{}, arr, ufx::axis{1});
  static_assert(std::is_same_v<decltype(ra), Eigen::ArrayXXd>);
  CHECK((ra == arr.rowwise().sum()).all());
}

TEST_CASE_TEMPLATE("strided Eigen inputs (blocks, transposes, row-major) reduce in place", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto sum = ufx::reducer(ufx::plus{}, 0.0);
  Eigen::MatrixXd A(40, 300);
  for (int i = 0; i < 40; ++i)
    for (int j = 0; j < 300; ++j) A(i, j) = (i * 31 + j * 17) % 13 - 6;
  const auto blk = A.block(3, 5, 30, 290);
  CHECK(sum(Target{}, blk) == blk.sum());
  CHECK(Eigen::MatrixXd(sum(Target{}, blk, ufx::axis{0})) == blk.colwise().sum());
  CHECK(Eigen::MatrixXd(sum(Target{}, blk, ufx::axis{1})) == blk.rowwise().sum());
  CHECK(Eigen::MatrixXd(sum(Target{}, A.transpose(), ufx::axis{0})) == A.transpose().colwise().sum());
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> Ar = A;
  CHECK(Eigen::MatrixXd(sum(Target{}, Ar, ufx::axis{0})) == A.colwise().sum());
  CHECK(Eigen::MatrixXd(sum(Target{}, Ar.block(1, 2, 20, 200), ufx::axis{1})) ==
        A.block(1, 2, 20, 200).rowwise().sum());
}

TEST_CASE_TEMPLATE("minimum and maximum propagate NaN as np.minimum and np.maximum do", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const float inf = std::numeric_limits<float>::infinity();
  auto lo = ufx::reducer(ufx::minimum, inf);
  auto hi = ufx::reducer(ufx::maximum, -inf);
  for (int n : {1, 2, 33, 1000, 300007}) { // the largest splits across threads on ufx::host
    for (int at : {0, n / 2, n - 1}) {
      CAPTURE(n);
      CAPTURE(at);
      auto x = small_ints(n);
      x[static_cast<std::size_t>(at)] = nan_f;
      CHECK(std::isnan(lo(Target{}, x)));
      CHECK(std::isnan(hi(Target{}, x)));
    }
    const auto x = small_ints(n);
    CHECK(lo(Target{}, x) == -3.0f);
    CHECK(hi(Target{}, x) == (n >= 7 ? 3.0f : static_cast<float>(n - 1 - 3)));
  }
  ufx::ndarray<float, 2> m({3, 4}, 1.0f);
  m(1, 2) = nan_f;
  m(2, 0) = -5.0f;
  const auto cols = lo(Target{}, m, ufx::axis{0});
  CHECK(cols(0) == -5.0f);
  CHECK(cols(1) == 1.0f);
  CHECK(std::isnan(cols(2)));
  const auto rows = hi(Target{}, m, ufx::axis{1});
  CHECK(rows(0) == 1.0f);
  CHECK(std::isnan(rows(1)));
  CHECK(rows(2) == 1.0f);
}

TEST_CASE_TEMPLATE("small integer and bool sums widen to 64 bits as NumPy's; others keep their types", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  std::vector<std::int8_t> small(1000, 100);
  const auto s8 = ufx::reduce(Target{}, small, ufx::plus{}, 0);
  static_assert(std::is_same_v<decltype(s8), const std::int64_t>); // np.add.reduce of int8: int64
  CHECK(s8 == 100000);
  std::vector<std::uint32_t> u{4000000000u, 100u, 5u};
  CHECK(ufx::reduce(Target{}, u, ufx::maximum, 0u) == 4000000000u);
  CHECK(ufx::reduce(Target{}, u, ufx::minimum, ~0u) == 5u);
  ufx::ndarray<bool, 1> flags({5}, true);
  CHECK(ufx::reduce(Target{}, flags, ufx::logical_and, true) == true);
  CHECK(ufx::reduce(Target{}, flags, ufx::plus{}, 0) == 5); // bool sums count, as np.sum does
  flags(3) = false;
  CHECK(ufx::reduce(Target{}, flags, ufx::logical_and, true) == false);
  CHECK(ufx::reduce(Target{}, flags, ufx::logical_or, false) == true);
  std::vector<double> d(100001, 0.5);
  CHECK(ufx::reduce(Target{}, d, ufx::plus{}, 0.0) == 50000.5);
  std::vector<long long> big{1ll << 40, 1ll << 41};
  CHECK(ufx::reduce(Target{}, big, ufx::plus{}, 0ll) == (1ll << 40) + (1ll << 41));
}

TEST_CASE_TEMPLATE("out writes an axis reduction into existing containers", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto sum = ufx::reducer(ufx::plus{}, 0);
  const auto a = sample3<int>(3, 4, 5);
  const auto ref = reference<int>(a, 2, ufx::plus{}, 0);
  ufx::ndarray<int, 2> dst({3, 5}, -1);
  sum(Target{}, a, ufx::axis{1}, ufx::out(dst));
  CHECK(values_of(dst) == values_of(ref));
  ufx::ndarray<long long, 3> keep({3, 1, 5}, -1); // keepdims shape, a wider type (same kind)
  sum(Target{}, a, ufx::axis{1}, ufx::out(keep));
  CHECK(values_of(keep) == values_of(ref));
  Eigen::MatrixXd A = Eigen::MatrixXd::Constant(4, 6, 1.5);
  Eigen::RowVectorXd cs(6);
  ufx::reduce(Target{}, A, ufx::plus{}, 0.0, ufx::axis{0}, ufx::out(cs));
  CHECK(cs == A.colwise().sum());
  Eigen::MatrixXd big = Eigen::MatrixXd::Zero(8, 8); // into a block of a bigger matrix
  ufx::reduce(Target{}, A, ufx::plus{}, 0.0, ufx::axis{1}, ufx::out(big.block(2, 3, 4, 1)));
  CHECK(big.block(2, 3, 4, 1) == A.rowwise().sum());
  CHECK(big.sum() == A.sum());
  ufx::ndarray<int, 0> scalar(std::array<ufx::index_t, 0>{});
  sum(Target{}, a, ufx::out(scalar));
  CHECK(scalar() == reference<int>(a, 7, ufx::plus{}, 0)[0]);
  // a destination inside the input: the input is read as it was, as NumPy does
  ufx::ndarray<int, 2> sq({4, 4});
  for (int i = 0; i < 16; ++i) sq.data()[i] = i;
  const auto row_sums = sum(ufx::serial, sq, ufx::axis{1});
  ufx::ndview<int, 1> first_col_upwards(sq.data() + 12, {4}, {-4}); // row 0's sum lands in row 3
  sum(Target{}, sq, ufx::axis{1}, ufx::out(first_col_upwards));
  for (int i = 0; i < 4; ++i) CHECK(first_col_upwards(i) == row_sums(i));
  ufx::ndarray<int, 1> wrong({4});
  CHECK_THROWS_AS(sum(Target{}, a, ufx::axis{1}, ufx::out(wrong)), ufx::shape_error);
  CHECK(error_message([&] { sum(Target{}, a, ufx::axis{1}, ufx::out(wrong)); }).find("wrong number of dimensions") !=
        std::string::npos);
  CHECK(error_message([&] { sum(Target{}, a, ufx::axis{1}, ufx::out(dst)); }) == "<no exception>");
  ufx::ndarray<int, 2> wrong2({3, 4});
  CHECK(error_message([&] { sum(Target{}, a, ufx::axis{1}, ufx::out(wrong2)); }).find("(3,4)") != std::string::npos);
}

TEST_CASE_TEMPLATE("device operands give device arrays and scalars copied back", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  if constexpr (!ufx::is_device_target_v<Target>) return;
  else {
    auto sum = ufx::reducer(ufx::plus{}, 0);
    const auto a = sample3<int>(4, 5, 6);
    auto d = ufx::to_device(a, Target{});
    CHECK(sum(d) == reference<int>(a, 7, ufx::plus{}, 0)[0]);
    auto r = sum(d, ufx::axis{0, 2});
    static_assert(std::is_same_v<decltype(r), ufx::device_array<std::int64_t, 1>>); // np.sum of int32: int64
    CHECK(r.space() == Target{}.space());
    CHECK(values_of(r.to_host()) == values_of(reference<int>(a, 5, ufx::plus{}, 0)));
    CHECK(sum(ufx::host, d) == sum(d)); // a host target stages the device operand back
  }
}

TEST_CASE_TEMPLATE("host-memory inputs reach device targets staged, never as host pointers", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const auto x = small_ints(1000);
  const auto before = ufx::detail::sim_stats();
  const float s = ufx::reduce(Target{}, x, ufx::plus{}, 0.0f);
  const auto after = ufx::detail::sim_stats();
  CHECK(s == -3.0f); // 1000 = 142 * 7 + 6: whole cycles sum to 0, then -3 -2 -1 0 1 2
  const long staged = after.host_to_device - before.host_to_device;
  CHECK(staged == (std::is_same_v<Target, ufx::sim_t> ? 1 : 0));
  CHECK(after.live_allocations == before.live_allocations);
  if constexpr (std::is_same_v<Target, ufx::sim_t>) {
    // the launch check itself: a host pointer handed to the sim reduction is caught, with its operand named
    ufx::detail::layout<2> L;
    L.rank = 1;
    L.shape[0] = 10;
    L.stride[1][0] = 1;
    const auto plan = ufx::detail::make_reduce_plan(L, 1u, 1);
    using kernel =
        ufx::detail::reduce_body<float, ufx::detail::identity, ufx::plus, ufx::detail::array_acc<const float>>;
    const kernel k{ufx::detail::identity{}, ufx::plus{},
                   ufx::detail::make_tuple(ufx::detail::array_acc<const float>{x.data()})};
    auto out = ufx::device_array<float, 1>({1}, ufx::sim);
    CHECK(error_message([&] {
            ufx::detail::reduce_hook<ufx::sim_t>::run(ufx::sim, plan, k, out.data(), ufx::detail::pass_through<float>{},
                                                      0.0f);
          }).find("input 0 is not in ufx::sim device 0 memory (it points to host memory") != std::string::npos);
  }
}

TEST_CASE_TEMPLATE("transform_reduce maps broadcast inputs without materialising them", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  std::vector<double> x(1001), y(1001);
  for (int i = 0; i < 1001; ++i) x[i] = i % 5 - 2, y[i] = i % 3;
  double dot = 0, l1 = 0;
  for (int i = 0; i < 1001; ++i) dot += x[i] * y[i], l1 += std::abs(x[i]);
  CHECK(ufx::transform_reduce(Target{}, x, y, mul_f{}, ufx::plus{}, 0.0) == dot);
  CHECK(ufx::transform_reduce(Target{}, x, abs_f{}, ufx::plus{}, 0.0) == l1);
  CHECK(ufx::transform_reduce(Target{}, x, 2.0, mul_f{}, ufx::plus{}, 0.0) == 2 * [&] {
    double s = 0;
    for (double v : x) s += v;
    return s;
  }());
  // (3,1) * (1,4) broadcast to (3,4), reduced along each axis
  ufx::ndarray<double, 2> col({3, 1}), row({1, 4});
  for (int i = 0; i < 3; ++i) col(i, 0) = i + 1;
  for (int j = 0; j < 4; ++j) row(0, j) = 10 * (j + 1);
  const auto per_row = ufx::transform_reduce(Target{}, col, row, mul_f{}, ufx::plus{}, 0.0, ufx::axis{1});
  REQUIRE(per_row.shape() == std::array<ufx::index_t, 1>{3});
  for (int i = 0; i < 3; ++i) CHECK(per_row(i) == (i + 1) * 100.0);
  const auto per_col =
      ufx::transform_reduce(Target{}, col, row, mul_f{}, ufx::maximum, 0.0, ufx::axis{0}, ufx::keepdims);
  REQUIRE(per_col.shape() == std::array<ufx::index_t, 2>{1, 4});
  for (int j = 0; j < 4; ++j) CHECK(per_col(0, j) == 30.0 * (j + 1));
  CHECK_THROWS_AS(ufx::transform_reduce(Target{}, x, std::vector<double>(3), mul_f{}, ufx::plus{}, 0.0),
                  ufx::shape_error);
}

namespace {
struct throw_at_f { // |x|, and an error at the element whose value is `at`
  float at;
  float operator()(float v) const {
    if (v == at) throw std::runtime_error("bad element " + std::to_string(v));
    return v < 0 ? -v : v;
  }
};
} // namespace

TEST_CASE_TEMPLATE("an exception from a reduction's map reaches the caller, from every leaf and row", Target,
                   ufx::serial_t, ufx::host_t) {
  // full reductions run through the CPU leaves, axis reductions through the rows; both are compiled
  // twice where the build targets the x86-64 baseline (config.hpp, UFX_HOST_CLONES)
  for (int n : {1000, 4097, 1 << 19}) {
    CAPTURE(n);
    std::vector<float> x(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i % 1000) - 500.f;
    for (float at : {-500.f, 17.f, 499.f}) {
      CAPTURE(at);
      CHECK(error_message([&] { ufx::transform_reduce(Target{}, x, throw_at_f{at}, ufx::plus{}, 0.f); }) ==
            "bad element " + std::to_string(at));
      const ufx::ndview<const float, 2> m(x.data(), {n / 100, 100});
      CHECK(error_message([&] {
              ufx::transform_reduce(Target{}, m, throw_at_f{at}, ufx::plus{}, 0.f, ufx::axis{0});
            }) == "bad element " + std::to_string(at));
    }
    CHECK(ufx::transform_reduce(Target{}, x, throw_at_f{1e9f}, ufx::plus{}, 0.f) > 0.f);
  }
}

TEST_CASE_TEMPLATE("argmin and argmax find the first occurrence, and NaN first", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  for (int n : {1, 2, 31, 513, 300007}) {
    CAPTURE(n);
    auto x = small_ints(n);
    CHECK(ufx::argmin(Target{}, x) == 0); // i % 7 - 3 is smallest first at i = 0, largest at i = 6
    CHECK(ufx::argmax(Target{}, x) == (n > 6 ? 6 : n - 1));
    if (n > 2) {
      x[static_cast<std::size_t>(n - 2)] = nan_f;
      x[static_cast<std::size_t>(n - 1)] = nan_f;
      CHECK(ufx::argmin(Target{}, x) == n - 2);
      CHECK(ufx::argmax(Target{}, x) == n - 2);
    }
  }
  ufx::ndarray<int, 2> m({3, 4}, 0);
  m(0, 3) = -1;
  m(2, 3) = -1;
  m(1, 1) = 7;
  m(2, 2) = 7;
  CHECK(ufx::argmin(Target{}, m) == 3);
  CHECK(ufx::argmax(Target{}, m) == 5);
  const auto c = ufx::argmin(Target{}, m, ufx::axis{0});
  static_assert(std::is_same_v<decltype(c), const ufx::ndarray<ufx::index_t, 1>>);
  CHECK(values_of(c) == std::vector<double>{0, 0, 0, 0});
  const auto r = ufx::argmax(Target{}, m, ufx::axis{-1});
  CHECK(values_of(r) == std::vector<double>{0, 1, 2});
  Eigen::MatrixXf E = Eigen::MatrixXf::Zero(3, 2);
  E(2, 0) = 4;
  E(1, 1) = 5;
  const auto ec = ufx::argmax(Target{}, E, ufx::axis{0}); // Eigen's shape: 1 x cols
  CHECK(ec.rows() == 1);
  CHECK(ec(0, 0) == 2);
  CHECK(ec(0, 1) == 1);
  CHECK(ufx::argmax(Target{}, E) == 3); // flat C order: (1, 1)
  CHECK_THROWS_AS(ufx::argmin(Target{}, std::vector<float>{}), ufx::value_error);
  CHECK(error_message([&] {
          ufx::argmax(Target{}, std::vector<float>{});
        }).find("attempt to get argmax of an empty sequence") != std::string::npos);
}

TEST_CASE_TEMPLATE("host reductions are bitwise those of serial, for any split", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  if constexpr (!std::is_same_v<Target, ufx::host_t>) return;
  else {
    std::vector<float> x(1 << 20);
    std::uint32_t s = 1;
    for (float& v : x) v = static_cast<float>((s = s * 1664525u + 1013904223u) >> 8) / 16777216.0f - 0.5f;
    CHECK(ufx::reduce(ufx::host, x, ufx::plus{}, 0.0f) == ufx::reduce(ufx::serial, x, ufx::plus{}, 0.0f));
    ufx::ndview<const float, 2> m(x.data(), {1024, 1024});
    CHECK(values_of(ufx::reduce(ufx::host, m, ufx::plus{}, 0.0f, ufx::axis{0})) ==
          values_of(ufx::reduce(ufx::serial, m, ufx::plus{}, 0.0f, ufx::axis{0})));
    CHECK(values_of(ufx::reduce(ufx::host, m, ufx::plus{}, 0.0f, ufx::axis{1})) ==
          values_of(ufx::reduce(ufx::serial, m, ufx::plus{}, 0.0f, ufx::axis{1})));
    ufx::ndview<const float, 2> tall(x.data(), {1 << 18, 4});
    CHECK(values_of(ufx::reduce(ufx::host, tall, ufx::plus{}, 0.0f, ufx::axis{0})) ==
          values_of(ufx::reduce(ufx::serial, tall, ufx::plus{}, 0.0f, ufx::axis{0})));
  }
}

TEST_CASE_TEMPLATE("a full reduction of dense inputs (no plan) is bitwise the planned one (ufx::cuda: within rounding)",
                   Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  // Dense host inputs of the loop's shape take the CPU targets' plan-free path (cpu_reduce_dense);
  // a (1,) operand broadcast along the loop sends the same values through the planned path.
  const Target t{};
  for (const std::int64_t n : {std::int64_t{1}, std::int64_t{7}, std::int64_t{64}, std::int64_t{1000},
                               std::int64_t{4097}, (std::int64_t{1} << 16) + 3, (std::int64_t{1} << 20) + 1}) {
    CAPTURE(n);
    std::vector<float> x(static_cast<std::size_t>(n));
    std::uint32_t s = 7;
    for (float& v : x) v = static_cast<float>((s = s * 1664525u + 1013904223u) >> 8) / 16777216.0f - 0.3f;
    const std::vector<float> one{1.0f};
    // The contract (docs/reduce.md, "Targets and device data"): on the CPU targets and the sim, how
    // the inputs come (dense or planned, a scalar or an array, mapped or not) never changes a sum's
    // bits. On ufx::cuda CUB's order depends on the input's kind (a plain pointer is read in vectors,
    // a mapped input through an iterator), so the paths agree within float rounding: every sum
    // within 64 u sum|x| (u = 2^-24) of the exact one, as each element passes through a few dozen
    // additions at most at these sizes (a thread's items, a block's tree, the blocks' tree).
    double exact = 0, magnitude = 0;
    for (const float v : x) exact += v, magnitude += std::abs(v);
    const double bound = 64 * 0x1p-24 * magnitude;
    const auto same_sum = [&](float a, float b) {
      if constexpr (std::is_same_v<Target, ufx::cuda_t>)
        return std::abs(a - exact) <= bound && std::abs(b - exact) <= bound;
      else return a == b;
    };
    const float dense = ufx::reduce(t, x, ufx::plus{}, 0.0f);
    const float dense_scalar = ufx::transform_reduce(t, x, 1.0f, mul_f{}, ufx::plus{}, 0.0f);
    const float planned = ufx::transform_reduce(t, x, one, mul_f{}, ufx::plus{}, 0.0f);
    CHECK(same_sum(dense, planned));
    CHECK(same_sum(dense_scalar, planned));
    ufx::ndview<const float, 2> m(x.data(), {1, n}); // rank 2, dense: the plan-free path too
    CHECK(same_sum(ufx::reduce(t, m, ufx::plus{}, 0.0f), planned));
    CHECK(ufx::reduce(t, m, ufx::plus{}, 0.0f) == dense); // the same path: the same bits everywhere
    if constexpr (!Target::is_device) // the CPU targets share one tree; the device lanes have their own
      CHECK(ufx::reduce(t, x, ufx::plus{}, 0.0f) == ufx::reduce(ufx::serial, x, ufx::plus{}, 0.0f));
    // init and a user's operator with an identity (op(identity, x) seeds every partial)
    const float with_init = ufx::reducer(ufx::plus{}, 0.0f)(t, x, 2.5f);
    if constexpr (std::is_same_v<Target, ufx::cuda_t>) // one more rounding: adding the init
      CHECK(std::abs(with_init - (2.5 + exact)) <= bound + std::abs(2.5 + exact) * 0x1p-24);
    else CHECK(with_init == 2.5f + planned);
    const auto user = ufx::reducer([] UFX_HD(float a, float b) { return a + b; }, 0.0f);
    CHECK(same_sum(user(t, x), ufx::transform_reduce(
                                   t, x, one, mul_f{}, [] UFX_HD(float a, float b) { return a + b; }, 0.0f)));
    // an output overlapping the input is read as it was
    std::vector<float> y = x;
    const float expect = ufx::reduce(t, x, ufx::plus{}, 0.0f);
    ufx::ndview<float, 0> first(y.data(), {});
    ufx::reduce(t, y, ufx::plus{}, 0.0f, ufx::out(first));
    CHECK(y[0] == expect);
  }
}

namespace {
// The bits of a user's `a + b` (identity 0), reducer(ufx::plus{}, 0) and ufx::sum over the same
// values: on the CPU targets and the sim one order serves all three (docs/reduce.md, "How each
// target runs a reduction"), so they are bitwise equal; on ufx::cuda CUB sums with ufx::plus in its
// own order, so within rounding there.
template <class T, class Target>
void user_plus_has_plus_bits(const Target& t) {
  const auto user = ufx::reducer([] UFX_HD(T a, T b) { return a + b; }, T{0});
  const auto plus = ufx::reducer(ufx::plus{}, T{0});
  const auto same_bits = [](T a, T b) { return std::memcmp(&a, &b, sizeof(T)) == 0; };
  // the generic leaf's lanes (32 floats or 16 doubles at the baseline, 64 / 32 with AVX), leaves of
  // 16 lanes' elements, the host's threads from 2^17
  for (const std::int64_t n :
       {1, 2, 7, 15, 16, 17, 31, 32, 33, 63, 65, 100, 511, 512, 513, 1000, 1031, 4096, 4099, 70001, (1 << 17) + 3}) {
    CAPTURE(n);
    std::vector<T> x(static_cast<std::size_t>(n));
    std::uint32_t s = static_cast<std::uint32_t>(n) + 11;
    for (T& v : x) v = static_cast<T>((s = s * 1664525u + 1013904223u) >> 8) / T(16777216) - T(0.45);
    const T u = user(t, x), p = plus(t, x), sum = ufx::sum(t, x);
    if constexpr (std::is_same_v<Target, ufx::cuda_t>) {
      // the reference by Neumaier's compensated sum: a plain double loop is itself off by up to 1.5e-8 here (33x
      // the bound), as an H200 run of this check showed at df501fb, n = 131075 (the device's sum was within 1e-12)
      double exact = 0, carry = 0, magnitude = 0;
      for (const T v : x) {
        const double d = static_cast<double>(v), next = exact + d;
        carry += std::abs(exact) >= std::abs(d) ? (exact - next) + d : (d - next) + exact;
        exact = next, magnitude += std::abs(d);
      }
      exact += carry;
      const double bound = 64 * static_cast<double>(std::numeric_limits<T>::epsilon()) * magnitude;
      CHECK(std::abs(static_cast<double>(u) - exact) <= bound);
      CHECK(same_bits(p, sum));
    } else {
      CHECK(same_bits(u, p));
      CHECK(same_bits(u, sum));
      if constexpr (!Target::is_device) CHECK(same_bits(u, user(ufx::serial, x))); // host is serial's
    }
  }
}
} // namespace

TEST_CASE_TEMPLATE("a user's a + b gives ufx::plus's and ufx::sum's bits, at every size", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  user_plus_has_plus_bits<float>(Target{});
  user_plus_has_plus_bits<double>(Target{});
}

namespace {
std::uint64_t splitmix64(std::uint64_t& s) {
  s += 0x9E3779B97F4A7C15ull;
  std::uint64_t z = s;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
} // namespace

TEST_CASE_TEMPLATE("a float32 sum of 2^22 normals is no less accurate than np.sum's", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  std::ifstream f(UFX_TEST_DATA_DIR "/numpy_reduce_cases.txt");
  REQUIRE(f.good());
  std::string line, word;
  std::uint64_t seed = 0;
  long n = 0;
  double ref = 0, np_sum = 0, np_err = 0;
  while (std::getline(f, line)) {
    std::istringstream in(line);
    if (in >> word && word == "accuracy") {
      in >> seed >> n >> ref >> np_sum >> np_err;
      break;
    }
  }
  REQUIRE(n == (1 << 22));
  // The generator of tests/gen_numpy_reduce.py: splitmix64 + Box-Muller with the C library's log and cos.
  std::vector<float> x(static_cast<std::size_t>(n));
  std::uint64_t s = seed;
  for (float& v : x) {
    const std::uint64_t a = splitmix64(s), b = splitmix64(s);
    const double u1 = static_cast<double>((a >> 11) + 1) * (1.0 / 9007199254740992.0);
    const double u2 = static_cast<double>(b >> 11) * (1.0 / 9007199254740992.0);
    v = static_cast<float>(std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2));
  }
  double exact = 0, c = 0; // Neumaier's compensated sum: the float64 reference
  for (float v : x) {
    const double t = exact + v;
    c += std::abs(exact) >= std::abs(v) ? (exact - t) + v : (v - t) + exact;
    exact = t;
  }
  exact += c;
  REQUIRE_MESSAGE(std::abs(exact - ref) <= 1e-12 * std::abs(ref), "the regenerated data differs from NumPy's");
  const float ours = ufx::reducer([] UFX_HD(float p, float q) { return p + q; }, 0.0f)(Target{}, x);
  const double err = std::abs(static_cast<double>(ours) - ref) / std::abs(ref);
  MESSAGE("relative error " << err << " (np.sum " << np_err << ")");
  CHECK(err <= np_err);
  const float naive = [&] {
    float t = 0;
    for (float v : x) t += v;
    return t;
  }();
  CHECK(std::abs(static_cast<double>(naive) - ref) / std::abs(ref) > 10 * np_err); // the test can tell orders apart
}

TEST_CASE_TEMPLATE("long float sums on the CPU targets are accumulated in double and rounded once", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  if constexpr (Target::is_device) return; // the device lanes sum in float (docs/reduce.md, "Accuracy")
  else {
    const Target t{};
    // 2^23 + 37 values in [-1, 1): the sum cancels to about a thousandth of the sum of magnitudes,
    // where a float pairwise order is off by a few ulps of the result
    const std::size_t n = (std::size_t{1} << 23) + 37;
    std::vector<float> x(n + 1);
    std::uint64_t s = 11;
    for (float& v : x) v = static_cast<float>(splitmix64(s) >> 40) / 8388608.0f - 1.0f;
    auto exact_of = [](const float* p, std::size_t m, auto f) {
      double e = 0, c = 0; // Neumaier
      for (std::size_t i = 0; i < m; ++i) {
        const double v = f(p[i]), u = e + v;
        c += std::abs(e) >= std::abs(v) ? (e - u) + v : (v - u) + e;
        e = u;
      }
      return e + c;
    };
    auto within_half_ulp = [](float got, double exact) {
      const float r = static_cast<float>(exact);
      const double ulp = static_cast<double>(std::nextafter(std::abs(r), INFINITY)) - std::abs(r);
      CAPTURE(got);
      CAPTURE(exact);
      CHECK(std::abs(static_cast<double>(got) - exact) <= 0.5 * ulp * (1 + 1e-6));
    };
    const double exact = exact_of(x.data(), n, [](float v) { return double(v); });
    const std::vector<float> xs(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(n));
    const float sum = ufx::reduce(t, xs, ufx::plus{}, 0.0f);
    within_half_ulp(sum, exact);
    // the same through the planned path (a broadcast operand), an unaligned start, an axis, and |x|
    const std::vector<float> one{1.0f};
    CHECK(ufx::transform_reduce(t, xs, one, mul_f{}, ufx::plus{}, 0.0f) == sum);
    within_half_ulp(
        ufx::reduce(t, ufx::ndview<const float, 1>(x.data() + 1, {static_cast<ufx::index_t>(n)}), ufx::plus{}, 0.0f),
        exact_of(x.data() + 1, n, [](float v) { return double(v); }));
    const auto rows = ufx::reduce(t, ufx::ndview<const float, 2>(x.data(), {1, static_cast<ufx::index_t>(n)}),
                                  ufx::plus{}, 0.0f, ufx::axis{1});
    CHECK(rows(0) == sum);
    within_half_ulp(ufx::transform_reduce(t, xs, abs_f{}, ufx::plus{}, 0.0f),
                    exact_of(x.data(), n, [](float v) { return double(std::abs(v)); }));
    CHECK(ufx::reduce(t, xs, ufx::plus{}, 0.0f) == ufx::reduce(ufx::serial, xs, ufx::plus{}, 0.0f));
    // init joins the rounded sum in float, as a float sum's does
    CHECK(ufx::reducer(ufx::plus{}, 0.0f)(t, xs, 2.5f) == 2.5f + sum);
    // a user's operator keeps its own accumulator: float, a pairwise order
    const float user = ufx::reducer([] UFX_HD(float a, float b) { return a + b; }, 0.0f)(t, xs);
    CHECK(std::abs(static_cast<double>(user) - exact) <=
          1e-5 * exact_of(x.data(), n, [](float v) { return double(std::abs(v)); }));
  }
}

TEST_CASE_TEMPLATE("long axis reductions (many lanes per output on devices) match serial along every axis", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  ufx::ndarray<long long, 3> a({300, 7, 260});
  long long v = 1;
  for (auto& x : a) x = (v = (v * 48271) % 2147483647) % 1000 - 500;
  auto sum = ufx::reducer(ufx::plus{}, 0LL);
  CHECK(sum(Target{}, a) == sum(ufx::serial, a));
  CHECK(sum(Target{}, a, ufx::axis{0}) == sum(ufx::serial, a, ufx::axis{0})); // outputs innermost in memory
  CHECK(sum(Target{}, a, ufx::axis{2}) == sum(ufx::serial, a, ufx::axis{2})); // each output's run contiguous
  CHECK(sum(Target{}, a, ufx::axis{0, 2}) == sum(ufx::serial, a, ufx::axis{0, 2}));
  CHECK(ufx::argmax(Target{}, a, ufx::axis{0}) == ufx::argmax(ufx::serial, a, ufx::axis{0}));
}

// ---- the row device path (device/row_reduce.hpp): each output a contiguous row, a group of
// threads per row, no partials in device memory

namespace {
long row_launches() { return ufx::detail::testing().row_reduce.launches.load(); }

/// A float or double sum of x[0..m) in the row body's documented order: chunks of V = 16 / sizeof(T)
/// positions, lane l of G taking its full chunks l, l + G, ... four at a time ((a0 + a1) + (a2 + a3)
/// pushed into a binary counter of 2^L-push trees, L = 8 for 4-byte accumulators, else 4), the
/// full chunks left one by one, the short last chunk last; then the lanes' partials as a tree (l
/// with l + h, h = G/2, ..., 1).
template <class T>
T row_order_sum(const T* x, long m) {
  constexpr long V = 16 / sizeof(T);
  constexpr int L = sizeof(T) <= 4 ? 8 : 4;
  const long chunks = (m + V - 1) / V, full = m / V;
  long G = 1;
  while (G < chunks && G < 256) G *= 2;
  auto chunk = [&](long c) {
    const long p = c * V, len = std::min(V, m - p);
    T a = x[p];
    for (long i = 1; i < len; ++i) a = a + x[p + i];
    return a;
  };
  std::vector<T> part;
  for (long l = 0; l < std::min(G, chunks); ++l) {
    T level[L] = {}, top{};
    long count = 0;
    auto push = [&](T a) {
      bool carry = true;
      for (int q = 0; q < L && carry; ++q) {
        if ((count >> q) & 1) a = level[q] + a;
        else {
          level[q] = a;
          carry = false;
        }
      }
      if (carry) top = (count >> L) > 0 ? top + a : a;
      ++count;
    };
    long c = l;
    for (; c + 3 * G < full; c += 4 * G) push((chunk(c) + chunk(c + G)) + (chunk(c + 2 * G) + chunk(c + 3 * G)));
    for (; c < full; c += G) push(chunk(c));
    if (m % V && full % G == l) push(chunk(full));
    T r = top;
    bool have = (count >> L) > 0;
    for (int q = L - 1; q >= 0; --q)
      if ((count >> q) & 1) {
        r = have ? r + level[q] : level[q];
        have = true;
      }
    part.push_back(r);
  }
  const long active = static_cast<long>(part.size());
  for (long h = G / 2; h >= 1; h /= 2)
    for (long l = 0; l < h; ++l)
      if (l + h < active)
        part[static_cast<std::size_t>(l)] = part[static_cast<std::size_t>(l)] + part[static_cast<std::size_t>(l + h)];
  return part[0];
}

/// Whether the row body takes n rows of m elements of `bytes` each (plan_row_reduce).
bool row_path(long n, long m, long bytes) {
  const long V = bytes >= 16 ? 1 : 16 / bytes, chunks = (m + V - 1) / V;
  long G = 1;
  while (G < chunks && G < 256) G *= 2;
  return n >= 1 && m >= 2 && !(G == 256 && n < 512); // an extent-1 axis is no reduction
}

struct user_plus_f {
  UFX_HD float operator()(float a, float b) const { return a + b; }
};
struct centred_product {
  UFX_HD float operator()(float x, float c, float y) const { return (x - c) * y; }
};
} // namespace

TEST_CASE_TEMPLATE("the row device reduction sums each row in its documented order, where it applies", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  if constexpr (!ufx::is_device_target_v<Target>) return;
  else {
    const Target t{};
    // one thread per row (m <= 4), groups of 2..128, a block per row (m > 512 floats) with rows
    // enough (600, 513) or too few (100: the lanes), odd lengths (rows not 16-byte aligned)
    for (const auto& nm :
         {std::pair<int, int>{1, 1}, {5000, 3}, {33, 17}, {700, 1027}, {3, 5}, {600, 4096}, {513, 4099}, {100, 5000}}) {
      const int n = nm.first, m = nm.second; // not a structured binding: CAPTURE's lambda takes it (clang 14)
      CAPTURE(n);
      CAPTURE(m);
      ufx::ndarray<float, 2> a({n, m});
      ufx::ndarray<double, 2> ad({n, m});
      ufx::ndarray<int, 2> ai({n, m});
      std::uint32_t s = 12345;
      for (ufx::index_t i = 0; i < a.size(); ++i) {
        s = s * 1664525u + 1013904223u;
        a.data()[i] = static_cast<float>(s >> 8) * 0x1p-23f - 1.f;
        ad.data()[i] = a.data()[i];
        ai.data()[i] = static_cast<int>(s >> 20) - 2048;
      }
      const bool rows = row_path(n, m, 4), rows_d = row_path(n, m, 8);
      const auto da = ufx::to_device(a, t);
      long before = row_launches();
      const auto r = ufx::sum(da, ufx::axis{1}).to_host();
      const auto u = ufx::reduce(da, user_plus_f{}, 0.f, ufx::axis{1}).to_host(); // seeded: 0 + x
      CHECK(row_launches() - before == (rows ? 2 : 0));
      const auto ref = ufx::sum(ufx::serial, a, ufx::axis{1});
      bool order = true, close = true;
      for (int i = 0; i < n; ++i) {
        const float want = row_order_sum(a.data() + long(i) * m, m);
        if (rows) order = order && r(i) == want && u(i) == want; // bitwise, ufx::cuda too: no map to contract
        close = close && std::abs(r(i) - ref(i)) <= 1e-5f * float(m);
      }
      CHECK(order);
      CHECK(close);
      // double (chunks of 2), exact integers, the first minimum's position
      before = row_launches();
      const auto rd = ufx::sum(ufx::to_device(ad, t), ufx::axis{1}).to_host();
      const auto di = ufx::to_device(ai, t);
      const auto ri = ufx::sum(di, ufx::axis{1}).to_host();
      CHECK(row_launches() - before == (rows_d ? 1 : 0) + (rows ? 1 : 0));
      CHECK(values_of(ri) == values_of(ufx::sum(ufx::serial, ai, ufx::axis{1})));
      CHECK(values_of(ufx::argmin(di, ufx::axis{1}).to_host()) ==
            values_of(ufx::argmin(ufx::serial, ai, ufx::axis{1})));
      order = true;
      for (int i = 0; i < n && rows_d; ++i) order = order && rd(i) == row_order_sum(ad.data() + long(i) * m, m);
      CHECK(order);
      // a map of two rows and a column broadcast along them: sum((x - c) * x) with c of shape (n, 1)
      ufx::ndarray<float, 2> c({n, 1});
      for (int i = 0; i < n; ++i) c(i, 0) = 0.25f * float(i % 5);
      const auto dc = ufx::to_device(c, t);
      before = row_launches();
      const auto mp = ufx::transform_reduce(da, dc, da, centred_product{}, ufx::plus{}, 0.f, ufx::axis{1}).to_host();
      CHECK(row_launches() - before == (rows ? 1 : 0));
      const auto mp_ref =
          ufx::transform_reduce(ufx::serial, a, c, a, centred_product{}, ufx::plus{}, 0.f, ufx::axis{1});
      close = true;
      for (int i = 0; i < n; ++i) close = close && std::abs(mp(i) - mp_ref(i)) <= 1e-5f * float(m);
      CHECK(close);
      // switched off: the lanes, within rounding
      ufx::detail::testing().row_reduce.enabled = false;
      before = row_launches();
      const auto off = ufx::sum(da, ufx::axis{1}).to_host();
      ufx::detail::testing().row_reduce.enabled = true;
      CHECK(row_launches() == before);
      close = true;
      for (int i = 0; i < n; ++i) close = close && std::abs(off(i) - r(i)) <= 1e-5f * float(m);
      CHECK(close);
      // along axis 0 the outputs are columns: not rows
      before = row_launches();
      (void)ufx::sum(da, ufx::axis{0});
      CHECK(row_launches() == before);
    }
  }
}
