// Views without copies (ufx/views.hpp): reshape, transpose, permute, slice, expand_dims, squeeze and
// broadcast_to on ndarray, ndview and device_array; their shapes, strides and values against
// NumPy's; their errors; and the views as operands of vectorize, guvectorize and reducers.
#include "common.hpp"
#include "gufunc_cores.hpp"

#include <array>
#include <optional>
#include <type_traits>
#include <vector>

namespace {

using ufx::index_t;
using ufx_test::error_message;

template <std::size_t N>
using ext = std::array<index_t, N>;

/// 0, 1, 2, ... in an array of shape `shape`.
template <class T, int R>
ufx::ndarray<T, R> iota_nd(const ext<static_cast<std::size_t>(R)>& shape) {
  ufx::ndarray<T, R> a(shape);
  for (index_t i = 0; i < a.size(); ++i) a.data()[i] = static_cast<T>(i);
  return a;
}

/// The elements of a rank-1 view, in order.
template <class V>
std::vector<std::remove_cv_t<typename V::element_type>> elements(const V& v) {
  std::vector<std::remove_cv_t<typename V::element_type>> r;
  for (index_t i = 0; i < v.extent(0); ++i) r.push_back(v(i));
  return r;
}

struct axpy_f {
  UFX_HD float operator()(float a, float b) const { return 2 * a + b; }
};

} // namespace

TEST_CASE("reshape is a view of a contiguous array, with one extent inferred") {
  auto x = iota_nd<float, 1>({6});
  auto m = ufx::reshape(x, {2, 3});
  static_assert(std::is_same_v<decltype(m), ufx::ndview<float, 2>>);
  CHECK(m.shape() == ext<2>{2, 3});
  CHECK(m.strides() == ext<2>{3, 1});
  CHECK(m.data() == x.data());
  CHECK(m(1, 2) == 5.f);
  m(1, 0) = 30.f; // writes through
  CHECK(x(3) == 30.f);

  CHECK(ufx::reshape(x, {-1, 2}).shape() == ext<2>{3, 2});
  CHECK(ufx::reshape(x, {3, 1, -1}).shape() == ext<3>{3, 1, 2});
  CHECK(ufx::reshape(m, ext<1>{-1}).shape() == ext<1>{6});
  CHECK(ufx::reshape<3>(m, {1, 6, 1}).strides() == ext<3>{6, 1, 1});
  ufx::ndarray<int, 1> empty({0});
  CHECK(ufx::reshape(empty, {0, 3}).shape() == ext<2>{0, 3});
  ufx::ndarray<int, 0> scalar({}, 7);
  const auto s = ufx::reshape(scalar, {1, 1});
  CHECK(s.shape() == ext<2>{1, 1});
  CHECK(s(0, 0) == 7);
  CHECK(ufx::reshape(s, ext<0>{})() == 7); // rank 0
  CHECK(ufx::transpose(scalar)() == 7);

  const ufx::ndarray<float, 1> cx = x;
  auto cm = ufx::reshape(cx, {3, 2});
  static_assert(std::is_same_v<decltype(cm), ufx::ndview<const float, 2>>); // a const array gives a const view
  CHECK(cm(2, 1) == 5.f);
}

TEST_CASE("reshape's errors name the shapes and the strides") {
  auto x = iota_nd<float, 2>({2, 3});
  CHECK(error_message([&] {
          ufx::reshape(x, {4, 2});
        }) == "ufx::reshape: cannot reshape an array of shape (2,3) (size 6) into shape (4,2) (size 8)");
  CHECK_THROWS_AS(ufx::reshape(x, {4, -1}), ufx::shape_error);
  CHECK(
      error_message([&] {
        ufx::reshape(x, {4, -1});
      }) ==
      "ufx::reshape: cannot reshape an array of shape (2,3) (size 6) into shape (4,-1): no extent at axis 1 makes the "
      "sizes equal");
  CHECK_THROWS_AS(ufx::reshape(x, {-1, -1}), ufx::value_error);
  CHECK(error_message([&] {
          ufx::reshape(x, {-1, -1});
        }) == "ufx::reshape: can only specify one unknown dimension (-1); the shape (-1,-1) has -1 at axes 0 and 1");
  CHECK_THROWS_AS(ufx::reshape(x, {-2, -3}), ufx::value_error);
  ufx::ndarray<int, 1> empty({0});
  CHECK_THROWS_AS(ufx::reshape(empty, {0, -1}), ufx::shape_error); // NumPy: ambiguous
  const auto t = ufx::transpose(x);
  CHECK_THROWS_AS(ufx::reshape(t, {6}), ufx::shape_error);
  CHECK(
      error_message([&] { ufx::reshape(t, {6}); }) ==
      "ufx::reshape: the array of shape (3,2) has strides (1,3) (in elements): it is not contiguous in C order, so no "
      "view of it has shape (6,); copy it first");
  // a slice with a step is not contiguous either; one along the first axis is
  CHECK_THROWS_AS(ufx::reshape(ufx::slice(x, ufx::all, ufx::range{0, 3, 2}), {4}), ufx::shape_error);
  CHECK(ufx::reshape(ufx::slice(x, ufx::range{1, 2}), {3})(2) == 5.f);
}

