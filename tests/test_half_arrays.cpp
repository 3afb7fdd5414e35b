// ufx::float16 and ufx::bfloat16 arrays through the elementwise front doors, on every target:
// vectorize (typed and generic functions, float parameters, several outputs, a float16 ufx::out of a
// float result), lazy expressions, guvectorize and raw kernels (ndview<float16>). Each operation
// computes in float and rounds once, so every target gives the host's bits (NaNs compared as NaNs:
// their payload and sign are the platform's float arithmetic's).
#include "common.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

using ufx::bfloat16;
using ufx::float16;
using ufx::index_t;

namespace {

/// a * b + a in the arguments' type: two roundings for the half types.
struct mad_f {
  template <class T>
  UFX_HD T operator()(T a, T b) const {
    return a * b + a;
  }
};

/// A sample of every kind of value of H: bit patterns spread over the whole range (zeros, subnormals,
/// normals, infinities, NaNs), each array its own walk.
template <class H, int R>
ufx::ndarray<H, R> sample(const std::array<index_t, R>& shape, std::uint32_t step) {
  ufx::ndarray<H, R> a(shape);
  for (index_t i = 0; i < a.size(); ++i) a.data()[i] = H::from_bits(static_cast<std::uint16_t>(i * step + 12345u));
  return a;
}

/// Same bits, or NaN where the expected value is a NaN.
template <class H>
bool same(H got, H want) {
  return ufx::math::isnan(want) ? ufx::math::isnan(got) : got.bits() == want.bits();
}

template <class H, int R>
index_t mismatches(const ufx::ndarray<H, R>& got, const std::vector<H>& want) {
  index_t bad = 0;
  for (index_t i = 0; i < got.size(); ++i) bad += !same(got.data()[i], want[static_cast<std::size_t>(i)]);
  return bad;
}

/// (float16 in the 2-byte type's own function, float parameters, several outputs, out of a float result).
template <class Target, class H>
void elementwise_doors() {
  const auto x = sample<H, 2>({37, 29}, 7919u), y = sample<H, 2>({37, 29}, 104729u);
  std::vector<H> want(static_cast<std::size_t>(x.size()));
  for (index_t i = 0; i < x.size(); ++i) want[static_cast<std::size_t>(i)] = mad_f{}(x.data()[i], y.data()[i]);

  // a generic function computes in H (two roundings); a typed one in H too
  const ufx::ndarray<H, 2> g = ufx::vectorize(mad_f{})(Target{}, x, y);
  CHECK(mismatches(g, want) == 0);
  const auto typed = ufx::vectorize([] UFX_HD(H a, H b) { return a * b + a; });
  CHECK(mismatches(typed(Target{}, x, y), want) == 0);

  // float parameters (H into float is exact and safe): one rounding, into a float16 out (same_kind)
  const auto in_float = ufx::vectorize([] UFX_HD(float a, float b) { return a * b + a; });
  const ufx::ndarray<float, 2> f = in_float(Target{}, x, y);
  ufx::ndarray<H, 2> rounded({37, 29});
  in_float(Target{}, x, y, ufx::out(rounded));
  for (index_t i = 0; i < x.size(); ++i) {
    const float a = x.data()[i], b = y.data()[i];
    const float w = a * b + a;
    REQUIRE(((w != w) ? f.data()[i] != f.data()[i] : f.data()[i] == w));
    REQUIRE(same(rounded.data()[i], H(w)));
  }

  // a scalar of the type, broadcast; a row broadcast against the matrix
  const H two{2.f};
  const ufx::ndarray<H, 2> s = ufx::vectorize(mad_f{})(Target{}, x, two);
  for (index_t i = 0; i < x.size(); ++i) REQUIRE(same(s.data()[i], H(x.data()[i] * two + x.data()[i])));
  const auto row = sample<H, 1>({29}, 31u);
  const ufx::ndarray<H, 2> b = ufx::vectorize(mad_f{})(Target{}, x, row);
  for (index_t i = 0; i < x.size(); ++i) REQUIRE(same(b.data()[i], mad_f{}(x.data()[i], row.data()[i % 29])));

  // a lazy expression: the same operations, one pass
  const auto mul = ufx::vectorize([] UFX_HD(H a, H c) { return a * c; });
  const auto add = ufx::vectorize([] UFX_HD(H a, H c) { return a + c; });
  const ufx::ndarray<H, 2> e = ufx::eval(add(mul(ufx::lazy(x), y), x), Target{});
  CHECK(mismatches(e, want) == 0);
}

/// "(n),(n)->()": a dot product accumulated in float, rounded once into the 2-byte output.
struct dot_f {
  template <class H>
  UFX_HD void operator()(ufx::ndview<const H, 1> a, ufx::ndview<const H, 1> b, H& out) const {
    float s = 0;
    for (index_t i = 0; i < a.extent(0); ++i) s += static_cast<float>(a(i)) * static_cast<float>(b(i));
    out = H(s);
  }
};

template <class H>
struct scale_body {
  UFX_HD void operator()(const ufx::thread& t, ufx::ndview<H, 1> a, H k) const {
    const auto i = t.grid<1>();
    if (i < a.extent(0)) a(i) = a(i) * k;
  }
};

template <class Target, class H>
void core_doors() {
  // small integers: every product and sum exact in float, so the order does not matter
  ufx::ndarray<H, 2> a({6, 40}), b({6, 40});
  for (index_t i = 0; i < a.size(); ++i) {
    a.data()[i] = H(static_cast<float>(i % 7) - 3.f);
    b.data()[i] = H(static_cast<float>(i % 5) - 2.f);
  }
  const ufx::ndarray<H, 1> d = ufx::guvectorize<"(n),(n)->()">(dot_f{})(Target{}, a, b);
  for (index_t r = 0; r < 6; ++r) {
    float s = 0;
    for (index_t k = 0; k < 40; ++k) s += static_cast<float>(a(r, k)) * static_cast<float>(b(r, k));
    CHECK(d(r).bits() == H(s).bits());
  }

  if (!ufx_test::kernel_runnable<Target>()) return;
  ufx::ndarray<H, 1> v({300});
  for (index_t i = 0; i < v.size(); ++i) v.data()[i] = H(0.1f * static_cast<float>(i));
  const ufx::ndarray<H, 1> v0 = v;
  ufx::kernel(scale_body<H>{}, "scale").forall(300)(Target{}, v, H(1.5f));
  for (index_t i = 0; i < v.size(); ++i) REQUIRE(v(i).bits() == (v0(i) * H(1.5f)).bits());
}

} // namespace

