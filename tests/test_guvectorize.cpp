// ufx::guvectorize on every target: core binding, loop broadcasting, several outputs, fixed sizes,
// zero sizes, out, device arrays, real strides, and every shape error.
#include "common.hpp"
#include "gufunc_cores.hpp"

#if __has_include(<Eigen/Core>)
#  include <ufx/eigen.hpp>
#endif

#include <ufx/guvectorize.hpp>

using ufx::index_t;
using ufx_test::error_message;

namespace {

using ufx_test::cross_f;
using ufx_test::dot_f;
using ufx_test::matmul_f;

/// "(n)->(),()": mean and (population) standard deviation, two outputs.
struct mean_std_f {
  UFX_HD void operator()(ufx::ndview<const double, 1> x, double& mean, double& sd) const {
    const index_t n = x.extent(0);
    double s = 0;
    for (index_t i = 0; i < n; ++i) s += x(i);
    mean = n > 0 ? s / static_cast<double>(n) : 0.0;
    double q = 0;
    for (index_t i = 0; i < n; ++i) q += (x(i) - mean) * (x(i) - mean);
    sd = n > 0 ? sqrt(q / static_cast<double>(n)) : 0.0;
  }
};

struct double_f {
  template <class T>
  UFX_HD void operator()(ufx::ndview<const T, 2> a, ufx::ndview<T, 2> b) const {
    for (index_t i = 0; i < a.extent(0); ++i)
      for (index_t j = 0; j < a.extent(1); ++j) b(i, j) = 2 * a(i, j);
  }
};

/// "(n)->()": the sum, so an empty core gives 0 (and shows fn ran).
struct sum_f {
  template <class T>
  UFX_HD void operator()(ufx::ndview<const T, 1> x, T& r) const {
    T s = 0;
    for (index_t i = 0; i < x.extent(0); ++i) s += x(i);
    r = s;
  }
};

/// "(n),()->(n)": scale a core by a scalar operand.
struct scale_f {
  template <class T, class S>
  UFX_HD void operator()(ufx::ndview<const T, 1> x, S s, ufx::ndview<T, 1> y) const {
    for (index_t i = 0; i < x.extent(0); ++i) y(i) = x(i) * static_cast<T>(s);
  }
};

/// "(n)->(n,p)": row i of the output is x * (j + 1); p comes only from out.
struct outer_f {
  template <class T>
  UFX_HD void operator()(ufx::ndview<const T, 1> x, ufx::ndview<T, 2> y) const {
    for (index_t i = 0; i < y.extent(0); ++i)
      for (index_t j = 0; j < y.extent(1); ++j) y(i, j) = x(i) * static_cast<T>(j + 1);
  }
};

template <class T, int R>
ufx::ndarray<T, R> iota_array(const std::array<index_t, R>& shape, T start = 0, T step = 1) {
  ufx::ndarray<T, R> a(shape);
  for (index_t i = 0; i < a.size(); ++i) a.data()[i] = start + step * static_cast<T>(i % 97);
  return a;
}

/// c = a @ b for plain row-major (m,n) and (n,p) blocks, the reference.
template <class T>
void ref_matmul(const T* a, const T* b, T* c, index_t m, index_t n, index_t p) {
  for (index_t i = 0; i < m; ++i)
    for (index_t j = 0; j < p; ++j) {
      T s = 0;
      for (index_t k = 0; k < n; ++k) s += a[i * n + k] * b[k * p + j];
      c[i * p + j] = s;
    }
}

/// How many elements of the stack c (B, m, p) differ from a @ b for stacks a (B, m, n), b (B, n, p).
template <class T>
long wrong_in_stack(const ufx::ndarray<T, 3>& a, const ufx::ndarray<T, 3>& b, const ufx::ndarray<T, 3>& c) {
  const index_t B = a.shape()[0], m = a.shape()[1], n = a.shape()[2], p = b.shape()[2];
  std::vector<T> want(static_cast<std::size_t>(m * p));
  long bad = 0;
  for (index_t i = 0; i < B; ++i) {
    ref_matmul(a.data() + i * m * n, b.data() + i * n * p, want.data(), m, n, p);
    for (index_t k = 0; k < m * p; ++k) bad += c.data()[i * m * p + k] != want[static_cast<std::size_t>(k)];
  }
  return bad;
}

} // namespace

