// Everyday array tools: printing (ufx/print.hpp), construction (ufx/creation.hpp, nested lists in
// ufx/ndarray.hpp) and seeded random arrays (ufx/random.hpp). Expected strings are NumPy's print().
#include "common.hpp"

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <sstream>

namespace {

template <class A>
auto host_copy(const A& a) {
  if constexpr (requires { a.to_host(); }) return a.to_host();
  else return a;
}

template <class T, int R>
bool same_bits(const ufx::ndarray<T, R>& a, const ufx::ndarray<T, R>& b) {
  return a.shape() == b.shape() && std::memcmp(a.data(), b.data(), sizeof(T) * static_cast<std::size_t>(a.size())) == 0;
}

/// A rank-1 array of T from doubles (each rounded once to T).
template <class T>
ufx::ndarray<T, 1> array_of(std::initializer_list<double> values) {
  ufx::ndarray<T, 1> a({static_cast<ufx::index_t>(values.size())});
  ufx::index_t i = 0;
  for (double x : values) a(i++) = static_cast<T>(x);
  return a;
}

/// The bits of a float16 or bfloat16 array.
template <class H>
std::vector<std::uint16_t> bits_of(const ufx::ndarray<H, 1>& a) {
  std::vector<std::uint16_t> b;
  for (H x : a) b.push_back(x.bits());
  return b;
}

template <class T>
void check_moments(const ufx::ndarray<T, 1>& a, double mean, double sd) {
  double s = 0, s2 = 0;
  for (T x : a) s += static_cast<double>(x);
  const double n = static_cast<double>(a.size()), m = s / n;
  for (T x : a) s2 += (static_cast<double>(x) - m) * (static_cast<double>(x) - m);
  const double sample_sd = std::sqrt(s2 / (n - 1));
  CHECK(std::fabs(m - mean) < 5 * sd / std::sqrt(n));           // 5 standard errors of the mean
  CHECK(std::fabs(sample_sd - sd) < 5 * sd / std::sqrt(2 * n)); // and of the standard deviation
}

} // namespace

TEST_CASE("integer arrays of rank 0 to 3 print as NumPy's print does") {
  CHECK(ufx::to_string(ufx::ndarray<int, 0>({}, 7)) == "7");
  CHECK(ufx::to_string(ufx::ndarray<int, 1>::of({1, 2, 3})) == "[1 2 3]");
  CHECK(ufx::to_string(ufx::ndarray<int, 2>{{1, -20}, {300, 4}}) == "[[  1 -20]\n [300   4]]");
  CHECK(ufx::to_string(ufx::ndarray<long, 3>{{{0, 1}, {2, 3}}, {{4, 5}, {6, 7}}}) ==
        "[[[0 1]\n  [2 3]]\n\n [[4 5]\n  [6 7]]]");
  CHECK(ufx::to_string(ufx::ndarray<unsigned char, 1>::of({7, 255})) == "[  7 255]");
  CHECK(ufx::to_string(ufx::ndarray<bool, 1>::of({true, false})) == "[ True False]");
  CHECK(ufx::to_string(ufx::ndarray<bool, 0>({}, true)) == "True");
}

TEST_CASE("float arrays print NumPy's shortest digits, aligned on the point") {
  CHECK(ufx::to_string(ufx::ndarray<double, 0>({}, 2.5)) == "2.5");
  CHECK(ufx::to_string(ufx::ndarray<double, 0>({}, 3.0)) == "3.0");
  CHECK(ufx::to_string(ufx::ndarray<double, 0>({}, 1e-5)) == "1e-05");
  CHECK(ufx::to_string(ufx::ndarray<float, 1>::of({1, 2})) == "[1. 2.]");
  CHECK(ufx::to_string(ufx::ndarray<float, 1>::of({1.5f, 2.25f})) == "[1.5  2.25]");
  CHECK(ufx::to_string(ufx::ndarray<float, 2>{{1, 2.5f}, {-3, 4}}) == "[[ 1.   2.5]\n [-3.   4. ]]");
  CHECK(ufx::to_string(ufx::ndarray<float, 1>::of({0.1f, 0.2f, 1.1f})) == "[0.1 0.2 1.1]"); // float32's digits
  CHECK(ufx::to_string(ufx::ndarray<double, 1>::of({1.0 / 3, 2.0 / 3})) == "[0.33333333 0.66666667]");
  CHECK(ufx::to_string(ufx::ndarray<double, 1>::of({1e-5, 1.0})) == "[1.e-05 1.e+00]");
  CHECK(ufx::to_string(ufx::ndarray<double, 1>::of({1.5e-5, 1000.0})) == "[1.5e-05 1.0e+03]");
  CHECK(ufx::to_string(ufx::ndarray<double, 1>::of({-2e8, 1.0})) == "[-2.e+08  1.e+00]");
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(ufx::to_string(ufx::ndarray<double, 1>::of({1.0, nan, -inf})) == "[  1.  nan -inf]");
  CHECK(ufx::to_string(ufx::ndarray<double, 1>::of({nan, inf})) == "[nan inf]");
  CHECK(ufx::to_string(ufx::ndarray<double, 0>({}, -inf)) == "-inf");
}

