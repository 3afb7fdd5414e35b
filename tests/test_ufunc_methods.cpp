// The ufunc methods of a ufx::vectorize object (NumPy's ufunc.reduce, accumulate, outer) on every target: NumPy's
// default axis, axes, keepdims, initial=, identities and the error without one, result shapes and containers, device
// data. Expected values are NumPy 1.24.2's (np.add.reduce(m), ...: each case names its NumPy expression); every
// partial result is exact in float, so they are bitwise on every target.
#include "common.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

using ufx_test::error_message;

namespace {

// functors, not lambdas: nvcc takes no UFX_HD lambda at namespace scope
struct add_fn {
  UFX_HD float operator()(float a, float b) const { return a + b; }
};
struct max_fn {
  UFX_HD float operator()(float a, float b) const { return a < b ? b : a; }
};
struct mul_fn {
  UFX_HD float operator()(float a, float b) const { return a * b; }
};
const auto add = ufx::vectorize(add_fn{}).identity(0.f);
const auto maximum = ufx::vectorize(max_fn{}); // no identity
const auto mul = ufx::vectorize(mul_fn{}).identity(1.f);

/// np.arange(24, dtype=np.float32).reshape(2, 3, 4) * 0.5 - 3
ufx::ndarray<float, 3> sample() {
  ufx::ndarray<float, 3> m({2, 3, 4});
  for (ufx::index_t i = 0; i < m.size(); ++i) m.data()[i] = static_cast<float>(i) * 0.5f - 3.f;
  return m;
}

template <class A>
std::vector<float> flat(const A& a) {
  return std::vector<float>(a.data(), a.data() + a.size());
}

} // namespace

TEST_CASE("a vectorize object has an identity once given one; identity(v) returns a new object") {
  const auto plain = ufx::vectorize([](float a, float b) { return a + b; });
  static_assert(!decltype(plain)::has_identity && decltype(add)::has_identity);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(add.identity())>, float>);
  CHECK(add.identity() == 0.f);
  CHECK(plain.identity(2.5).identity() == 2.5); // the identity's own type: converted to the accumulator when used
  CHECK(std::string(plain.named("plus").identity(0.f).name()) == "plus"); // the name stays
}