TEST_CASE_TEMPLATE("matmul broadcasts a stack of matrices against one matrix", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto matmul = ufx::guvectorize<"(m,n),(n,p)->(m,p)">(matmul_f{});
  const auto a = iota_array<float, 3>({5, 2, 3});
  const auto b = iota_array<float, 2>({3, 4}, 1.f);
  ufx::ndarray<float, 3> c = matmul(Target{}, a, b);
  REQUIRE(c.shape() == std::array<index_t, 3>{5, 2, 4});
  float want[8];
  for (int B = 0; B < 5; ++B) {
    ref_matmul(a.data() + B * 6, b.data(), want, 2, 3, 4);
    for (int k = 0; k < 8; ++k) CHECK(c.data()[B * 8 + k] == want[k]);
  }
}

TEST_CASE_TEMPLATE("matmul broadcasts (B,1,m,n) against (C,n,p) to (B,C,m,p)", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto matmul = ufx::guvectorize<"(m,n),(n,p)->(m,p)">(matmul_f{});
  const auto a = iota_array<double, 4>({3, 1, 2, 3});
  const auto b = iota_array<double, 3>({4, 3, 5}, -7.0);
  auto c = matmul(Target{}, a, b);
  static_assert(std::is_same_v<decltype(c), ufx::ndarray<double, 4>>);
  REQUIRE(c.shape() == std::array<index_t, 4>{3, 4, 2, 5});
  long bad = 0;
  double want[10];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) {
      ref_matmul(a.data() + i * 6, b.data() + j * 15, want, 2, 3, 5);
      for (int k = 0; k < 10; ++k) bad += c.data()[(i * 4 + j) * 10 + k] != want[k];
    }
  CHECK(bad == 0);
}

TEST_CASE_TEMPLATE("a large batch of 4x4 matmuls is right on the parallel path", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto matmul = ufx::guvectorize<"(m,n),(n,p)->(m,p)">(matmul_f{});
  auto fixed = ufx::guvectorize<"(4,4),(4,4)->(4,4)">(matmul_f{});
  const index_t B = 1 << 13; // 8192 loop indices of 64 multiply-adds: above the host cutoff
  const auto a = iota_array<float, 3>({B, 4, 4});
  const auto b = iota_array<float, 3>({B, 4, 4}, 3.f);
  CHECK(wrong_in_stack(a, b, matmul(Target{}, a, b)) == 0);
  CHECK(wrong_in_stack(a, b, fixed(Target{}, a, b)) == 0);
}

TEST_CASE_TEMPLATE("run-time core sizes that host targets specialise give the generic results", Target,
                   UFX_TEST_TARGETS) {
  // Sizes 2, 3, 4 (UFX_GUFUNC_SMALL_SIZES) run a copy with the size as a constant when all
  // run-time core dimensions share it; 1 and 5 do not, nor do mixed sizes or strided cores.
  if (!ufx_test::runnable<Target>()) return;
  auto matmul = ufx::guvectorize<"(m,n),(n,p)->(m,p)">(matmul_f{});
  auto half_fixed = ufx::guvectorize<"(m,3),(3,p)->(m,p)">(matmul_f{});
  const index_t B = 7;
  const index_t sizes[][3] = {{1, 1, 1}, {2, 2, 2}, {3, 3, 3}, {4, 4, 4}, {5, 5, 5}, {4, 4, 3}, {2, 3, 4}, {3, 4, 4}};
  for (const auto& s : sizes) {
    const index_t m = s[0], n = s[1], p = s[2];
    CAPTURE(m);
    CAPTURE(n);
    CAPTURE(p);
    const auto a = iota_array<double, 3>({B, m, n}, 1.0, 0.5);
    const auto b = iota_array<double, 3>({B, n, p}, -2.0, 0.25);
    const auto c = matmul(Target{}, a, b);
    REQUIRE(c.shape() == std::array<index_t, 3>{B, m, p});
    CHECK(wrong_in_stack(a, b, c) == 0);
  }
  // m = p = 2 are the run-time dimensions, n = 3 is fixed: the specialised copy keeps the 3
  const auto a = iota_array<double, 3>({B, 2, 3}, 1.0);
  const auto b = iota_array<double, 3>({B, 3, 2}, 2.0);
  const auto c = half_fixed(Target{}, a, b);
  REQUIRE(c.shape() == std::array<index_t, 3>{B, 2, 2});
  CHECK(wrong_in_stack(a, b, c) == 0);
  // a transposed (strided) 4x4 core takes the generic path and still gives a @ b.T
  const auto sq = iota_array<double, 3>({B, 4, 4}, 0.5);
  ufx::ndarray<double, 3> t({B, 4, 4});
  for (index_t i = 0; i < B; ++i)
    for (index_t r = 0; r < 4; ++r)
      for (index_t q = 0; q < 4; ++q) t.data()[i * 16 + r * 4 + q] = sq.data()[i * 16 + q * 4 + r];
  const ufx::ndview<const double, 3> sq_t(sq.data(), {B, 4, 4}, {16, 1, 4});
  CHECK(matmul(Target{}, sq, sq_t) == matmul(Target{}, sq, t));
}

