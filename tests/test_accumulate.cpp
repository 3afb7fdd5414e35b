// ufx::accumulate (np.ufunc.accumulate) on every target: values, axes, strided inputs, result
// containers, out and in-place scans, errors.
#include "common.hpp"

#include <ufx/eigen.hpp>

#include <cstdint>
#include <limits>

#include <ufx/reduce.hpp>

using ufx_test::error_message;

namespace {

std::vector<int> cycle(int n) {
  std::vector<int> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = i % 7 - 3;
  return v;
}

// Brute-force inclusive sum of a rank-3 array along `axis`.
template <class T>
ufx::ndarray<T, 3> reference(const ufx::ndarray<T, 3>& a, int axis) {
  ufx::ndarray<T, 3> r(a.shape());
  for (ufx::index_t i = 0; i < a.extent(0); ++i)
    for (ufx::index_t j = 0; j < a.extent(1); ++j)
      for (ufx::index_t k = 0; k < a.extent(2); ++k) {
        const ufx::index_t p[3] = {i, j, k};
        if (p[axis] == 0) {
          r(i, j, k) = a(i, j, k);
        } else {
          const ufx::index_t q[3] = {axis == 0 ? i - 1 : i, axis == 1 ? j - 1 : j, axis == 2 ? k - 1 : k};
          r(i, j, k) = r(q[0], q[1], q[2]) + a(i, j, k);
        }
      }
  return r;
}

template <class T>
ufx::ndarray<T, 3> sample3(ufx::index_t n0, ufx::index_t n1, ufx::index_t n2) {
  ufx::ndarray<T, 3> a({n0, n1, n2});
  for (ufx::index_t i = 0; i < a.size(); ++i) a.data()[i] = static_cast<T>((i * 7919) % 23 - 11);
  return a;
}

} // namespace

TEST_CASE_TEMPLATE("accumulate is np.add.accumulate on vectors of every size", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  for (int n : {0, 1, 2, 7, 97, 129, 1023, 32769, 65537, 262147}) {
    CAPTURE(n);
    const auto x = cycle(n);
    const std::vector<std::int64_t> r = ufx::accumulate(Target{}, x, ufx::plus{}); // np.cumsum of int32: int64
    REQUIRE(r.size() == x.size());
    long bad = 0;
    int run = 0;
    for (int i = 0; i < n; ++i) bad += r[static_cast<std::size_t>(i)] != (run += x[static_cast<std::size_t>(i)]);
    CHECK(bad == 0);
  }
}

TEST_CASE_TEMPLATE("accumulate runs along any axis of a rank-3 array", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  for (const auto& shape : {std::array<ufx::index_t, 3>{3, 4, 5}, std::array<ufx::index_t, 3>{33, 17, 129},
                            std::array<ufx::index_t, 3>{2, 70001, 1}, std::array<ufx::index_t, 3>{4, 0, 3}}) {
    const auto a = sample3<long long>(shape[0], shape[1], shape[2]);
    CAPTURE(a.size());
    CHECK(ufx::accumulate(Target{}, a, ufx::plus{}) == reference(a, 0)); // axis 0 when none is named
    CHECK(ufx::accumulate(Target{}, a, ufx::plus{}, ufx::axis{1}) == reference(a, 1));
    CHECK(ufx::accumulate(Target{}, a, ufx::plus{}, ufx::axis{2}) == reference(a, 2));
    CHECK(ufx::accumulate(Target{}, a, ufx::plus{}, ufx::axis{-1}) == reference(a, 2));
  }
}

TEST_CASE_TEMPLATE("Eigen inputs scan down columns (axis 0) or along rows (axis 1), strided or not", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  Eigen::MatrixXd A(6, 9);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 9; ++j) A(i, j) = (i * 5 + j * 3) % 7 - 3;
  auto cumsum = [](const Eigen::MatrixXd& m, int axis) {
    Eigen::MatrixXd r = m;
    for (int i = 0; i < m.rows(); ++i)
      for (int j = 0; j < m.cols(); ++j)
        if (axis == 0 ? i > 0 : j > 0) r(i, j) += axis == 0 ? r(i - 1, j) : r(i, j - 1);
    return r;
  };
  Eigen::MatrixXd c0 = ufx::accumulate(Target{}, A, ufx::plus{}, ufx::axis{0});
  static_assert(std::is_same_v<decltype(ufx::accumulate(Target{}, A, ufx::plus{})), Eigen::MatrixXd>);
  CHECK(c0 == cumsum(A, 0));
  CHECK(Eigen::MatrixXd(ufx::accumulate(Target{}, A, ufx::plus{}, ufx::axis{1})) == cumsum(A, 1));
  const auto blk = A.block(1, 2, 4, 6);
  CHECK(Eigen::MatrixXd(ufx::accumulate(Target{}, blk, ufx::plus{}, ufx::axis{1})) == cumsum(blk, 1));
  CHECK(Eigen::MatrixXd(ufx::accumulate(Target{}, A.transpose(), ufx::plus{}, ufx::axis{0})) ==
        cumsum(A.transpose(), 0));
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> Ar = A;
  CHECK(Eigen::MatrixXd(ufx::accumulate(Target{}, Ar, ufx::plus{}, ufx::axis{0})) == cumsum(A, 0));
}