TEST_CASE_TEMPLATE(
    "float16 and bfloat16 arrays through vectorize and lazy expressions, the host's bits on every target", Target,
    UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  elementwise_doors<Target, float16>();
  elementwise_doors<Target, bfloat16>();
}

TEST_CASE_TEMPLATE("float16 and bfloat16 through guvectorize and raw kernels", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  core_doors<Target, float16>();
  core_doors<Target, bfloat16>();
}

TEST_CASE("NumPy's casting table for the 2-byte types") {
  static_assert(ufx::can_cast<float16, float>() && ufx::can_cast<bfloat16, double>());
  static_assert(!ufx::can_cast<float, float16>() && ufx::can_cast<float, float16>(ufx::casting::same_kind));
  static_assert(!ufx::can_cast<float16, bfloat16>() && !ufx::can_cast<bfloat16, float16>());
  static_assert(ufx::can_cast<std::int8_t, float16>() && ufx::can_cast<std::uint8_t, bfloat16>());
  static_assert(!ufx::can_cast<std::int16_t, float16>() && ufx::can_cast<float16, std::complex<float>>());
  // a float64 array into a float16 function: refused under safe, allowed under same_kind but not
  // convertible implicitly (compile_fail/half_param_explicit.cpp); float parameters are the way
  const std::vector<double> x{0.1, 2.5};
  const auto to16 = ufx::vectorize([](float a) { return float16(a); });
  const std::vector<float16> r = to16(ufx::serial, x, ufx::casting::same_kind);
  CHECK(r[0].bits() == float16(0.1f).bits());
  CHECK(r[1].bits() == float16(2.5f).bits());
}