TEST_CASE("transpose reverses the axes and permute takes NumPy's transpose(axes)") {
  auto a = iota_nd<int, 3>({2, 3, 4});
  auto t = ufx::transpose(a);
  CHECK(t.shape() == ext<3>{4, 3, 2});
  CHECK(t.strides() == ext<3>{1, 4, 12});
  CHECK(t(3, 2, 1) == a(1, 2, 3));
  auto p = ufx::permute(a, {1, 0, 2});
  CHECK(p.shape() == ext<3>{3, 2, 4});
  CHECK(p(2, 1, 3) == a(1, 2, 3));
  auto q = ufx::permute(a, {-1, 0, -2}); // negative axes count from the end
  CHECK(q.shape() == ext<3>{4, 2, 3});
  CHECK(q(3, 1, 2) == a(1, 2, 3));
  CHECK(ufx::transpose(ufx::transpose(a)).strides() == ext<3>{12, 4, 1});
  auto three = iota_nd<int, 1>({3});
  CHECK(ufx::transpose(three.view()).shape() == ext<1>{3}); // rank 1: unchanged
  auto v = a.view();
  ufx::transpose(v)(0, 0, 1) = 99; // writes through
  CHECK(a(1, 0, 0) == 99);

  CHECK_THROWS_AS(ufx::permute(a, {0, 0, 2}), ufx::value_error);
  CHECK(error_message([&] {
          ufx::permute(a, {0, 0, 2});
        }) ==
        "ufx::permute: the axes (0,0,2) are not a permutation of the 3 axes of an array of shape (2,3,4): axis 0 at "
        "position 1 repeats");
  CHECK(error_message([&] {
          ufx::permute(a, {0, 3, 1});
        }) ==
        "ufx::permute: the axes (0,3,1) are not a permutation of the 3 axes of an array of shape (2,3,4): axis 3 at "
        "position 1 is out of range");
  CHECK_THROWS_AS(ufx::permute(a, {0, 1, -4}), ufx::value_error);
}