TEST_CASE_TEMPLATE("f.reduce is NumPy's ufunc.reduce: axis 0 by default, axes, keepdims, all_axes, initial", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const auto m = sample();
  // np.add.reduce(m): axis 0, shape (3, 4)
  const ufx::ndarray<float, 2> r0 = add.reduce(Target{}, m);
  CHECK(r0.extent(0) == 3);
  CHECK(r0.extent(1) == 4);
  CHECK(flat(r0) == std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  // np.add.reduce(m, axis=(0, 2), keepdims=True): [[[6], [22], [38]]]
  const ufx::ndarray<float, 3> r02 = add.reduce(Target{}, m, ufx::axis{0, 2}, ufx::keepdims);
  CHECK(r02.shape() == std::array<ufx::index_t, 3>{1, 3, 1});
  CHECK(flat(r02) == std::vector<float>{6, 22, 38});
  // np.maximum.reduce(m, axis=1)
  const ufx::ndarray<float, 2> mx = maximum.reduce(Target{}, m, ufx::axis{1});
  CHECK(flat(mx) == std::vector<float>{1, 1.5, 2, 2.5, 7, 7.5, 8, 8.5});
  // np.add.reduce(m, axis=None, initial=10): 76
  CHECK(add.reduce(Target{}, m, ufx::all_axes, ufx::initial(10.f)) == 76.f);
  CHECK(add.reduce(Target{}, m, ufx::initial(10.f), ufx::all_axes) == 76.f); // options in any order
  // np.add.reduce(m, axis=2, initial=100)
  const ufx::ndarray<float, 2> r2 = add.reduce(Target{}, m, ufx::axis{-1}, ufx::initial(100.f));
  CHECK(flat(r2) == std::vector<float>{91, 99, 107, 115, 123, 131});
  // a 1-D operand reduces to a scalar (axis 0 is every axis); a std::vector and an Eigen-free span alike
  const std::vector<float> v{1.5f, -2.f, 4.f};
  CHECK(add.reduce(Target{}, v) == 3.5f);
  CHECK(mul.reduce(Target{}, v) == -12.f);
  // into ufx::out
  ufx::ndarray<float, 1> o({3});
  add.reduce(Target{}, m, ufx::axis{0, 2}, ufx::out(o));
  CHECK(flat(o) == std::vector<float>{6, 22, 38});
  if constexpr (Target::is_device) { // device data: a device result
    const auto d = ufx::to_device(m, Target{});
    const ufx::ndarray<float, 2> h = add.reduce(Target{}, d).to_host();
    CHECK(flat(h) == flat(r0));
  }
}

TEST_CASE_TEMPLATE("f.reduce of nothing: the identity, ufx::initial, NumPy's error without either", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const std::vector<float> none;
  CHECK(add.reduce(Target{}, none) == 0.f);
  CHECK(mul.reduce(Target{}, none) == 1.f);
  CHECK(maximum.reduce(Target{}, none, ufx::initial(-5.f)) == -5.f);
  // np.maximum.reduce(np.zeros(0)): ValueError
  CHECK(error_message([&] { (void)maximum.reduce(Target{}, none); }).find("zero-size array to reduction operation") !=
        std::string::npos);
  const ufx::ndarray<float, 2> e03({0, 3}), e30({3, 0});
  // np.maximum.reduce(np.zeros((0, 3)), initial=-5): [-5, -5, -5]; without initial: the error
  CHECK(flat(maximum.reduce(Target{}, e03, ufx::initial(-5.f))) == std::vector<float>{-5, -5, -5});
  CHECK(error_message([&] { (void)maximum.reduce(Target{}, e03); }).find("no identity") != std::string::npos);
  // np.add.reduce(np.zeros((3, 0)), axis=1): [0, 0, 0]; np.maximum.reduce(np.zeros((0, 3)), axis=1): [] (nothing
  // to reduce into, no error)
  CHECK(flat(add.reduce(Target{}, e30, ufx::axis{1})) == std::vector<float>{0, 0, 0});
  CHECK(maximum.reduce(Target{}, e03, ufx::axis{1}).size() == 0);
}

TEST_CASE_TEMPLATE("f.accumulate is NumPy's ufunc.accumulate, along axis 0 by default", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const auto m = sample();
  const ufx::ndview<const float, 2> m0(m.data(), {3, 4}); // m[0]
  // np.add.accumulate(m[0])
  const ufx::ndarray<float, 2> a0 = add.accumulate(Target{}, m0);
  CHECK(flat(a0) == std::vector<float>{-3, -2.5, -2, -1.5, -4, -3, -2, -1, -3, -1.5, 0, 1.5});
  // np.add.accumulate(m[0], axis=1)
  const ufx::ndarray<float, 2> a1 = add.accumulate(Target{}, m0, ufx::axis{1});
  CHECK(flat(a1) == std::vector<float>{-3, -5.5, -7.5, -9, -1, -1.5, -1.5, -1, 1, 2.5, 4.5, 7});
  // into ufx::out, and a std::vector in, a std::vector out
  ufx::ndarray<float, 2> o({3, 4});
  add.accumulate(Target{}, m0, ufx::axis{1}, ufx::out(o));
  CHECK(flat(o) == flat(a1));
  const std::vector<float> v{2, 3, -1};
  CHECK(mul.accumulate(Target{}, v) == std::vector<float>{2, 6, -6});
}

TEST_CASE_TEMPLATE("f.outer is NumPy's ufunc.outer: shape a.shape + b.shape", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const std::vector<float> a{1, 2, 3};
  ufx::ndarray<float, 2> b({2, 2});
  b(0, 0) = 1, b(0, 1) = -1, b(1, 0) = 2, b(1, 1) = 0.5f;
  // np.multiply.outer(a, b): shape (3, 2, 2)
  const ufx::ndarray<float, 3> ab = mul.outer(Target{}, a, b);
  CHECK(ab.shape() == std::array<ufx::index_t, 3>{3, 2, 2});
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 2; ++k) CHECK(ab(i, j, k) == a[static_cast<std::size_t>(i)] * b(j, k));
  // np.multiply.outer(b, a): shape (2, 2, 3)
  const ufx::ndarray<float, 3> ba = mul.outer(Target{}, b, a);
  CHECK(ba.shape() == std::array<ufx::index_t, 3>{2, 2, 3});
  CHECK(ba(1, 0, 2) == 6.f);
  // a strided view: every other element of a longer vector
  const std::vector<float> w{10, -1, 20, -1, 30};
  const ufx::ndview<const float, 1> every2(w.data(), {3}, {2});
  const ufx::ndarray<float, 2> s = add.outer(Target{}, every2, a);
  CHECK(flat(s) == std::vector<float>{11, 12, 13, 21, 22, 23, 31, 32, 33});
  // a scalar: its shape is ()
  const ufx::ndarray<float, 1> as = add.outer(Target{}, a, 0.5f);
  CHECK(flat(as) == std::vector<float>{1.5, 2.5, 3.5});
  // into ufx::out, whose shape must be a.shape + b.shape
  ufx::ndarray<float, 2> o({3, 3});
  add.outer(Target{}, a, a, ufx::out(o));
  CHECK(flat(o) == std::vector<float>{2, 3, 4, 3, 4, 5, 4, 5, 6});
  ufx::ndarray<float, 2> wrong({3, 2});
  const std::string bad = error_message([&] { add.outer(Target{}, a, a, ufx::out(wrong)); });
  CHECK(bad.find("(3,2)") != std::string::npos);
  CHECK(bad.find("(3,3)") != std::string::npos);
  if constexpr (Target::is_device) { // device data: a device result
    const auto d = ufx::to_device(a, Target{});
    const auto r = mul.outer(Target{}, d, d);
    static_assert(std::is_same_v<std::remove_cvref_t<decltype(r)>, ufx::device_array<float, 2>>);
    CHECK(flat(r.to_host()) == std::vector<float>{1, 2, 3, 2, 4, 6, 3, 6, 9});
  }
}