TEST_CASE_TEMPLATE("maximum.accumulate carries a NaN forward; other operators and types scan too", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> x{1, 3, 2, nan, 5, 4};
  const std::vector<float> m = ufx::accumulate(Target{}, x, ufx::maximum);
  CHECK(m[0] == 1);
  CHECK(m[1] == 3);
  CHECK(m[2] == 3);
  for (int i = 3; i < 6; ++i) CHECK(std::isnan(m[static_cast<std::size_t>(i)]));
  const std::vector<double> p = ufx::accumulate(Target{}, std::vector<double>{1, 2, 3, 4}, ufx::multiplies{});
  CHECK(p == std::vector<double>{1, 2, 6, 24});
  const std::vector<std::int8_t> small(300, 100);
  const std::vector<std::int64_t> s = ufx::accumulate(Target{}, small, ufx::plus{}); // int8 sums in int64
  CHECK(s.back() == 30000);
  ufx::ndarray<bool, 1> flags({4}, true);
  flags(2) = false;
  const auto all = ufx::accumulate(Target{}, flags, ufx::logical_and);
  CHECK(all(1) == true);
  CHECK(all(2) == false);
  CHECK(all(3) == false);
  auto running_min =
      ufx::accumulate(Target{}, std::vector<int>{5, 3, 4, 1, 2}, [] UFX_HD(int a, int b) { return a < b ? a : b; });
  CHECK(running_min == std::vector<int>{5, 3, 3, 1, 1});
}

TEST_CASE_TEMPLATE("out takes the scan, in place or overlapping its input as NumPy does", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto x = cycle(1000);
  const std::vector<std::int64_t> expect = ufx::accumulate(ufx::serial, x, ufx::plus{});
  std::vector<long long> wide(1000);
  ufx::accumulate(Target{}, x, ufx::plus{}, ufx::out(wide));
  CHECK(std::vector<std::int64_t>(wide.begin(), wide.end()) == expect);
  ufx::accumulate(Target{}, x, ufx::plus{}, ufx::out(x)); // in place (int64 into int32: same kind)
  CHECK(std::vector<std::int64_t>(x.begin(), x.end()) == expect);
  // out one element ahead of the input in the same buffer: the input is read as it was
  std::vector<int> buf{1, 2, 3, 4, 5, 0};
  ufx::ndview<int, 1> in(buf.data(), {5}), dst(buf.data() + 1, {5});
  ufx::accumulate(Target{}, in, ufx::plus{}, ufx::out(dst));
  CHECK(buf == std::vector<int>{1, 1, 3, 6, 10, 15});
  std::vector<int> wrong(999);
  CHECK_THROWS_AS(ufx::accumulate(Target{}, x, ufx::plus{}, ufx::out(wrong)), ufx::shape_error);
}

TEST_CASE_TEMPLATE("accumulate errors: an axis out of range", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const auto a = sample3<int>(2, 3, 4);
  CHECK_THROWS_AS(ufx::accumulate(Target{}, a, ufx::plus{}, ufx::axis{3}), ufx::shape_error);
  CHECK(error_message([&] {
          ufx::accumulate(Target{}, a, ufx::plus{}, ufx::axis{-4});
        }).find("axis -4 is out of bounds for array of dimension 3") != std::string::npos);
}

TEST_CASE_TEMPLATE("a device operand's scan stays on the device", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  if constexpr (!ufx::is_device_target_v<Target>) return;
  else {
    const auto a = sample3<int>(5, 6, 7);
    const auto a64 = sample3<std::int64_t>(5, 6, 7); // the same values
    auto d = ufx::to_device(a, Target{});
    auto r = ufx::accumulate(d, ufx::plus{}, ufx::axis{1});
    static_assert(std::is_same_v<decltype(r), ufx::device_array<std::int64_t, 3>>); // np.cumsum of int32: int64
    CHECK(r.to_host() == reference(a64, 1));
    CHECK(ufx::accumulate(ufx::host, d, ufx::plus{}, ufx::axis{2}).to_host() ==
          reference(a64, 2)); // results stay where the data is
  }
}