TEST_CASE("slice follows NumPy's rules for negative, missing and out-of-range bounds and negative steps") {
  struct slice_case {
    index_t n;
    std::optional<index_t> start, stop;
    index_t step;
    std::vector<int> expect; // list(range(n))[start:stop:step], from Python
  };
  const std::vector<slice_case> cases{
      {0, {}, {}, 1, {}},
      {0, {}, {}, -1, {}},
      {0, 1, 4, 1, {}},
      {0, 1, 4, 2, {}},
      {0, -2, {}, 1, {}},
      {0, {}, -2, 1, {}},
      {1, {}, {}, 1, {0}},
      {1, {}, {}, -1, {0}},
      {1, 1, 4, 1, {}},
      {1, 1, 4, 2, {}},
      {1, -2, {}, 1, {0}},
      {1, {}, -2, 1, {}},
      {1, -10, 10, 1, {0}},
      {1, 10, -10, -1, {0}},
      {1, 4, 1, -1, {}},
      {1, 4, 1, -2, {}},
      {1, -1, -6, -2, {0}},
      {1, 3, 3, 1, {}},
      {1, 4, 1, 1, {}},
      {1, 1, 4, -1, {}},
      {1, {}, {}, 3, {0}},
      {1, {}, {}, -2, {0}},
      {1, -7, 2, 1, {0}},
      {1, 7, {}, -1, {0}},
      {1, {}, -7, -1, {0}},
      {1, 2, {}, -1, {0}},
      {1, -1, {}, -3, {0}},
      {5, {}, {}, 1, {0, 1, 2, 3, 4}},
      {5, {}, {}, -1, {4, 3, 2, 1, 0}},
      {5, 1, 4, 1, {1, 2, 3}},
      {5, 1, 4, 2, {1, 3}},
      {5, -2, {}, 1, {3, 4}},
      {5, {}, -2, 1, {0, 1, 2}},
      {5, -10, 10, 1, {0, 1, 2, 3, 4}},
      {5, 10, -10, -1, {4, 3, 2, 1, 0}},
      {5, 4, 1, -1, {4, 3, 2}},
      {5, 4, 1, -2, {4, 2}},
      {5, -1, -6, -2, {4, 2, 0}},
      {5, 3, 3, 1, {}},
      {5, 4, 1, 1, {}},
      {5, 1, 4, -1, {}},
      {5, {}, {}, 3, {0, 3}},
      {5, {}, {}, -2, {4, 2, 0}},
      {5, -7, 2, 1, {0, 1}},
      {5, 7, {}, -1, {4, 3, 2, 1, 0}},
      {5, {}, -7, -1, {4, 3, 2, 1, 0}},
      {5, 2, {}, -1, {2, 1, 0}},
      {5, -1, {}, -3, {4, 1}},
  };
  for (const auto& c : cases) {
    auto x = iota_nd<int, 1>({c.n});
    const auto s = ufx::slice(x, ufx::range{c.start, c.stop, c.step});
    INFO("n=" << c.n << " start=" << (c.start ? *c.start : 999) << " stop=" << (c.stop ? *c.stop : 999)
              << " step=" << c.step);
    CHECK(elements(s) == c.expect);
  }
  auto x = iota_nd<int, 1>({5});
  const auto r = ufx::slice(x, ufx::range{ufx::none, ufx::none, -1}); // x[::-1]
  CHECK(r.stride(0) == -1);
  CHECK(r.data() == x.data() + 4);
}

TEST_CASE("slice takes ranges, ufx::all, integers and ufx::newaxis per axis") {
  auto a = iota_nd<int, 3>({2, 3, 4});
  auto s = ufx::slice(a, ufx::all, ufx::range{1, 3}, ufx::range{{}, {}, 2}); // a[:, 1:3, ::2]
  static_assert(std::is_same_v<decltype(s), ufx::ndview<int, 3>>);
  CHECK(s.shape() == ext<3>{2, 2, 2});
  CHECK(s.strides() == ext<3>{12, 4, 2});
  CHECK(s(1, 1, 1) == a(1, 2, 2));
  auto first = ufx::slice(a, ufx::range{0, 1}); // a[0:1]: the other axes whole
  CHECK(first.shape() == ext<3>{1, 3, 4});
  auto row = ufx::slice(a, 1, -1); // a[1, -1]: integers drop their axes
  static_assert(std::is_same_v<decltype(row), ufx::ndview<int, 1>>);
  CHECK(elements(row) == std::vector<int>{20, 21, 22, 23});
  auto e = ufx::slice(a, 1, 2, 3); // every axis: rank 0
  static_assert(decltype(e)::rank == 0);
  CHECK(e() == 23);
  auto n = ufx::slice(a, ufx::newaxis, 0, ufx::all, ufx::newaxis); // a[None, 0, :, None]
  CHECK(n.shape() == ext<4>{1, 3, 1, 4});
  CHECK(n(0, 2, 0, 3) == a(0, 2, 3));
  auto rev =
      ufx::slice(a, ufx::range{{}, {}, -1}, ufx::range{{}, {}, -2}, ufx::range{-1, 0, -3}); // a[::-1, ::-2, -1:0:-3]
  CHECK(rev.shape() == ext<3>{2, 2, 1});
  CHECK(rev(0, 1, 0) == a(1, 0, 3));
  ufx::slice(a, 0, 0)(1) = -5; // writes through
  CHECK(a(0, 0, 1) == -5);
  // a slice of a slice
  auto ten = iota_nd<int, 1>({10});
  CHECK(elements(ufx::slice(ufx::slice(ten, ufx::range{1, {}, 2}), ufx::range{{}, {}, -1})) ==
        std::vector<int>{9, 7, 5, 3, 1});

  CHECK_THROWS_AS(ufx::slice(a, ufx::all, ufx::range{0, 3, 0}), ufx::value_error);
  CHECK(error_message([&] {
          ufx::slice(a, ufx::all, ufx::range{0, 3, 0});
        }) == "ufx::slice: the slice step of axis 1 is zero (array of shape (2,3,4))");
  CHECK_THROWS_AS(ufx::slice(a, 2), ufx::shape_error);
  CHECK(error_message([&] { ufx::slice(a, ufx::all, -4); }) ==
        "ufx::slice: index -4 is out of bounds for axis 1 with size 3 (array of shape (2,3,4))");
}