TEST_CASE("float16, bfloat16 and complex arrays print as NumPy's print does") {
  using H = ufx::float16;
  using C = std::complex<double>;
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  // float16: the shortest digits that read back as the float16, the layout of float arrays
  CHECK(ufx::to_string(ufx::arange<H>(0, 1, 0.1)) ==
        "[0.     0.1    0.2    0.2998 0.4    0.5    0.5996 0.6997 0.8    0.9   ]");
  CHECK(ufx::to_string(array_of<H>({0.1, 1, 2.5, 1000})) == "[1.0e-01 1.0e+00 2.5e+00 1.0e+03]"); // 1000 / 0.09998
  CHECK(ufx::to_string(array_of<H>({1e-4, 1, 65504})) == "[1.00e-04 1.00e+00 6.55e+04]");
  CHECK(ufx::to_string(array_of<H>({1. / 3, 2. / 3, 60000})) == "[3.333e-01 6.665e-01 6.000e+04]");
  CHECK(ufx::to_string(array_of<H>({0.000123, 0.00012})) == "[0.000123 0.00012 ]");
  CHECK(ufx::to_string(array_of<H>({0.1, nan, -inf})) == "[ 0.1  nan -inf]");
  CHECK(ufx::to_string(array_of<H>({-0.0, 0.0})) == "[-0.  0.]");
  CHECK(ufx::to_string(ufx::ndarray<H, 2>({2, 2}, H(3))) == "[[3. 3.]\n [3. 3.]]");
  CHECK(ufx::to_string(ufx::ndarray<H, 0>({}, H(0.1))) == "0.1");
  CHECK(ufx::to_string(array_of<ufx::bfloat16>({0.1, 1. / 3, 100})) == "[  0.1     0.334 100.   ]"); // NumPy has none
  // complex: the real parts as one float array, the imaginary parts as another with a sign
  CHECK(ufx::to_string(ufx::ndarray<C, 1>::of({{1, 2}, {3, -4.5}})) == "[1.+2.j  3.-4.5j]");
  CHECK(ufx::to_string(ufx::ndarray<std::complex<float>, 1>::of({{0.1f, 0.2f}})) == "[0.1+0.2j]"); // float32's digits
  CHECK(ufx::to_string(ufx::ndarray<C, 1>::of({{1e-5, 2}, {3, -4.5}})) == "[1.e-05+2.j  3.e+00-4.5j]");
  CHECK(ufx::to_string(ufx::ndarray<C, 1>::of({{0, 1}, {nan, inf}, {-inf, 0}})) == "[  0. +1.j  nan+infj -inf +0.j]");
  CHECK(ufx::to_string(ufx::ndarray<C, 2>{{{1, 1}, {2, 0}}, {{3, 0}, {4, -1e-3}}}) ==
        "[[1.+1.j    2.+0.j   ]\n [3.+0.j    4.-0.001j]]");
  // a rank-0 complex array prints as NumPy's complex scalar
  CHECK(ufx::to_string(ufx::ndarray<C, 0>({}, C(1, 2))) == "(1+2j)");
  CHECK(ufx::to_string(ufx::ndarray<C, 0>({}, C(0, 2))) == "2j");
  CHECK(ufx::to_string(ufx::ndarray<C, 0>({}, C(1e-5, 1e20))) == "(1e-05+1e+20j)");
  CHECK(ufx::to_string(ufx::ndarray<C, 0>({}, C(1, -0.0))) == "(1-0j)");
  CHECK(ufx::to_string(ufx::ndarray<C, 0>({}, C(nan, inf))) == "(nan+infj)");
  CHECK(ufx::to_string(ufx::ndarray<std::complex<float>, 0>({}, {1e-4f, 0.5f})) == "(1e-04+0.5j)"); // below 1e-4
  CHECK(ufx::to_string(ufx::ndarray<float, 0>({}, 1e-4f)) == "1e-04");                              // as NumPy
}