TEST_CASE_TEMPLATE("an inner product of two vectors returns a scalar, of a stack a vector", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto dot = ufx::guvectorize<"(n),(n)->()">(dot_f{});
  const std::vector<float> x{1, 2, 3}, y{4, 5, 6};
  float r = dot(Target{}, x, y);
  CHECK(r == 32.f);
  const auto m = iota_array<int, 2>({4, 3});
  ufx::ndarray<int, 1> rows = dot(Target{}, m, std::vector<int>{1, 0, -1});
  REQUIRE(rows.shape() == std::array<index_t, 1>{4});
  for (int i = 0; i < 4; ++i) CHECK(rows(i) == m(i, 0) - m(i, 2));
}

TEST_CASE_TEMPLATE("a fixed-size (3),(3)->(3) cross product checks its sizes", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto cross = ufx::guvectorize<"(3),(3)->(3)">(cross_f{});
  std::vector<double> c = cross(Target{}, std::vector<double>{1, 0, 0}, std::vector<double>{0, 1, 0});
  CHECK(c == std::vector<double>{0, 0, 1});
  const auto a = iota_array<double, 2>({6, 3}, 1.0);
  const std::array<double, 3> b{2, -1, 0.5};
  auto cs = cross(Target{}, a, b);
  REQUIRE(cs.shape() == std::array<index_t, 2>{6, 3});
  for (int i = 0; i < 6; ++i) {
    CHECK(cs(i, 0) == a(i, 1) * b[2] - a(i, 2) * b[1]);
    CHECK(cs(i, 1) == a(i, 2) * b[0] - a(i, 0) * b[2]);
    CHECK(cs(i, 2) == a(i, 0) * b[1] - a(i, 1) * b[0]);
  }
  CHECK(error_message([&] { cross(Target{}, std::vector<double>(4), b); }) ==
        "ufx::guvectorize: input operand 0 has a mismatch in its core dimension 0 ('3'), with gufunc signature "
        "(3),(3)->(3) (size 4 is different from 3)");
  CHECK_THROWS_AS(cross(Target{}, b, std::vector<double>(2)), ufx::shape_error);
}

TEST_CASE_TEMPLATE("(n)->(),() gives the mean and the standard deviation as two outputs", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto stats = ufx::guvectorize<"(n)->(),()">(mean_std_f{});
  ufx::ndarray<double, 2> x({2, 4});
  const double v[8] = {2, 4, 4, 4, 5, 5, 7, 9};
  std::copy(v, v + 8, x.data());
  auto [mean, sd] = stats(Target{}, x);
  static_assert(std::is_same_v<decltype(mean), ufx::ndarray<double, 1>>);
  CHECK(mean(0) == 3.5);
  CHECK(mean(1) == 6.5);
  CHECK(sd(0) == doctest::Approx(std::sqrt(0.75)));
  CHECK(sd(1) == doctest::Approx(std::sqrt(2.75)));
  std::vector<double> m2(2, -1), s2(2, -1);
  stats(Target{}, x, ufx::out(m2, s2));
  CHECK(m2 == std::vector<double>{3.5, 6.5});
  CHECK(s2[1] == doctest::Approx(std::sqrt(2.75)));
}