TEST_CASE("expand_dims and squeeze add and drop axes of extent 1") {
  auto x = iota_nd<float, 1>({3});
  auto col = ufx::expand_dims<1>(x); // x[:, np.newaxis]
  CHECK(col.shape() == ext<2>{3, 1});
  CHECK(col(2, 0) == 2.f);
  CHECK(ufx::expand_dims<0>(x).shape() == ext<2>{1, 3});
  CHECK(ufx::expand_dims<-1>(x).shape() == ext<2>{3, 1});
  CHECK(ufx::expand_dims<-2>(x).shape() == ext<2>{1, 3});
  auto m = iota_nd<float, 2>({2, 3});
  CHECK(ufx::expand_dims<1>(m).shape() == ext<3>{2, 1, 3});
  CHECK(ufx::expand_dims<1>(m)(1, 0, 2) == 5.f);
  ufx::ndarray<int, 0> scalar({}, 4);
  CHECK(ufx::expand_dims<0>(scalar).shape() == ext<1>{1});

  CHECK(ufx::squeeze<1>(col).shape() == ext<1>{3});
  CHECK(elements(ufx::squeeze<-1>(col)) == std::vector<float>{0, 1, 2});
  auto one = iota_nd<float, 3>({1, 3, 1});
  CHECK(ufx::squeeze<0>(one).shape() == ext<2>{3, 1});
  CHECK(ufx::squeeze<2>(one).strides() == ext<2>{3, 1});
  auto e = ufx::squeeze<0>(ufx::slice(m, 1, ufx::range{2, 3})); // m[1, 2:3] squeezed: rank 0
  static_assert(decltype(e)::rank == 0);
  CHECK(e() == 5.f);

  CHECK_THROWS_AS(ufx::squeeze<0>(m), ufx::shape_error);
  CHECK(error_message([&] { ufx::squeeze<-1>(m); }) ==
        "ufx::squeeze: cannot select an axis to squeeze out which has size not equal to one: axis 1 of shape (2,3) has "
        "extent 3");
}

TEST_CASE("broadcast_to is a read-only view with stride 0 on the broadcast axes") {
  auto x = iota_nd<float, 1>({3});
  auto b = ufx::broadcast_to(x, {2, 3});
  static_assert(std::is_same_v<decltype(b), ufx::ndview<const float, 2>>); // read-only, as NumPy's
  CHECK(b.shape() == ext<2>{2, 3});
  CHECK(b.strides() == ext<2>{0, 1});
  CHECK(b(1, 2) == 2.f);
  auto col = ufx::expand_dims<1>(x);
  auto c = ufx::broadcast_to(col, ext<3>{4, 3, 5});
  CHECK(c.strides() == ext<3>{0, 1, 0});
  CHECK(c(3, 1, 4) == 1.f);
  CHECK(ufx::broadcast_to(x, {3}).strides() == ext<1>{1});
  CHECK(ufx::broadcast_to(x, {0, 3}).size() == 0);
  ufx::ndarray<float, 0> s({}, 2.5f);
  CHECK(ufx::broadcast_to(s, {2, 2})(1, 1) == 2.5f);
  CHECK(ufx::broadcast_to(s, ext<0>{})() == 2.5f);

  CHECK_THROWS_AS(ufx::broadcast_to(x, {2, 4}), ufx::shape_error);
  CHECK(error_message([&] {
          ufx::broadcast_to(x, {2, 4});
        }) ==
        "ufx::broadcast_to: cannot broadcast an array of shape (3,) to shape (2,4): its axis 0 has extent 3 where the "
        "target's axis 1 has 4 (extents must be equal, or 1)");
  CHECK(error_message([&] { ufx::broadcast_to(col, {3, 0}); }) == "<no exception>"); // 1 broadcasts to 0
  CHECK_THROWS_AS(ufx::broadcast_to(x, {-1, 3}), ufx::value_error);
}