TEST_CASE("long rows wrap at 75 characters and big arrays are summarised") {
  CHECK(ufx::to_string(ufx::arange(30)) ==
        "[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 21 22 23\n 24 25 26 27 28 29]");
  CHECK(ufx::to_string(ufx::arange(1000)).find("...") == std::string::npos); // 1000 is not over the threshold
  CHECK(ufx::to_string(ufx::arange(2000)) == "[   0    1    2 ... 1997 1998 1999]");
  ufx::ndarray<int, 2> m({20, 100});
  for (int i = 0; i < 20; ++i)
    for (int j = 0; j < 100; ++j) m(i, j) = 100 * i + j;
  CHECK(ufx::to_string(m) == "[[   0    1    2 ...   97   98   99]\n"
                             " [ 100  101  102 ...  197  198  199]\n"
                             " [ 200  201  202 ...  297  298  299]\n"
                             " ...\n"
                             " [1700 1701 1702 ... 1797 1798 1799]\n"
                             " [1800 1801 1802 ... 1897 1898 1899]\n"
                             " [1900 1901 1902 ... 1997 1998 1999]]");
  ufx::ndarray<int, 3> c({7, 2, 100}); // axis 1 is short: shown whole
  for (int i = 0; i < c.size(); ++i) c.data()[i] = i;
  CHECK(ufx::to_string(c) == "[[[   0    1    2 ...   97   98   99]\n"
                             "  [ 100  101  102 ...  197  198  199]]\n\n"
                             " [[ 200  201  202 ...  297  298  299]\n"
                             "  [ 300  301  302 ...  397  398  399]]\n\n"
                             " [[ 400  401  402 ...  497  498  499]\n"
                             "  [ 500  501  502 ...  597  598  599]]\n\n"
                             " ...\n\n"
                             " [[ 800  801  802 ...  897  898  899]\n"
                             "  [ 900  901  902 ...  997  998  999]]\n\n"
                             " [[1000 1001 1002 ... 1097 1098 1099]\n"
                             "  [1100 1101 1102 ... 1197 1198 1199]]\n\n"
                             " [[1200 1201 1202 ... 1297 1298 1299]\n"
                             "  [1300 1301 1302 ... 1397 1398 1399]]]");
  // the widths come from the shown elements only
  ufx::ndarray<double, 2> w({2, 600}, 0.5);
  w(0, 300) = 1e9; // hidden: does not switch the array to scientific notation
  CHECK(ufx::to_string(w) == "[[0.5 0.5 0.5 ... 0.5 0.5 0.5]\n [0.5 0.5 0.5 ... 0.5 0.5 0.5]]");
}

TEST_CASE("empty arrays print as []") {
  CHECK(ufx::to_string(ufx::zeros<float>({0})) == "[]");
  CHECK(ufx::to_string(ufx::zeros<int>({2, 0})) == "[]");
  CHECK(ufx::to_string(ufx::ndarray<double, 3>({0, 3, 2})) == "[]");
}

TEST_CASE("views, device arrays and streams print the same way") {
  float buf[6] = {0, 1, 2, 3, 4, 5};
  const ufx::ndview<float, 2> t(buf, {3, 2}, {1, 3}); // a transpose
  CHECK(ufx::to_string(t) == "[[0. 3.]\n [1. 4.]\n [2. 5.]]");
  std::ostringstream os;
  os << t << '|' << ufx::ndarray<int, 1>::of({4, 5}) << '|' << ufx::to_device(std::vector<int>{-1, 2}, ufx::sim);
  CHECK(os.str() == "[[0. 3.]\n [1. 4.]\n [2. 5.]]|[4 5]|[-1  2]");
  auto d = ufx::to_device(ufx::ndarray<float, 2>{{1, 2}, {3, 4}}, ufx::sim);
  CHECK(ufx::to_string(d) == "[[1. 2.]\n [3. 4.]]");
  CHECK(ufx::to_string(d.view()) == "[[1. 2.]\n [3. 4.]]"); // a view into device memory is copied too
}