TEST_CASE_TEMPLATE("(m,n)->(m,n) doubles each matrix of a stack, into out and in place", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto twice = ufx::guvectorize<"(m,n)->(m,n)">(double_f{});
  auto a = iota_array<float, 3>({2, 3, 3});
  const auto r = twice(Target{}, a);
  for (index_t i = 0; i < a.size(); ++i) CHECK(r.data()[i] == 2 * a.data()[i]);
  ufx::ndarray<float, 3> o({2, 3, 3}, 0.f);
  twice(Target{}, a, ufx::out(o));
  CHECK(o == r);
  twice(Target{}, a, ufx::out(a)); // in place
  CHECK(a == r);
}

TEST_CASE_TEMPLATE("a () input can be a C++ scalar and broadcasts to every loop index", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto scale = ufx::guvectorize<"(n),()->(n)">(scale_f{});
  std::vector<float> y = scale(Target{}, std::vector<float>{1, 2, 3}, 2.5f);
  CHECK(y == std::vector<float>{2.5f, 5.f, 7.5f});
  const auto m = iota_array<float, 2>({2, 3});
  const std::vector<float> s{1, 10}; // one scale per row: loop dims (2,) against (2,)
  auto z = scale(Target{}, m, s);
  CHECK(z(1, 2) == 10 * m(1, 2));
  CHECK(z(0, 1) == m(0, 1));
}

TEST_CASE_TEMPLATE("inputs broadcast to the loop shape of out, and out can give a core size", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto matmul = ufx::guvectorize<"(m,n),(n,p)->(m,p)">(matmul_f{});
  const auto a = iota_array<float, 2>({2, 3});
  const auto b = iota_array<float, 2>({3, 4});
  ufx::ndarray<float, 3> c({5, 2, 4}, -1.f);
  matmul(Target{}, a, b, ufx::out(c));
  float want[8];
  ref_matmul(a.data(), b.data(), want, 2, 3, 4);
  for (int i = 0; i < 5; ++i)
    for (int k = 0; k < 8; ++k) CHECK(c.data()[i * 8 + k] == want[k]);

  auto outer = ufx::guvectorize<"(n)->(n,p)">(outer_f{});
  ufx::ndarray<double, 2> y({3, 2}, 0.0);
  outer(Target{}, std::vector<double>{1, 2, 3}, ufx::out(y));
  CHECK(y(2, 1) == 6.0);
  CHECK(y(1, 0) == 2.0);
}

TEST_CASE_TEMPLATE("zero-size loop dimensions return the right empty shape", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto matmul = ufx::guvectorize<"(m,n),(n,p)->(m,p)">(matmul_f{});
  const ufx::ndarray<float, 3> a({0, 2, 3});
  const ufx::ndarray<float, 2> b({3, 4});
  const auto c = matmul(Target{}, a, b);
  CHECK(c.shape() == std::array<index_t, 3>{0, 2, 4});
  const ufx::ndarray<float, 4> a2({2, 0, 2, 3});
  CHECK(matmul(Target{}, a2, b).shape() == std::array<index_t, 4>{2, 0, 2, 4});
  // loop dims (0,) against (1,) broadcast to (0,); against (2,) they do not
  CHECK(matmul(Target{}, a, ufx::ndarray<float, 3>({1, 3, 4})).shape() == std::array<index_t, 3>{0, 2, 4});
  CHECK_THROWS_AS(matmul(Target{}, a, ufx::ndarray<float, 3>({2, 3, 4})), ufx::shape_error);
}

TEST_CASE_TEMPLATE("zero-size core dimensions still call the function once per loop index", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto sum = ufx::guvectorize<"(n)->()">(sum_f{});
  const ufx::ndarray<int, 2> x({3, 0});
  std::vector<int> r(3, -1);
  sum(Target{}, x, ufx::out(r));
  CHECK(r == std::vector<int>{0, 0, 0}); // fn wrote each output
  // (m,n)@(n,p) with n = 0: every element of the (2,4) result is the empty sum
  auto matmul = ufx::guvectorize<"(m,n),(n,p)->(m,p)">(matmul_f{});
  ufx::ndarray<float, 2> c = matmul(Target{}, ufx::ndarray<float, 2>({2, 0}), ufx::ndarray<float, 2>({0, 4}));
  CHECK(c == ufx::ndarray<float, 2>({2, 4}, 0.f));
  // an output core of size 0 still has its loop index visited, and the shape is right
  const auto e = matmul(Target{}, ufx::ndarray<float, 3>({2, 0, 3}), ufx::ndarray<float, 2>({3, 4}));
  CHECK(e.shape() == std::array<index_t, 3>{2, 0, 4});
}