TEST_CASE("views of a device_array are device views, and calls on them stay on the device") {
  const std::vector<float> host{0, 1, 2, 3, 4, 5};
  auto d = ufx::to_device(host, ufx::sim);
  auto m = ufx::reshape(d, {2, 3});
  static_assert(std::is_same_v<decltype(m), ufx::device_view<float, 2>>);
  CHECK(m.data() == d.data());
  auto t = ufx::transpose(m);
  auto r = ufx::slice(d, ufx::range{{}, {}, -2}); // [5, 3, 1]
  auto col = ufx::expand_dims<1>(d);
  auto b = ufx::broadcast_to(d, {2, 6});
  static_assert(std::is_same_v<decltype(b), ufx::device_view<const float, 2>>);
  static_assert(std::is_same_v<decltype(ufx::squeeze<1>(col)), ufx::device_view<float, 1>>);
  static_assert(std::is_same_v<decltype(ufx::permute(d, {0})), ufx::device_view<float, 1>>);

  auto add = ufx::vectorize(ufx_test::add_f{});
  auto tt = add(t, 0.f); // a call on a device view returns a device_array
  static_assert(std::is_same_v<decltype(tt), ufx::device_array<float, 2>>);
  const auto th = tt.to_host();
  CHECK(th.shape() == ext<2>{3, 2});
  CHECK(th(2, 1) == 5.f);
  const auto rb = add(r, ufx::slice(b, ufx::all, ufx::range{{}, 3})).to_host(); // (3,) + (2,3)
  CHECK(rb.shape() == ext<2>{2, 3});
  CHECK(rb(1, 0) == 5.f);
  CHECK(rb(1, 2) == 3.f);
  const auto outer = add(col, d).to_host(); // (6,1) + (6,)
  CHECK(outer.shape() == ext<2>{6, 6});
  CHECK(outer(4, 5) == 9.f);
  add(r, 10.f, ufx::out(r)); // in place, through a negative stride
  CHECK(d.to_host()(5) == 15.f);
  CHECK(d.to_host()(4) == 4.f);
}

TEST_CASE_TEMPLATE("views with negative, zero and permuted strides are operands and destinations", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto axpy = ufx::vectorize(axpy_f{});
  auto x = iota_nd<float, 1>({6});
  auto m = ufx::reshape(x, {2, 3});
  // reversed and broadcast inputs: 2 * m[::-1, ::-1] + broadcast_to(x[:3], (2,3))
  const auto rev = ufx::slice(m, ufx::range{{}, {}, -1}, ufx::range{{}, {}, -1}); // m[::-1, ::-1]
  const auto b = ufx::broadcast_to(ufx::slice(x, ufx::range{{}, 3}), {2, 3});
  ufx::ndarray<float, 2> r = axpy(Target{}, rev, b);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) CHECK(r(i, j) == 2 * m(1 - i, 2 - j) + static_cast<float>(j));
  // a transposed input and a reversed destination
  ufx::ndarray<float, 2> dst({3, 2}, 0.f);
  axpy(Target{}, ufx::transpose(m), 1.f, ufx::out(ufx::slice(dst, ufx::range{{}, {}, -1})));
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j) CHECK(dst(2 - i, j) == 2 * m(j, i) + 1);
  // in place through a reversed view of itself: NumPy's answer reads the untouched input
  auto y = iota_nd<float, 1>({5});
  axpy(Target{}, ufx::slice(y, ufx::range{{}, {}, -1}), y, ufx::out(y));
  CHECK(elements(y.view()) == std::vector<float>{8, 7, 6, 5, 4});

  // a destination that writes one element many times is refused (broadcast_to's views are const)
  ufx::ndarray<float, 1> one({3}, 0.f);
  ufx::ndview<float, 2> bad(one.data(), {2, 3}, {0, 1});
  CHECK_THROWS_AS(axpy(Target{}, m, 1.f, ufx::out(bad)), ufx::value_error);
  CHECK(error_message([&] { axpy(Target{}, m, 1.f, ufx::out(bad)); }) ==
        "ufx::vectorize: a destination of shape (2,3) has stride 0 along axis 0 (extent 2): its elements would be "
        "written more than once. A broadcast view cannot be written; write into an array of that shape");
  CHECK(elements(one.view()) == std::vector<float>{0, 0, 0});
  ufx::ndview<float, 2> fine(one.data(), {1, 3}, {0, 1}); // stride 0 along an extent of 1 is harmless
  axpy(Target{}, ufx::slice(m, ufx::range{1, 2}), 0.f, ufx::out(fine));
  CHECK(elements(one.view()) == std::vector<float>{6, 8, 10});
}