TEST_CASE("an ndarray is built from nested lists; a ragged list is a shape error") {
  const ufx::ndarray<float, 2> a{{1, 2, 3}, {4, 5, 6}};
  CHECK(a.shape() == std::array<ufx::index_t, 2>{2, 3});
  CHECK(a(0, 2) == 3.f);
  CHECK(a(1, 0) == 4.f);
  const ufx::ndarray<int, 3> b{{{1}, {2}}, {{3}, {4}}, {{5}, {6}}};
  CHECK(b.shape() == std::array<ufx::index_t, 3>{3, 2, 1});
  CHECK(b(2, 1, 0) == 6);
  const ufx::ndarray<int, 2> e{{}, {}};
  CHECK(e.shape() == std::array<ufx::index_t, 2>{2, 0});
  const ufx::ndarray<float, 2> shape_only({2, 3}); // a braced shape still means a shape
  CHECK(shape_only.shape() == std::array<ufx::index_t, 2>{2, 3});
  CHECK(ufx_test::error_message([] {
          ufx::ndarray<int, 2>{{1, 2}, {3, 4}, {5}};
        }) == "ufx::ndarray: the nested list is ragged: row [2] has length 1 but row [0] has length 2");
  CHECK(ufx_test::error_message([] {
          ufx::ndarray<int, 3>{{{1, 2}, {3, 4}}, {{5, 6}, {7}}};
        }) == "ufx::ndarray: the nested list is ragged: row [1, 1] has length 1 but row [0, 0] has length 2");
  CHECK_THROWS_AS((ufx::ndarray<int, 3>{{{1}, {2}}, {{3}}}), ufx::shape_error);
}

TEST_CASE("arange has NumPy's length and values") {
  const auto i = ufx::arange(5);
  static_assert(std::is_same_v<decltype(i), const ufx::ndarray<int, 1>>);
  CHECK(i == ufx::ndarray<int, 1>::of({0, 1, 2, 3, 4}));
  CHECK(ufx::arange(2, 11, 3) == ufx::ndarray<int, 1>::of({2, 5, 8}));
  CHECK(ufx::arange(10, 0, -3) == ufx::ndarray<int, 1>::of({10, 7, 4, 1}));
  CHECK(ufx::arange(1, 5, -1).size() == 0);
  CHECK(ufx::arange(0).size() == 0);
  CHECK(ufx::arange(-3).size() == 0);
  const auto x = ufx::arange(0.0, 1.0, 0.25);
  CHECK(x == ufx::ndarray<double, 1>::of({0, 0.25, 0.5, 0.75}));
  CHECK(ufx::arange(0.0, 1.0, 0.1).size() == 10);
  CHECK(ufx::arange(0.5).size() == 1); // ceil(0.5)
  CHECK(ufx::arange(0, 1, 0.3) == ufx::ndarray<double, 1>::of({0, 0.3, 0.6, 0.3 * 3}));
  const auto f = ufx::arange<float>(3);
  static_assert(std::is_same_v<decltype(f), const ufx::ndarray<float, 1>>);
  CHECK(f == ufx::ndarray<float, 1>::of({0, 1, 2}));
  CHECK(ufx_test::error_message([] { ufx::arange(0, 5, 0); }) == "ufx::arange: the step is zero");
  CHECK_THROWS_AS(ufx::arange(0.0, 1.0, 0.0), ufx::value_error);
  CHECK(ufx_test::error_message([] { ufx::arange(0.0, std::numeric_limits<double>::infinity(), 1.0); }) ==
        "ufx::arange: the length, ceil((stop - start) / step), is not a finite array size");
  CHECK(ufx::arange(0.0, -std::numeric_limits<double>::infinity(), 1.0).size() == 0);
}