TEST_CASE_TEMPLATE("an operand with fewer dimensions than its core is an error naming it", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto matmul = ufx::guvectorize<"(m,n),(n,p)->(m,p)">(matmul_f{});
  const ufx::ndarray<float, 2> b({3, 4});
  CHECK(error_message([&] { matmul(Target{}, std::vector<float>(3), b); }) ==
        "ufx::guvectorize: input operand 0 does not have enough dimensions (has 1, gufunc core with signature "
        "(m,n),(n,p)->(m,p) requires 2)");
  CHECK(error_message([&] { matmul(Target{}, b, 2.f); }) ==
        "ufx::guvectorize: input operand 1 does not have enough dimensions (has 0, gufunc core with signature "
        "(m,n),(n,p)->(m,p) requires 2)");
  auto outer = ufx::guvectorize<"(n)->(n,p)">(outer_f{});
  std::vector<float> flat(3, -1.f);
  CHECK(error_message([&] { outer(Target{}, std::vector<float>(3), ufx::out(flat)); }) ==
        "ufx::guvectorize: output operand 0 does not have enough dimensions (has 1, gufunc core with signature "
        "(n)->(n,p) requires 2)");
  CHECK(flat == std::vector<float>(3, -1.f));
}

TEST_CASE_TEMPLATE("conflicting core sizes name the dimension and both sizes", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto matmul = ufx::guvectorize<"(m,n),(n,p)->(m,p)">(matmul_f{});
  const ufx::ndarray<float, 2> a({2, 3}), b({4, 5});
  CHECK(error_message([&] { matmul(Target{}, a, b); }) ==
        "ufx::guvectorize: input operand 1 has a mismatch in its core dimension 0 ('n'), with gufunc signature "
        "(m,n),(n,p)->(m,p) (size 4 is different from 3)");
  // the output's core is checked against the bound sizes, and nothing is written
  ufx::ndarray<float, 2> c({2, 5}, -1.f);
  const ufx::ndarray<float, 2> b2({3, 4});
  CHECK(error_message([&] { matmul(Target{}, a, b2, ufx::out(c)); }) ==
        "ufx::guvectorize: output operand 0 has a mismatch in its core dimension 1 ('p'), with gufunc signature "
        "(m,n),(n,p)->(m,p) (size 5 is different from 4)");
  CHECK(c == ufx::ndarray<float, 2>({2, 5}, -1.f));
}

TEST_CASE_TEMPLATE("an output core dimension that no input binds must come from out", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto outer = ufx::guvectorize<"(n)->(n,p)">(outer_f{});
  CHECK(error_message([&] { outer(Target{}, std::vector<float>(3)); }) ==
        "ufx::guvectorize: output operand 0 has core dimension 'p' that no input binds, with gufunc signature "
        "(n)->(n,p); pass the output through ufx::out(...) to give its size");
  CHECK_THROWS_AS(outer(Target{}, std::vector<float>(3)), ufx::shape_error);
}