namespace {
/// np.arange(6, dtype=np.float32).reshape(2, 3) + 1, and the mask [[T, F, T], [F, T, F]]
std::pair<ufx::ndarray<float, 2>, ufx::ndarray<bool, 2>> masked_sample() {
  ufx::ndarray<float, 2> x({2, 3});
  ufx::ndarray<bool, 2> m({2, 3});
  for (int i = 0; i < 6; ++i) {
    x.data()[i] = static_cast<float>(i + 1);
    m.data()[i] = i % 2 == 0;
  }
  return {std::move(x), std::move(m)};
}
} // namespace

TEST_CASE_TEMPLATE("ufx::where on an elementwise call keeps out's elements where the mask is false", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const auto xm = masked_sample(); // not a structured binding: clang 14's lambdas cannot capture one
  const auto& x = xm.first;
  const auto& m = xm.second;
  // z = full((2, 3), -1); np.add(x, 10, where=m, out=z)
  ufx::ndarray<float, 2> z({2, 3}, -1.f);
  add(Target{}, x, 10.f, ufx::where(m), ufx::out(z));
  CHECK(flat(z) == std::vector<float>{11, -1, 13, -1, 15, -1});
  // a mask that broadcasts: np.multiply(x, 2, where=[False, True, True], out=z)
  ufx::ndarray<float, 2> z2({2, 3}, -1.f);
  const std::vector<bool> row{false, true, true};
  ufx::ndarray<bool, 1> mrow({3});
  for (int j = 0; j < 3; ++j) mrow(j) = row[static_cast<std::size_t>(j)];
  mul(Target{}, x, 2.f, ufx::where(mrow), ufx::out(z2));
  CHECK(flat(z2) == std::vector<float>{-1, 4, 6, -1, 10, 12});
  mul(Target{}, x, 3.f, ufx::where(ufx::ndarray<bool, 1>({3}, false)), ufx::out(z2)); // a temporary mask: no change
  CHECK(flat(z2) == std::vector<float>{-1, 4, 6, -1, 10, 12});
  // the function runs only where the mask is true: a division by zero elsewhere is never computed
  const auto div = ufx::vectorize([] UFX_HD(int a, int b) { return a / b; });
  std::vector<int> q{7, 7, 7}, r(3, 0);
  const std::vector<int> d{2, 0, 3};
  ufx::ndarray<bool, 1> nz({3});
  for (int j = 0; j < 3; ++j) nz(j) = d[static_cast<std::size_t>(j)] != 0;
  div(Target{}, q, d, ufx::where(nz), ufx::out(r));
  CHECK(r == std::vector<int>{3, 0, 2});
  // an out whose shape is not the broadcast shape: the plain call's shape error
  ufx::ndarray<float, 1> small({3});
  CHECK(error_message([&] { add(Target{}, x, 1.f, ufx::where(m), ufx::out(small)); }).find("(2,3)") !=
        std::string::npos);
}