TEST_CASE("linspace includes the end point unless asked not to") {
  CHECK(ufx::linspace(0.0, 1.0, 5) == ufx::ndarray<double, 1>::of({0, 0.25, 0.5, 0.75, 1}));
  CHECK(ufx::linspace(0.0, 1.0, 4, false) == ufx::ndarray<double, 1>::of({0, 0.25, 0.5, 0.75}));
  const auto d = ufx::linspace(0, 10, 3); // integer ends give doubles, as NumPy's float64
  static_assert(std::is_same_v<decltype(d), const ufx::ndarray<double, 1>>);
  CHECK(d == ufx::ndarray<double, 1>::of({0, 5, 10}));
  const auto t = ufx::linspace(0.1, 0.7, 7);
  CHECK(t(6) == 0.7); // the end point exactly
  CHECK(ufx::linspace<float>(1, 2, 3) == ufx::ndarray<float, 1>::of({1, 1.5f, 2}));
  CHECK(ufx::linspace(3.0, 4.0, 1) == ufx::ndarray<double, 1>::of({3}));
  CHECK(ufx::linspace(3.0, 4.0, 0).size() == 0);
  CHECK(ufx_test::error_message([] { ufx::linspace(0.0, 1.0, -1); }) ==
        "ufx::linspace: the number of samples, -1, is negative");
}

TEST_CASE("arange, linspace and the fills of float16, bfloat16 and complex arrays are NumPy's") {
  using H = ufx::float16;
  // NumPy's HALF_fill: a[0], a[1] = start, start + step rounded to float16, then a[0] + i (a[1] - a[0]) in float
  CHECK(bits_of(ufx::arange<H>(0, 1, 0.1)) ==
        std::vector<std::uint16_t>{0, 0x2e66, 0x3266, 0x34cc, 0x3666, 0x3800, 0x38cc, 0x3999, 0x3a66, 0x3b33});
  CHECK(bits_of(ufx::arange<H>(-1, 1, 0.3)) ==
        std::vector<std::uint16_t>{0xbc00, 0xb99a, 0xb668, 0xae70, 0x3260, 0x37fc, 0x3a64});
  const auto long_h = ufx::arange<H>(0, 2000, 7.3);
  CHECK(long_h.size() == 274);
  CHECK(long_h(273).bits() == 0x67c9);
  CHECK(bits_of(ufx::linspace<H>(0, 1, 7)) ==
        std::vector<std::uint16_t>{0, 0x3155, 0x3555, 0x3800, 0x3955, 0x3aab, 0x3c00});
  CHECK(bits_of(ufx::linspace<ufx::bfloat16>(0, 1, 3)) == std::vector<std::uint16_t>{0, 0x3f00, 0x3f80});
  // the same fill for float, double and complex: a[1] - a[0], not step
  CHECK(ufx::arange(1.1, 3.3, 0.3)(7) == 3.2000000000000006);
  CHECK(ufx::arange<float>(1.1, 3.3, 0.3)(7) == 0x1.999998p+1f);
  CHECK(ufx::arange<std::complex<float>>(0.5, 3, 0.7) ==
        ufx::ndarray<std::complex<float>, 1>::of({0.5f, 0x1.333334p+0f, 0x1.e66668p+0f, 0x1.4cccce0p+1f}));
  // complex linspace: NumPy's step, (b - a) * (1 / steps), componentwise
  const auto lc = ufx::linspace(std::complex<double>(0.1, 0), std::complex<double>(0.7, 0.3), 50);
  CHECK(lc(1) == std::complex<double>(0x1.cbc14e5e0a72fp-4, 0x1.913da62386cabp-8));
  CHECK(lc(48) == std::complex<double>(0x1.60216fcdd84b3p-1, 0x1.2cee3c9aa5180p-2));
  CHECK(lc(49) == std::complex<double>(0.7, 0.3));
  const auto lf = ufx::linspace(std::complex<float>(0.5f, 0), std::complex<float>(3, 0.25f), 7);
  CHECK(lf(1) == std::complex<float>(0.9166666865348816f, 0.0416666679084301f)); // dtype=np.complex64
  CHECK(lf(5) == std::complex<float>(2.5833332538604736f, 0.2083333283662796f));
  // zeros, ones, full and the _like functions
  CHECK(bits_of(ufx::zeros<H>({2})) == std::vector<std::uint16_t>{0, 0});
  CHECK(bits_of(ufx::ones<ufx::bfloat16>({1})) == std::vector<std::uint16_t>{0x3f80});
  CHECK(bits_of(ufx::full({2}, H(0.1))) == std::vector<std::uint16_t>{0x2e66, 0x2e66});
  const auto z = ufx::ones<std::complex<double>>({2});
  CHECK(z == ufx::ndarray<std::complex<double>, 1>({2}, 1.0));
  CHECK(ufx::full_like(z, std::complex<double>(1, 2))(1) == std::complex<double>(1, 2));
  CHECK(bits_of(ufx::full_like(ufx::zeros<H>({2}), 0.1)) == std::vector<std::uint16_t>{0x2e66, 0x2e66});
  const auto d = ufx::full_like(ufx::to_device(ufx::zeros<H>({3}), ufx::sim), 65520); // filled on the sim: inf
  CHECK(bits_of(d.to_host()) == std::vector<std::uint16_t>{0x7c00, 0x7c00, 0x7c00});
}