TEST_CASE_TEMPLATE("loop dimensions that do not broadcast are an error and nothing is written", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto matmul = ufx::guvectorize<"(m,n),(n,p)->(m,p)">(matmul_f{});
  const ufx::ndarray<float, 3> a({2, 2, 3}), b({3, 3, 4});
  CHECK(error_message([&] { matmul(Target{}, a, b); }) ==
        "ufx::guvectorize: operands could not be broadcast together with remapped shapes [original->remapped]: "
        "(2,2,3)->(2,) (3,3,4)->(3,), with gufunc signature (m,n),(n,p)->(m,p)");
  const ufx::ndarray<float, 3> b2({2, 3, 4});
  ufx::ndarray<float, 3> c({1, 2, 4}, -1.f); // outputs are never broadcast
  CHECK(error_message([&] { matmul(Target{}, a, b2, ufx::out(c)); }) ==
        "ufx::guvectorize: output operand 0 with shape (1,2,4) has loop dimensions (1,) that do not match the "
        "broadcast loop shape (2,) of the operands, with gufunc signature (m,n),(n,p)->(m,p)");
  CHECK(c == ufx::ndarray<float, 3>({1, 2, 4}, -1.f));
  auto stats = ufx::guvectorize<"(n)->(),()">(mean_std_f{});
  std::vector<double> m(2, -1), s(3, -1);
  CHECK_THROWS_AS(stats(Target{}, ufx::ndarray<double, 2>({2, 4}, 1.0), ufx::out(m, s)), ufx::shape_error);
  CHECK(m == std::vector<double>(2, -1));
}

TEST_CASE_TEMPLATE("an out may lack leading loop dimensions of extent 1, as NumPy's gufuncs allow", Target,
                   UFX_TEST_TARGETS) {
  // found by tests/fuzz (NumPy: inner1d(ones((1,3,2)), ones(2), out=empty(3)) is accepted)
  if (!ufx_test::runnable<Target>()) return;
  auto dot = ufx::guvectorize<"(n),(n)->()">(dot_f{});
  const auto a = iota_array<int, 3>({1, 3, 2}); // loop dimensions (1,3)
  std::vector<int> r(3, -1);                    // loop dimensions (3,)
  dot(Target{}, a, std::vector<int>{1, 10}, ufx::out(r));
  CHECK(r == std::vector<int>{10, 32, 54});
  // a missing leading dimension whose extent is not 1 is still an error, and nothing is written
  std::vector<int> r2(3, -1);
  CHECK(error_message([&] {
          dot(Target{}, iota_array<int, 3>({2, 3, 2}), std::vector<int>{1, 10}, ufx::out(r2));
        }) ==
        "ufx::guvectorize: output operand 0 with shape (3,) has loop dimensions (3,) that do not match the broadcast "
        "loop shape (2,3) of the operands, with gufunc signature (n),(n)->()");
  CHECK(r2 == std::vector<int>(3, -1));
  // cores that are all () make a plain ufunc in NumPy, whose outputs need the whole loop shape
  auto add = ufx::guvectorize<"(),()->()">([] UFX_HD(int x, int y, int& z) { z = x + y; });
  CHECK_THROWS_AS(add(Target{}, ufx::ndarray<int, 2>({1, 3}, 1), 2, ufx::out(r2)), ufx::shape_error);
  CHECK(r2 == std::vector<int>(3, -1));
}

TEST_CASE_TEMPLATE("device arrays stay on the device and results come back as device arrays", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  if constexpr (ufx::is_device_target_v<Target>) {
    auto matmul = ufx::guvectorize<"(m,n),(n,p)->(m,p)">(matmul_f{});
    const auto a = iota_array<float, 3>({3, 2, 2});
    const auto b = iota_array<float, 2>({2, 2}, 1.f);
    auto da = ufx::to_device(a, Target{});
    auto db = ufx::to_device(b, Target{});
    auto dc = matmul(da, db);
    static_assert(std::is_same_v<decltype(dc), ufx::device_array<float, 3>>);
    CHECK(dc.space() == Target{}.space());
    const auto c = dc.to_host();
    const auto want = matmul(ufx::serial, a, b);
    CHECK(c == want);
    auto dot = ufx::guvectorize<"(n),(n)->()">(dot_f{});
    auto d0 =
        dot(ufx::to_device(std::vector<float>{1, 2}, Target{}), ufx::to_device(std::vector<float>{3, 4}, Target{}));
    static_assert(std::is_same_v<decltype(d0), ufx::device_array<float, 0>>);
    CHECK(d0.to_host()() == 11.f);
  }
}