TEST_CASE_TEMPLATE("f.reduce with ufx::where reduces the elements where the mask is true", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const auto xm = masked_sample(); // not a structured binding: clang 14's lambdas cannot capture one
  const auto& x = xm.first;
  const auto& m = xm.second;
  // np.add.reduce(x, where=m, axis=None): 9; initial=100 along axis 0: [101, 105, 103]
  CHECK(add.reduce(Target{}, x, ufx::all_axes, ufx::where(m)) == 9.f);
  CHECK(flat(add.reduce(Target{}, x, ufx::where(m), ufx::initial(100.f))) == std::vector<float>{101, 105, 103});
  // np.add.reduce(x, where=m, axis=1, keepdims=True): [[4], [5]]
  const ufx::ndarray<float, 2> k = add.reduce(Target{}, x, ufx::axis{1}, ufx::keepdims, ufx::where(m));
  CHECK(k.shape() == std::array<ufx::index_t, 2>{2, 1});
  CHECK(flat(k) == std::vector<float>{4, 5});
  // a mask that broadcasts to x: np.add.reduce(x, where=[True, False, True]): [5, 0, 9]
  ufx::ndarray<bool, 1> mrow({3});
  mrow(0) = true, mrow(1) = false, mrow(2) = true;
  CHECK(flat(add.reduce(Target{}, x, ufx::where(mrow))) == std::vector<float>{5, 0, 9});
  // a temporary mask and initial, held by the call's arguments until it returns
  CHECK(add.reduce(Target{}, x, ufx::all_axes, ufx::where(ufx::ndarray<bool, 2>({2, 3}, true)), ufx::initial(1.f)) ==
        22.f);
  // a mask that x would have to broadcast to: NumPy's error
  const std::vector<float> v{1, 2, 3};
  CHECK(error_message([&] { (void)add.reduce(Target{}, v, ufx::where(m)); }) ==
        "ufx: f.reduce: the ufx::where mask of shape (2,3) does not broadcast to the reduced array's shape (3,)");
  // maximum with an identity of its own (-inf): NumPy's np.maximum.reduce(x, where=m, initial=-inf)
  const auto maxi = maximum.identity(-std::numeric_limits<float>::infinity());
  CHECK(flat(maxi.reduce(Target{}, x, ufx::axis{1}, ufx::where(m))) == std::vector<float>{3, 5});
}

TEST_CASE_TEMPLATE("f.reduceat is NumPy's ufunc.reduceat: segments, non-increasing indices, axes", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const std::vector<float> x{0, 1, 2, 3, 4, 5, 6, 7};
  // np.add.reduceat(np.arange(8.), [0, 4, 1, 5]): [6, 4, 10, 18]; [0, 4, 4, 7]: [6, 4, 15, 7]
  CHECK(add.reduceat(Target{}, x, std::vector<int>{0, 4, 1, 5}) == std::vector<float>{6, 4, 10, 18});
  CHECK(add.reduceat(Target{}, x, std::vector<long>{0, 4, 4, 7}) == std::vector<float>{6, 4, 15, 7});
  CHECK(add.reduceat(Target{}, x, std::vector<int>{}).empty());
  // a left fold in order, as NumPy's: a subtraction gives x[lo] - x[lo + 1] - ...
  const auto sub = ufx::vectorize([] UFX_HD(float a, float b) { return a - b; });
  CHECK(sub.reduceat(Target{}, x, std::vector<int>{1, 5}) == std::vector<float>{1 - 2 - 3 - 4, 5 - 6 - 7});
  // along axis 1 of a (2, 3, 4) array: np.add.reduceat(m, [0, 2], axis=1)
  const auto m = sample();
  const ufx::ndarray<float, 3> r = add.reduceat(Target{}, m, std::vector<int>{0, 2}, ufx::axis{1});
  CHECK(r.shape() == std::array<ufx::index_t, 3>{2, 2, 4});
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 4; ++k) {
      CHECK(r(i, 0, k) == m(i, 0, k) + m(i, 1, k));
      CHECK(r(i, 1, k) == m(i, 2, k));
    }
  // NumPy's IndexError texts
  CHECK(error_message([&] {
          (void)add.reduceat(Target{}, x, std::vector<int>{0, 8});
        }) == "ufx: f.reduceat: index 8 out-of-bounds in reduceat [0, 8)");
  CHECK(error_message([&] { (void)add.reduceat(Target{}, x, std::vector<int>{-1}); }) ==
        "ufx: f.reduceat: index -1 out-of-bounds in reduceat [0, 8)");
  CHECK_THROWS_AS((void)add.reduceat(Target{}, x, std::vector<int>{9}), ufx::index_error);
  CHECK(error_message([&] {
          (void)add.reduceat(Target{}, x, std::vector<std::uint64_t>{0, ~std::uint64_t(0)});
        }) == "ufx: f.reduceat: index 18446744073709551615 out-of-bounds in reduceat [0, 8)"); // not wrapped to -1
  if constexpr (Target::is_device) { // device data: a device result
    const auto d = ufx::to_device(x, Target{});
    const auto rd = add.reduceat(Target{}, d, std::vector<int>{0, 4, 1, 5});
    static_assert(std::is_same_v<std::remove_cvref_t<decltype(rd)>, ufx::device_array<float, 1>>);
    CHECK(flat(rd.to_host()) == std::vector<float>{6, 4, 10, 18});
  }
}