TEST_CASE("zeros, ones and full have the shape and the value asked for") {
  const auto z = ufx::zeros<float>({2, 3});
  CHECK(z == ufx::ndarray<float, 2>({2, 3}, 0.f));
  const auto o = ufx::ones<int>({4});
  CHECK(o == ufx::ndarray<int, 1>::of({1, 1, 1, 1}));
  const auto f = ufx::full({2, 1, 2}, 7.5);
  static_assert(std::is_same_v<decltype(f), const ufx::ndarray<double, 3>>);
  CHECK(f == ufx::ndarray<double, 3>({2, 1, 2}, 7.5));
  CHECK(ufx::zeros<double>(std::array<ufx::index_t, 0>{})() == 0.0);
  CHECK(ufx::ones<float>(z.shape()) == ufx::ndarray<float, 2>({2, 3}, 1.f));
  CHECK_THROWS_AS(ufx::zeros<float>({2, -1}), ufx::shape_error);
}

TEST_CASE("the _like functions follow the array: host arrays and views give ndarrays, device data device arrays") {
  const ufx::ndarray<int, 2> a{{1, 2, 3}, {4, 5, 6}};
  CHECK(ufx::zeros_like(a) == ufx::ndarray<int, 2>({2, 3}, 0));
  CHECK(ufx::ones_like(a.view()) == ufx::ndarray<int, 2>({2, 3}, 1));
  CHECK(ufx::full_like(a, 2.9) == ufx::ndarray<int, 2>({2, 3}, 2)); // converted to the element type
  CHECK(ufx::empty_like(a).shape() == a.shape());

  auto d = ufx::to_device(a, ufx::sim);
  auto dz = ufx::full_like(d, 9);
  static_assert(std::is_same_v<decltype(dz), ufx::device_array<int, 2>>);
  CHECK(dz.space() == d.space());
  CHECK(dz.to_host() == ufx::ndarray<int, 2>({2, 3}, 9));
  CHECK(ufx::zeros_like(d).to_host() == ufx::ndarray<int, 2>({2, 3}, 0));
  CHECK(ufx::ones_like(d.view()).to_host() == ufx::ndarray<int, 2>({2, 3}, 1));
  CHECK(ufx::empty_like(d).space() == d.space());
}

TEST_CASE("to_vector copies a rank-1 array into a std::vector") {
  CHECK(ufx::to_vector(ufx::arange(3)) == std::vector<int>{0, 1, 2});
  CHECK(ufx::to_vector(ufx::to_device(std::vector<float>{1, 2}, ufx::sim)) == std::vector<float>{1, 2});
  CHECK(ufx::to_vector(ufx::zeros<double>({0})).empty());
}

TEST_CASE_TEMPLATE("random arrays are the same on every target", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const Target t{};
  const auto u = host_copy(ufx::random::uniform<float>(t, {1000, 3}, -1, 1, 42));
  CHECK(same_bits(u, ufx::random::uniform<float>(ufx::serial, {1000, 3}, -1, 1, 42)));
  CHECK(same_bits(u, ufx::random::uniform<float>({1000, 3}, -1, 1, 42))); // no target: ufx::host
  const auto n = host_copy(ufx::random::normal<double>(t, {3000}, 2, 3, 7));
  CHECK(same_bits(n, ufx::random::normal<double>(ufx::serial, {3000}, 2, 3, 7)));
  const auto nf = host_copy(ufx::random::normal<float>(t, {3000}, 2, 3, 7));
  CHECK(same_bits(nf, ufx::random::normal<float>(ufx::serial, {3000}, 2, 3, 7)));
  // float16 and bfloat16: drawn as float, then rounded once
  const auto uh = host_copy(ufx::random::uniform<ufx::float16>(t, {1000, 3}, -1, 1, 42));
  const auto nb = host_copy(ufx::random::normal<ufx::bfloat16>(t, {3000}, 2, 3, 7));
  int rounded = 0;
  for (ufx::index_t i = 0; i < 3000; ++i)
    rounded += uh.data()[i].bits() == ufx::float16(u.data()[i]).bits() && nb(i).bits() == ufx::bfloat16(nf(i)).bits();
  CHECK(rounded == 3000);
  // element i depends on the seed and i only: the shape does not matter
  const auto flat = host_copy(ufx::random::uniform<float>(t, {3000}, -1, 1, 42));
  CHECK(std::memcmp(flat.data(), u.data(), sizeof(float) * 3000) == 0);
  if constexpr (Target::is_device) {
    static_assert(std::is_same_v<decltype(ufx::random::normal(t, {2})), ufx::device_array<double, 1>>);
  } else {
    static_assert(std::is_same_v<decltype(ufx::random::normal(t, {2})), ufx::ndarray<double, 1>>);
  }
}