TEST_CASE_TEMPLATE("small fixed-size cores on a device are staged through shared memory, with the same bits", Target,
                   ufx::sim_t, ufx::cuda_t) {
  if (!ufx_test::runnable<Target>()) return;
  auto& staging = ufx::detail::testing().gufunc_staging;
  auto fixed = ufx::guvectorize<"(4,4),(4,4)->(4,4)">(matmul_f{});
  auto dot3 = ufx::guvectorize<"(3),(3)->()">(dot_f{});
  for (index_t B : {index_t{1}, index_t{127}, index_t{128}, index_t{1000}}) { // a partial last block too
    CAPTURE(B);
    const auto a = iota_array<float, 3>({B, 4, 4});
    const auto b = iota_array<float, 3>({B, 4, 4}, 3.f);
    auto da = ufx::to_device(a, Target{}), db = ufx::to_device(b, Target{});
    ufx::device_array<float, 3> staged({B, 4, 4}, Target{}), plain({B, 4, 4}, Target{});
    const long before = staging.launches.load();
    fixed(Target{}, da, db, ufx::out(staged));
    CHECK(staging.launches.load() == before + 1);
    staging.enabled = false;
    fixed(Target{}, da, db, ufx::out(plain));
    staging.enabled = true;
    CHECK(staging.launches.load() == before + 1);
    CHECK(wrong_in_stack(a, b, staged.to_host()) == 0);
    CHECK(staged.to_host() == plain.to_host()); // the same arithmetic in the same order
    // a scalar core, and doubles
    const auto x = iota_array<double, 2>({B, 3}), y = iota_array<double, 2>({B, 3}, 0.5);
    const auto r = dot3(Target{}, ufx::to_device(x, Target{}), ufx::to_device(y, Target{})).to_host();
    CHECK(staging.launches.load() == before + 2);
    CHECK(r == dot3(ufx::serial, x, y));
  }
  // not staged: run-time core sizes, a broadcast operand, a C++ scalar; the results are the same
  const auto a = iota_array<float, 3>({300, 4, 4});
  const auto b1 = iota_array<float, 2>({4, 4}, 2.f);
  auto da = ufx::to_device(a, Target{});
  auto generic = ufx::guvectorize<"(m,n),(n,p)->(m,p)">(matmul_f{});
  const long before = staging.launches.load();
  CHECK(generic(Target{}, da, da).to_host() == generic(ufx::serial, a, a));
  CHECK(fixed(Target{}, da, ufx::to_device(b1, Target{})).to_host() == fixed(ufx::serial, a, b1));
  CHECK(staging.launches.load() == before);
}

TEST_CASE_TEMPLATE("strided and transposed operands give the same results as dense ones", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto matmul = ufx::guvectorize<"(m,n),(n,p)->(m,p)">(matmul_f{});
  const auto a = iota_array<double, 3>({4, 2, 3});
  const auto b = iota_array<double, 2>({3, 5}, 2.0);
  // bt holds b transposed; its view with swapped strides is b again
  ufx::ndarray<double, 2> bt({5, 3});
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 5; ++j) bt(j, i) = b(i, j);
  const ufx::ndview<const double, 2> bview(bt.data(), {3, 5}, {1, 3});
  const auto want = matmul(ufx::serial, a, b);
  CHECK(matmul(Target{}, a, bview) == want);
  // every other matrix of a stack of 8, read through a view with a loop stride of 2 matrices
  const auto a8 = iota_array<double, 3>({8, 2, 3});
  const ufx::ndview<const double, 3> every_other(a8.data(), {4, 2, 3}, {12, 3, 1});
  const auto r = matmul(Target{}, every_other, b);
  for (int i = 0; i < 4; ++i) {
    double w[10];
    ref_matmul(a8.data() + 12 * i, b.data(), w, 2, 3, 5);
    for (int k = 0; k < 10; ++k) CHECK(r.data()[i * 10 + k] == w[k]);
  }
  // a strided output
  ufx::ndarray<double, 3> big({4, 2, 10}, -1.0);
  const ufx::ndview<double, 3> half(big.data(), {4, 2, 5}, {20, 10, 2});
  matmul(Target{}, a, b, ufx::out(half));
  CHECK(big(3, 1, 8) == want(3, 1, 4));
  CHECK(big(3, 1, 9) == -1.0);
}

