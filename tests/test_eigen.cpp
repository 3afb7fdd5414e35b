// Eigen operands: Matrix, Array, row-major, Map with strides, Block, transpose, expressions;
// results come back as Eigen objects when every array operand is Eigen.
#include "common.hpp"

#include <ufx/eigen.hpp>

namespace {
struct add_f {
  template <class T>
  UFX_HD T operator()(T a, T b) const {
    return a + b;
  }
};
Eigen::MatrixXf sample(int r, int c) {
  Eigen::MatrixXf m(r, c);
  for (int i = 0; i < r; ++i)
    for (int j = 0; j < c; ++j) m(i, j) = static_cast<float>(10 * i + j);
  return m;
}
} // namespace

TEST_CASE_TEMPLATE("Eigen (3,4) + (1,4) broadcasts and returns a MatrixXf", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto add = ufx::vectorize(add_f{});
  const Eigen::MatrixXf A = sample(3, 4);
  const Eigen::RowVectorXf row = Eigen::RowVectorXf::LinSpaced(4, 0, 3);
  Eigen::MatrixXf m = add(Target{}, A, row);
  static_assert(std::is_same_v<decltype(add(Target{}, A, row)), Eigen::MatrixXf>);
  CHECK(m.isApprox(A + row.replicate(3, 1)));
}

#if defined(__linux__)
TEST_CASE_TEMPLATE("a large fresh Eigen result is marked for huge pages and holds the call's values", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto add = ufx::vectorize(add_f{});
  const Eigen::MatrixXf A = Eigen::MatrixXf::Constant(1024, 1025, 2.f); // 4 MiB and a column
  const Eigen::RowVectorXf row = Eigen::RowVectorXf::LinSpaced(1025, 0, 1024);
  Eigen::MatrixXf m = add(Target{}, A, row);
  CHECK(m.isApprox(A + row.replicate(1024, 1)));
  if (ufx_test::kernel_has_thp()) {
    CHECK(ufx_test::vm_flags_of(m.data() + m.size() / 2).find(" hg ") != std::string::npos);
  }
}
#endif

TEST_CASE_TEMPLATE("Eigen Arrays give Arrays; the first Eigen operand decides", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto mul = ufx::vectorize([] UFX_HD(double a, double b) { return a * b; });
  Eigen::ArrayXXd a = Eigen::ArrayXXd::Constant(2, 3, 2.0);
  auto r = mul(Target{}, a, 4.0);
  static_assert(std::is_same_v<decltype(r), Eigen::ArrayXXd>);
  CHECK((r == 8.0).all());
}

TEST_CASE_TEMPLATE("row-major, strided Map, Block and transpose inputs use their real strides", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto add = ufx::vectorize(add_f{});
  const Eigen::MatrixXf A = sample(4, 5);
  Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> Ar = A;
  Eigen::MatrixXf r1 = add(Target{}, Ar, A);
  CHECK(r1.isApprox(2 * A));
  Eigen::MatrixXf r2 = add(Target{}, A.block(1, 1, 2, 3), Ar.block(0, 2, 2, 3));
  CHECK(r2.isApprox(A.block(1, 1, 2, 3) + A.block(0, 2, 2, 3)));
  Eigen::MatrixXf r3 = add(Target{}, A.transpose(), 0.f);
  CHECK(r3.isApprox(A.transpose()));
  std::vector<float> buf(40);
  for (int i = 0; i < 40; ++i) buf[i] = static_cast<float>(i);
  Eigen::Map<Eigen::MatrixXf, 0, Eigen::Stride<10, 2>> mp(buf.data(), 4, 4); // every other element
  Eigen::MatrixXf r4 = add(Target{}, mp, 0.f);
  CHECK(r4.isApprox(Eigen::MatrixXf(mp)));
  CHECK(r4(3, 2) == buf[2 * 10 + 3 * 2]);
  Eigen::MatrixXf r5 = add(Target{}, A + A, A); // an expression is evaluated once
  CHECK(r5.isApprox(3 * A));
}

TEST_CASE_TEMPLATE("out into an Eigen block writes only the block", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto add = ufx::vectorize(add_f{});
  Eigen::MatrixXf M = Eigen::MatrixXf::Zero(4, 4);
  const Eigen::MatrixXf B = sample(2, 2);
  add(Target{}, B, 1.f, ufx::out(M.block(1, 1, 2, 2)));
  CHECK(M.block(1, 1, 2, 2).isApprox((B.array() + 1.f).matrix()));
  CHECK(M(0, 0) == 0.f);
  CHECK(M(3, 3) == 0.f);
  CHECK(M.col(0).isZero());
  CHECK_THROWS_AS(add(Target{}, B, 1.f, ufx::out(M.block(0, 0, 3, 2))), ufx::shape_error);
}

TEST_CASE_TEMPLATE("Eigen mixed with other containers follows NumPy's broadcasting", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto add = ufx::vectorize(add_f{});
  const Eigen::VectorXf col = Eigen::VectorXf::LinSpaced(3, 0, 2); // (3,1)
  const std::vector<float> v{10, 20};                              // (2,)
  ufx::ndarray<float, 2> r = add(Target{}, col, v);
  REQUIRE(r.shape() == std::array<ufx::index_t, 2>{3, 2});
  CHECK(r(2, 1) == 22.f);
  CHECK(r(0, 0) == 10.f);
}

TEST_CASE("Eigen data is staged to ufx::sim and the result comes back as Eigen") {
  auto add = ufx::vectorize(add_f{});
  const Eigen::MatrixXf A = sample(3, 3);
  Eigen::MatrixXf r = add(ufx::sim, A.transpose(), A);
  CHECK(r.isApprox(A.transpose() + A));
  auto d = ufx::to_device(A.block(0, 1, 3, 2), ufx::sim);
  Eigen::MatrixXf back(3, 2);
  d.copy_to_host(back);
  CHECK(back.isApprox(A.block(0, 1, 3, 2)));
}

TEST_CASE("kernel: Eigen matrices as kernel arguments (column-major, a block), staged to the sim and back") {
  if (!ufx_test::kernel_runnable<ufx::sim_t>()) return;
  Eigen::MatrixXf a = sample(5, 7), out = Eigen::MatrixXf::Zero(5, 7);
  auto twice = ufx::kernel(
      [] UFX_HD(const ufx::thread& t, ufx::ndview<const float, 2> x, ufx::ndview<float, 2> y) {
        auto [i, j] = t.grid<2>();
        if (i < y.extent(0) && j < y.extent(1)) y(i, j) = 2 * x(i, j);
      },
      "twice");
  twice[{1, {8, 8}}](ufx::sim, a, out);
  CHECK(out == 2 * a);
  Eigen::MatrixXf big = Eigen::MatrixXf::Zero(6, 9);
  auto blk = big.block(1, 2, 5, 7);
  twice[{1, {8, 8}}](ufx::host, a, blk); // written through a strided block
  CHECK(big.block(1, 2, 5, 7) == 2 * a);
  CHECK(big(0, 0) == 0.f);
}