TEST_CASE("normal's own log and cos (the same bits on host and device) are within about an ulp of glibc's") {
  // u as normal draws it: a multiple of 2^-53, u1 in (0, 1], u2 in [0, 1)
  std::uint64_t s = 12345;
  double worst_log = 0, worst_cos = 0;
  for (int i = 0; i < 200000; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    const double u1 = i < 54 ? std::ldexp(1.0, -i) : static_cast<double>((s >> 11) + 1) * 0x1p-53;
    const double u2 = i < 64 ? i / 64.0 : static_cast<double>(s >> 11) * 0x1p-53;
    const double l = ufx::random::detail::portable_log(u1), lr = std::log(u1);
    const double ulp = lr == 0 ? 0x1p-1074 : std::abs(std::nextafter(lr, 0.0) - lr);
    worst_log = std::max(worst_log, std::abs(l - lr) / ulp);
    // cos(2 pi u2) against glibc's cos of 2 pi u2 in long double (the double 2 pi u2 is itself off by an ulp of 6)
    const double cr = static_cast<double>(std::cos(6.283185307179586476925286766559L * static_cast<long double>(u2)));
    worst_cos = std::max(worst_cos, std::abs(ufx::random::detail::portable_cos_turns(u2) - cr));
  }
  CHECK(worst_log <= 1.0);
  CHECK(worst_cos <= 3e-16);
  CHECK(ufx::random::detail::portable_log(1.0) == 0.0);
  CHECK(ufx::random::detail::portable_cos_turns(0.0) == 1.0);
  CHECK(ufx::random::detail::portable_cos_turns(0.5) == -1.0);
}

TEST_CASE("random arrays have the moments asked for") {
  const auto u = ufx::random::uniform<double>({1000000}, -1, 3, 1);
  CHECK(*std::min_element(u.begin(), u.end()) >= -1.0);
  CHECK(*std::max_element(u.begin(), u.end()) < 3.0);
  check_moments(u, 1.0, 4 / std::sqrt(12.0));
  const auto uf = ufx::random::uniform<float>({1000000}, 0, 1, 2);
  CHECK(*std::min_element(uf.begin(), uf.end()) >= 0.f);
  CHECK(*std::max_element(uf.begin(), uf.end()) < 1.f);
  check_moments(uf, 0.5, 1 / std::sqrt(12.0));
  check_moments(ufx::random::normal<double>({1000000}, 5, 2, 3), 5.0, 2.0);
  check_moments(ufx::random::normal<float>({1000000}, -1, 0.5f, 4), -1.0, 0.5);
  check_moments(ufx::random::normal({1000000}), 0.0, 1.0); // double, mean 0, sd 1, seed 0
}

TEST_CASE("random arrays differ between seeds, and a negative sd is an error") {
  const auto a = ufx::random::normal<float>({100}, 0, 1, 1), b = ufx::random::normal<float>({100}, 0, 1, 2);
  int same = 0;
  for (ufx::index_t i = 0; i < 100; ++i) same += a(i) == b(i);
  CHECK(same == 0);
  CHECK(same_bits(a, ufx::random::normal<float>({100}, 0, 1, 1))); // and repeat for one seed
  CHECK(ufx_test::error_message([] { ufx::random::normal<float>({4}, 0, -1, 1); }) ==
        "ufx::random::normal: the standard deviation, -1, is negative");
  CHECK_THROWS_AS(ufx::random::uniform<float>(ufx::sim, {-1}), ufx::shape_error);
}