#if __has_include(<Eigen/Core>)
TEST_CASE_TEMPLATE("Eigen matrices are cores with their real strides and give an Eigen result", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto matmul = ufx::guvectorize<"(m,n),(n,p)->(m,p)">(matmul_f{});
  Eigen::MatrixXf a(3, 2), b(2, 4);
  a << 1, 2, 3, 4, 5, 6;
  b << 1, 0, -1, 2, 0.5f, 1, 3, -2;
  Eigen::MatrixXf c = matmul(Target{}, a, b);
  CHECK((c - a * b).cwiseAbs().maxCoeff() == 0.f);
  Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> br = b;
  const Eigen::MatrixXf at = a.transpose();
  Eigen::MatrixXf c2 = matmul(Target{}, at.transpose(), br); // strides (1,3) and (4,1)
  CHECK(c2 == c);
  auto twice = ufx::guvectorize<"(m,n)->(m,n)">(double_f{});
  Eigen::MatrixXf m(3, 3);
  m << 1, 2, 3, 4, 5, 6, 7, 8, 9;
  Eigen::MatrixXf d = twice(Target{}, m.block(0, 0, 2, 3));
  CHECK(d.rows() == 2);
  CHECK(d(1, 2) == 12.f);
}
#endif

#if !defined(__CUDACC__) // host-only functions (they record into host memory, or throw)
TEST_CASE("core views carry the operand's real strides on host targets") {
  // a host-only function that records the strides it was given
  struct record {
    ufx::index_t* seen;
    void operator()(ufx::ndview<const float, 2> a, float& r) const {
      seen[0] = a.stride(0);
      seen[1] = a.stride(1);
      r = a(1, 0);
    }
  };
  float buf[6] = {1, 4, 2, 5, 3, 6};
  const ufx::ndview<const float, 2> m(buf, {2, 3}, {1, 2}); // column-major 2x3
  for (ufx::target t : {ufx::target(ufx::serial), ufx::target(ufx::host)}) {
    ufx::index_t seen[2] = {0, 0};
    auto first = ufx::guvectorize<"(m,n)->()">(record{seen});
    float r = first(t, m);
    CHECK(r == 4.f);
    CHECK(seen[0] == 1);
    CHECK(seen[1] == 2);
  }
}
#endif

TEST_CASE("a run-time ufx::target picks the target and ufx::cuda that cannot run says why") {
  auto dot = ufx::guvectorize<"(n),(n)->()">(dot_f{});
  const std::vector<float> x{1, 2, 3};
  for (ufx::target t : {ufx::target(ufx::serial), ufx::target(ufx::host), ufx::target(ufx::sim)}) {
    float r = dot(t, x, x);
    CHECK(r == 14.f);
  }
  if (!ufx::cuda_available()) {
    CHECK(error_message([&] { dot(ufx::cuda, x, x); }).find("ufx::cuda is not available here") != std::string::npos);
    CHECK_THROWS_AS(dot(ufx::cuda, x, x), ufx::device_error);
  }
  CHECK(decltype(dot)::signature() == "(n),(n)->()");
}

#if !defined(__CUDACC__) // host-only functions (a typed lambda, an exception)
TEST_CASE("a typed function gives the output type and an exception reaches the caller") {
  auto norm = ufx::guvectorize<"(n)->()">([](ufx::ndview<const float, 1> x, double& r) {
    double s = 0;
    for (index_t i = 0; i < x.extent(0); ++i) s += static_cast<double>(x(i)) * x(i);
    if (s < 0) throw std::domain_error("negative");
    r = std::sqrt(s);
  });
  auto r = norm(ufx::ndarray<float, 2>({2, 2}, 3.f));
  static_assert(std::is_same_v<decltype(r), ufx::ndarray<double, 1>>);
  CHECK(r(1) == doctest::Approx(std::sqrt(18.0)));

  auto checked = ufx::guvectorize<"(n)->()">([](ufx::ndview<const double, 1> x, double& r) {
    if (x(0) < 0) throw std::domain_error("negative first element");
    r = x(0);
  });
  ufx::ndarray<double, 2> big({1 << 16, 2}, 1.0);
  big(40000, 0) = -1.0;
  CHECK_THROWS_AS(checked(ufx::host, big), std::domain_error);
  CHECK_THROWS_AS(checked(ufx::serial, big), std::domain_error);
}
#endif