TEST_CASE_TEMPLATE("reducers and gufuncs read views with negative and zero strides", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  auto sum = ufx::reducer(ufx::plus{}, 0.0f);
  auto x = iota_nd<float, 1>({6});
  auto m = ufx::reshape(x, {2, 3});
  CHECK(sum(Target{}, ufx::slice(x, ufx::range{{}, {}, -2})) == 9.f);           // 5 + 3 + 1
  CHECK(sum(Target{}, ufx::broadcast_to(m, {4, 2, 3})) == 60.f);                // 4 * 15
  ufx::ndarray<float, 1> cols = sum(Target{}, ufx::transpose(m), ufx::axis{1}); // m's column sums
  CHECK(elements(cols.view()) == std::vector<float>{3, 5, 7});
  ufx::ndarray<float, 2> rows =
      sum(Target{}, ufx::broadcast_to(ufx::expand_dims<0>(x), {3, 6}), ufx::axis{1}, ufx::keepdims);
  CHECK(rows.shape() == ext<2>{3, 1});
  CHECK(rows(2, 0) == 15.f);

  auto dot = ufx::guvectorize<"(n),(n)->()">(ufx_test::dot_f{});
  const auto w = ufx::broadcast_to(ufx::slice(x, ufx::range{{}, 3}), {2, 3});                   // rows of [0, 1, 2]
  ufx::ndarray<float, 1> d = dot(Target{}, ufx::slice(m, ufx::all, ufx::range{{}, {}, -1}), w); // m[:, ::-1] . w
  CHECK(elements(d.view()) == std::vector<float>{1, 10});
  ufx::ndarray<float, 1> e =
      dot(Target{}, ufx::transpose(m), ufx::broadcast_to(ufx::slice(x, ufx::range{{}, 2}), {3, 2}));
  CHECK(elements(e.view()) == std::vector<float>{3, 4, 5}); // column j of m . [0, 1]
}

TEST_CASE_TEMPLATE("the issue's examples: matmul as a broadcast of (n,1,k) and (1,n,k) views, and (n,1) + (1,n)",
                   Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  // the tutorial's matmul of one pair of n x n matrices, C = A B, as NumPy's
  // (A[:, None, :] * B.T[None, :, :]).sum(-1) with a "(k),(k)->()" gufunc: no copies, no hand-made strides
  const int n = 7;
  ufx::ndarray<double, 2> A({n, n}), B({n, n});
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      A(i, j) = 1 + i - 0.5 * j;
      B(i, j) = 0.25 * i * j - j + 2;
    }
  auto dot = ufx::guvectorize<"(k),(k)->()">(ufx_test::dot_f{});
  ufx::ndarray<double, 2> C =
      dot(Target{}, ufx::expand_dims<1>(A), ufx::expand_dims<0>(ufx::transpose(B))); // (n,1,k), (1,n,k)
  REQUIRE(C.shape() == ext<2>{n, n});
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double c = 0;
      for (int k = 0; k < n; ++k) c += A(i, k) * B(k, j);
      CHECK(C(i, j) == doctest::Approx(c));
    }

  // (n,1) + (1,n) from two 1-D arrays
  const auto x = iota_nd<float, 1>({4});
  const auto y = ufx::ndarray<float, 1>::of({10, 20, 30});
  auto add = ufx::vectorize(ufx_test::add_f{});
  ufx::ndarray<float, 2> t = add(Target{}, ufx::expand_dims<1>(x), ufx::expand_dims<0>(y));
  REQUIRE(t.shape() == ext<2>{4, 3});
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j) CHECK(t(i, j) == x(i) + y(j));
}