TEST_CASE_TEMPLATE("f.at is NumPy's unbuffered ufunc.at: repeated indices apply once each, in order", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  // a = zeros(5); np.add.at(a, [0, 1, 1, -1], 1): [1, 2, 0, 0, 1]
  std::vector<float> a(5, 0.f);
  add.at(Target{}, a, std::vector<int>{0, 1, 1, -1}, 1.f);
  CHECK(a == std::vector<float>{1, 2, 0, 0, 1});
  // b per index: np.add.at(a, [4, 4, 0], [10, 20, 30])
  add.at(Target{}, a, std::vector<int>{4, 4, 0}, std::vector<float>{10, 20, 30});
  CHECK(a == std::vector<float>{31, 2, 0, 0, 31});
  // in order: a[i] = a[i] * 2 - 1 twice is not (a[i] - 1) * 2 twice
  const auto twice_minus = ufx::vectorize([] UFX_HD(float v, float k) { return v * 2.f - k; });
  std::vector<float> c{3, 5};
  twice_minus.at(Target{}, c, std::vector<int>{1, 1}, std::vector<float>{1, 2});
  CHECK(c == std::vector<float>{3, (5 * 2 - 1) * 2 - 2});
  // rows of a 2-D array, b broadcast to (len(indices),) + a.shape[1:]:
  // m = zeros((3, 2)); np.add.at(m, [0, 0, 2], [[1, 2], [3, 4], [5, 6]]): [[4, 6], [0, 0], [5, 6]]
  ufx::ndarray<float, 2> m({3, 2}, 0.f), b({3, 2});
  for (int k = 0; k < 6; ++k) b.data()[k] = static_cast<float>(k + 1);
  add.at(Target{}, m, std::vector<int>{0, 0, 2}, b);
  CHECK(flat(m) == std::vector<float>{4, 6, 0, 0, 5, 6});
  const std::vector<float> per_column{100, 200}; // (2,) broadcasts to (3, 2)
  add.at(Target{}, m, std::vector<int>{1, 1, 1}, per_column);
  CHECK(flat(m) == std::vector<float>{4, 6, 300, 600, 5, 6});
  // a unary function: np.negative.at(a, [1, 1, 4])
  const auto neg = ufx::vectorize([] UFX_HD(float v) { return -v; });
  std::vector<float> n{1, 2, 3, 4, 5};
  neg.at(Target{}, n, std::vector<int>{1, 1, 4});
  CHECK(n == std::vector<float>{1, 2, 3, 4, -5});
  // NumPy's IndexError text; nothing written
  CHECK(error_message([&] {
          add.at(Target{}, n, std::vector<int>{0, 5}, 1.f);
        }) == "ufx: f.at: index 5 is out of bounds for axis 0 with size 5");
  CHECK(n == std::vector<float>{1, 2, 3, 4, -5});
  CHECK(error_message([&] {
          add.at(Target{}, m, std::vector<int>{0}, std::vector<float>{1, 2, 3});
        }).find("does not broadcast") != std::string::npos);
  if constexpr (Target::is_device) { // device data, written in place
    auto d = ufx::to_device(std::vector<float>(4, 0.f), Target{});
    add.at(Target{}, d, std::vector<int>{3, 3, 0}, 2.f);
    CHECK(flat(d.to_host()) == std::vector<float>{2, 0, 0, 4});
  }
}
