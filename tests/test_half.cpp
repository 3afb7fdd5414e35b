// ufx::float16 and ufx::bfloat16 (ufx/half.hpp): NumPy's test_half.py ported
// (numpy/_core/tests/test_half.py), PyTorch's bfloat16 rounding (c10/util/BFloat16.h), NumPy's
// conversions and printing of a sample (data/numpy_half_cases.txt, from gen_numpy_half.py), and
// the mixed-operand rules. Rounding is checked against a reference found by search among all the
// type's values (nearest() below), which shares no code with the conversions.
//
// Host code, no target: the file includes doctest and ufx/half.hpp only, so nvcc's copy of it (the
// CUDA test binary) stays light; there it also converts CUDA's __half and __nv_bfloat16, and on a
// GPU compares the device's conversions and arithmetic with the host's, bit for bit.
#include <doctest/doctest.h>

#include <ufx/half.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <unordered_set>
#include <vector>

using ufx::bfloat16;
using ufx::float16;

namespace {

float16 f16(std::uint32_t b) { return float16::from_bits(static_cast<std::uint16_t>(b)); }
bfloat16 bf16(std::uint32_t b) { return bfloat16::from_bits(static_cast<std::uint16_t>(b)); }
std::uint32_t bits(float f) { return std::bit_cast<std::uint32_t>(f); }
std::uint64_t bits(double d) { return std::bit_cast<std::uint64_t>(d); }
float as_float(std::uint32_t u) { return std::bit_cast<float>(u); }
double as_double(std::uint64_t u) { return std::bit_cast<double>(u); }

/// What sets the two types apart, for the tests written once for both.
template <class H>
struct format;
template <>
struct format<float16> {
  static constexpr int mantissa = 10, bias = 15;
  static constexpr std::uint32_t inf = 0x7c00, quiet = 0x200;
};
template <>
struct format<bfloat16> {
  static constexpr int mantissa = 7, bias = 127;
  static constexpr std::uint32_t inf = 0x7f80, quiet = 0x40;
};

/// The value of a finite H's bits from its sign, exponent and fraction (NumPy's
/// test_half_correctness computes float16's this way).
template <class H>
double manual_value(std::uint32_t b) {
  constexpr int m = format<H>::mantissa, bias = format<H>::bias;
  const double sign = (b & 0x8000u) != 0 ? -1 : 1, fraction = std::ldexp(b & ((1u << m) - 1), -m);
  const int e = static_cast<int>((b & 0x7fffu) >> m);
  return e == 0 ? sign * std::ldexp(fraction, 1 - bias) : sign * std::ldexp(1 + fraction, e - bias);
}

/// The positive finite values of H, ascending by bits, and after them 2^(emax + 1), the next power
/// of two (where inf's bits are).
template <class H>
const std::vector<double>& positive_values() {
  static const std::vector<double> v = [] {
    std::vector<double> r;
    for (std::uint32_t b = 0; b < format<H>::inf; ++b) r.push_back(manual_value<H>(b));
    r.push_back(r.back() + (r.back() - r[r.size() - 2])); // 65536, 2^128
    return r;
  }();
  return v;
}

/// The reference rounding: the bits of the H nearest x (not a NaN), ties to even bits, past the
/// largest finite value inf; by search, with the comparison against the midpoint made exactly in
/// double (the midpoint of two H values is a double).
template <class H>
std::uint32_t nearest(double x) {
  const std::vector<double>& v = positive_values<H>();
  const std::uint32_t sign = std::signbit(x) ? 0x8000u : 0u;
  const double a = std::fabs(x);
  // the last value <= a (inf's slot for a >= 2^(emax+1))
  const auto b = static_cast<std::uint32_t>(std::upper_bound(v.begin(), v.end(), a) - v.begin() - 1);
  if (b == format<H>::inf) return sign | b;
  const double twice_mid = v[b] + v[b + 1]; // exact
  const bool up = 2 * a > twice_mid || (2 * a == twice_mid && (b & 1u) != 0);
  return sign | (up ? b + 1 : b);
}

/// The bits a NaN of bits b has after conversion: quiet, sign and payload kept.
template <class H>
std::uint32_t quieted(std::uint32_t b) {
  return b | format<H>::quiet;
}

/// A float16 sample: every special, and numbers of every scale (used for all pairs).
template <class H>
std::vector<H> sample(int n) {
  std::vector<H> s;
  for (std::uint32_t b : {0x0000u, 0x8000u, 0x0001u, 0x8001u, format<H>::inf, format<H>::inf | 0x8000u,
                          format<H>::inf | format<H>::quiet, format<H>::inf - 1, 0x8000u | (format<H>::inf - 1)})
    s.push_back(H::from_bits(static_cast<std::uint16_t>(b)));
  for (float f : {1.f, -1.f, 2.f, 0.5f, 3.f, 10.f, 0.1f, -0.25f, 7.f, 1024.f, 2048.f}) s.push_back(H(f));
  std::uint64_t state = 0x2545f4914f6cdd1dULL;
  while (static_cast<int>(s.size()) < n) {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    const auto b = static_cast<std::uint16_t>(state >> 40);
    if ((b & 0x7fffu) <= format<H>::inf) s.push_back(H::from_bits(b)); // no NaN payload zoo
  }
  return s;
}

/// The lines of data/numpy_half_cases.txt that start with `key`: the rest of each line.
std::vector<std::string> cases(const std::string& key) {
  std::ifstream f(UFX_TEST_DATA_DIR "/numpy_half_cases.txt");
  REQUIRE(f.good());
  std::vector<std::string> r;
  for (std::string line; std::getline(f, line);)
    if (line.rfind(key + " ", 0) == 0) r.push_back(line.substr(key.size() + 1));
  return r;
}

std::uint64_t hex(const std::string& s) { return std::stoull(s, nullptr, 16); }

template <class H>
std::string str(H x) {
  std::ostringstream os;
  os << x;
  return os.str();
}

} // namespace

TEST_CASE("float16 and bfloat16 are 2-byte trivially copyable types, usable in constant expressions") {
  static_assert(sizeof(float16) == 2 && alignof(float16) == 2 && sizeof(bfloat16) == 2 && alignof(bfloat16) == 2);
  static_assert(std::is_trivially_copyable_v<float16> && std::is_standard_layout_v<float16>);
  static_assert(std::is_trivially_copyable_v<bfloat16> && std::is_standard_layout_v<bfloat16>);
  // explicit from float, double and the integers, implicit to float; between the two explicit
  static_assert(!std::is_convertible_v<float, float16> && std::is_constructible_v<float16, float>);
  static_assert(!std::is_convertible_v<double, float16> && !std::is_convertible_v<int, float16>);
  static_assert(std::is_convertible_v<float16, float> && std::is_convertible_v<bfloat16, float>);
  static_assert(!std::is_convertible_v<float16, bfloat16> && std::is_constructible_v<bfloat16, float16>);
  static_assert(float16(1.0f).bits() == 0x3c00 && float16(0.1).bits() == 0x2e66 && float16(-2).bits() == 0xc000);
  static_assert(float16(65520.0f).bits() == 0x7c00 && float16(65519.0).bits() == 0x7bff);
  static_assert(static_cast<float>(float16::from_bits(0x3555)) == 0.333251953125f);
  static_assert(bfloat16(1.0f).bits() == 0x3f80 && bfloat16(0.1f).bits() == 0x3dcd && bfloat16(-3).bits() == 0xc040);
  static_assert(float16(1.0f) + float16(2.0f) == float16(3) && (bfloat16(3) * 2).bits() == 0x40c0);
  static_assert(std::numeric_limits<float16>::max().bits() == 0x7bff);
  CHECK(float16{}.bits() == 0);
  CHECK(bfloat16{}.bits() == 0);
  CHECK(bfloat16(float16(0.1f)).bits() == bfloat16(0.0999755859375f).bits()); // exact through float
}

TEST_CASE("every float16 converts to float as its sign, exponent and fraction say (test_half_correctness)") {
  for (std::uint32_t b = 0; b < 0x10000; ++b) {
    const float f = f16(b);
    if ((b & 0x7fffu) < 0x7c00u) {
      REQUIRE(static_cast<double>(f) == manual_value<float16>(b));
      REQUIRE(std::signbit(f) == ((b & 0x8000u) != 0));
    } else if ((b & 0x7fffu) == 0x7c00u) {
      REQUIRE(bits(f) == ((b & 0x8000u) << 16 | 0x7f800000u));
    } else { // a NaN: quiet, sign and payload kept
      REQUIRE(bits(f) == ((b & 0x8000u) << 16 | 0x7fc00000u | (b & 0x3ffu) << 13));
    }
  }
}

TEST_CASE("every float16 comes back from float and from double with its bits (test_half_conversions)") {
  for (std::uint32_t b = 0; b < 0x10000; ++b) {
    const std::uint32_t expect = ufx::math::isnan(f16(b)) ? quieted<float16>(b) : b;
    const float f = f16(b);
    REQUIRE(float16(f).bits() == expect);
    REQUIRE(float16(static_cast<double>(f)).bits() == expect);
  }
  // every integer of -2048...2048 is a float16
  for (int i = -2048; i <= 2048; ++i) {
    REQUIRE(static_cast<int>(float16(i)) == i);
    REQUIRE(static_cast<int>(float16(static_cast<float>(i))) == i);
  }
}

TEST_CASE("float and double halfway between float16s round to even, a step off them round to the nearer one "
          "(test_half_conversion_rounding)") {
  // NumPy's test: every positive finite float16 (subnormals above all), the midpoints between
  // neighbours, each nudged one ulp up or down or not at all
  for (int shift = -1; shift <= 1; ++shift)
    for (int offset = -1; offset <= 1; ++offset)
      for (std::uint32_t p = 1; p < 0x7bff; ++p) {
        const double v = f16(p), mid = shift == 0 ? v : (v + static_cast<float>(f16(p + shift))) / 2;
        const float xf = std::nextafter(static_cast<float>(mid), offset * INFINITY);
        const float x32 = offset == 0 ? static_cast<float>(mid) : xf;
        const double x64 = offset == 0 ? mid : std::nextafter(mid, offset * INFINITY);
        // a shift moves by one unless the nudge goes back towards p; with no nudge, ties to even
        const bool moves = shift != 0 && offset != -shift && (offset != 0 || (p & 1u) != 0);
        const std::uint32_t expect = moves ? p + static_cast<std::uint32_t>(shift) : p;
        REQUIRE(float16(x32).bits() == expect);
        REQUIRE(float16(x64).bits() == expect);
      }
}

TEST_CASE("float and double round to the nearest float16 at every boundary, ties to even, overflow to inf") {
  const std::vector<double>& v = positive_values<float16>();
  for (std::uint32_t p = 0; p <= 0x7bff; ++p) { // the midpoint above each positive finite float16
    const double mid = (v[p] + v[p + 1]) / 2;
    for (int k = -8; k <= 8; ++k)
      for (std::uint32_t sign : {0u, 0x80000000u}) {
        const float x = as_float((bits(static_cast<float>(mid)) + static_cast<std::uint32_t>(k)) | sign);
        REQUIRE(float16(x).bits() == nearest<float16>(x));
      }
    for (int k = -4; k <= 4; ++k) {
      const double x = as_double(bits(mid) + static_cast<std::uint64_t>(k));
      REQUIRE(float16(x).bits() == nearest<float16>(x));
      REQUIRE(float16(-x).bits() == nearest<float16>(-x));
    }
    for (int j = 12; j <= 52; j += 4) { // off the midpoint by less than float's ulp: one rounding
      for (double x : {mid * (1 + std::ldexp(1., -j)), mid * (1 - std::ldexp(1., -j))})
        REQUIRE(float16(x).bits() == nearest<float16>(x));
    }
  }
  CHECK(float16(65519.f).bits() == 0x7bff);
  CHECK(float16(65520.f).bits() == 0x7c00);
  CHECK(float16(-65520.0).bits() == 0xfc00);
  CHECK(float16(std::nextafter(65520.0, 0.0)).bits() == 0x7bff);
  CHECK(float16(1e300).bits() == 0x7c00);
  CHECK(float16(std::numeric_limits<float>::max()).bits() == 0x7c00);
  CHECK(float16(1e-300).bits() == 0x0000);
  CHECK(float16(-std::numeric_limits<double>::denorm_min()).bits() == 0x8000);
  CHECK(float16(-std::numeric_limits<float>::denorm_min()).bits() == 0x8000);
}

TEST_CASE("a tie below the smallest subnormal looks at every bit (test_half_conversion_denormal_round_even)") {
  const double smallest = f16(1);
  CHECK(smallest == std::ldexp(1., -24));
  CHECK(float16(static_cast<float>(smallest / 2)).bits() == 0); // 2^-25 is a tie: to even, 0
  CHECK(float16(smallest / 2).bits() == 0);
  for (int i = 0; i < 23; ++i) CHECK(float16(as_float(bits(static_cast<float>(smallest / 2)) | 1u << i)).bits() == 1);
  for (int i = 0; i < 52; ++i) CHECK(float16(as_double(bits(smallest / 2) | std::uint64_t(1) << i)).bits() == 1);
}

TEST_CASE("known float16 values and roundings (test_half_values, test_half_rounding)") {
  const double values[] = {1.0,   -1.0,   2.0,      -2.0,     0.0999755859375, 0.333251953125,
                           65504, -65504, 0x1p-14,  -0x1p-14, 0x1p-24,         -0x1p-24,
                           0,     -0.0,   INFINITY, -INFINITY};
  const std::uint32_t expect[] = {0x3c00, 0xbc00, 0x4000, 0xc000, 0x2e66, 0x3555, 0x7bff, 0xfbff,
                                  0x0400, 0x8400, 0x0001, 0x8001, 0x0000, 0x8000, 0x7c00, 0xfc00};
  for (int i = 0; i < 16; ++i) {
    CHECK(float16(values[i]).bits() == expect[i]);
    CHECK(float16(static_cast<float>(values[i])).bits() == expect[i]);
    CHECK(static_cast<double>(f16(expect[i])) == values[i]);
  }
  const double in[] = {0x1p-25 + 0x1p-35, 0x1p-25,     0x1p-26, 1 + 0x1p-11 + 0x1p-16,
                       1 + 0x1p-11,       1 + 0x1p-12, 65519,   65520};
  const double rounded[] = {0x1p-24, 0, 0, 1 + 0x1p-10, 1, 1, 65504, INFINITY};
  for (int i = 0; i < 8; ++i) {
    CHECK(static_cast<double>(float16(in[i])) == rounded[i]);
    CHECK(static_cast<double>(float16(static_cast<float>(in[i]))) == rounded[i]);
  }
}

TEST_CASE("double converts to float16 and bfloat16 in one rounding: through float would round twice") {
  // 1 + 2^-11 + 2^-40 is above the midpoint 1 + 2^-11 between 1 and 1 + 2^-10; as a float it is the
  // midpoint itself (2^-40 is under float's half ulp), which rounds to even, down to 1
  const double x = 1 + 0x1p-11 + 0x1p-40;
  CHECK(float16(x).bits() == 0x3c01);
  CHECK(float16(static_cast<float>(x)).bits() == 0x3c00);
  CHECK(float16(-x).bits() == 0xbc01);
  const double y = 1 + 0x1p-8 + 0x1p-40; // the same for bfloat16, whose ulp at 1 is 2^-7
  CHECK(bfloat16(y).bits() == 0x3f81);
  CHECK(bfloat16(static_cast<float>(y)).bits() == 0x3f80);
  // and in the subnormals: 3 * 2^-25 is the midpoint between 2^-24 and 2^-23; just above it both
  // ways give 2^-23, just below it only the direct rounding gives 2^-24
  const double z = 3 * 0x1p-25 + 0x1p-60;
  CHECK(float16(z).bits() == 0x0002);
  CHECK(float16(static_cast<float>(z)).bits() == 0x0002); // a tie to even, 2 * 2^-24, either way
  const double w = 0x1p-24 + 0x1p-25 - 0x1p-60;           // just under 3 * 2^-25: to 1 * 2^-24
  CHECK(float16(w).bits() == 0x0001);
  CHECK(float16(static_cast<float>(w)).bits() == 0x0002); // the float is the tie: twice rounded, wrong
}

TEST_CASE("float16 converts a sample of float32 and float64 as NumPy does (data/numpy_half_cases.txt)") {
  int n32 = 0, n64 = 0;
  for (const std::string& line : cases("f32")) {
    std::istringstream in(line);
    std::string x, h;
    in >> x >> h;
    INFO("float32 bits " << x);
    REQUIRE(float16(as_float(static_cast<std::uint32_t>(hex(x)))).bits() == hex(h));
    ++n32;
  }
  for (const std::string& line : cases("f64")) {
    std::istringstream in(line);
    std::string x, h;
    in >> x >> h;
    INFO("float64 bits " << x);
    REQUIRE(float16(as_double(hex(x))).bits() == hex(h));
    ++n64;
  }
  CHECK(n32 == 3072);
  CHECK(n64 == 768);
}

namespace {
namespace hb = ufx::detail::half_bits;
// Loops the compiler vectorises: on a GCC x86-64 host they call src/half.cpp's vector variants
// (F16C where the CPU has it: SSE2's, AVX's, AVX2's or AVX-512's, as the binary is built).
std::vector<float> to_floats(const std::vector<std::uint16_t>& h) {
  std::vector<float> f(h.size());
  for (std::size_t i = 0; i < h.size(); ++i) f[i] = hb::f16_to_f32(h[i]);
  return f;
}
std::vector<std::uint16_t> to_halves(const std::vector<float>& f) {
  std::vector<std::uint16_t> h(f.size());
  for (std::size_t i = 0; i < f.size(); ++i) h[i] = hb::f32_to_f16(f[i]);
  return h;
}
} // namespace

TEST_CASE("the vectorised conversions (F16C where the CPU has it) and the portable code give the same bits") {
  MESSAGE("this build converts float16 " << std::string(UFX_HALF_SIMD_CALLS ? "through libufx's vector functions"
                                                                            : "with the portable code inline"));
  std::vector<std::uint16_t> every(0x10000);
  for (std::uint32_t b = 0; b < 0x10000; ++b) every[b] = static_cast<std::uint16_t>(b);
  const std::vector<float> widened = to_floats(every);
  for (std::uint32_t b = 0; b < 0x10000; ++b)
    REQUIRE(bits(widened[b]) == hb::f16_to_f32_portable(static_cast<std::uint16_t>(b)));
  // float -> float16: every 4099th float bit pattern (NaNs, infinities, subnormals included), and
  // the floats around every float16 midpoint
  std::vector<float> fs;
  for (std::uint64_t u = 0; u < (std::uint64_t(1) << 32); u += 4099)
    fs.push_back(as_float(static_cast<std::uint32_t>(u)));
  const std::vector<double>& v = positive_values<float16>();
  for (std::uint32_t p = 0; p <= 0x7bff; ++p)
    for (int k = -3; k <= 3; ++k) {
      const float f = as_float(bits(static_cast<float>((v[p] + v[p + 1]) / 2)) + static_cast<std::uint32_t>(k));
      fs.push_back(f);
      fs.push_back(-f);
    }
  const std::vector<std::uint16_t> narrowed = to_halves(fs);
  for (std::size_t i = 0; i < fs.size(); ++i) REQUIRE(narrowed[i] == hb::f32_to_f16_portable(fs[i]));
  // NaNs: quiet with the payload's high bits, signalling ones too, as vcvtps2ph has it
  CHECK(float16(as_float(0x7f800001u)).bits() == 0x7e00);
  CHECK(float16(as_float(0x7fc00000u)).bits() == 0x7e00);
  CHECK(float16(as_float(0xffc00000u)).bits() == 0xfe00);
  CHECK(float16(as_float(0x7f802000u)).bits() == 0x7e01);
  CHECK(float16(as_float(0x7fffffffu)).bits() == 0x7fff);
  CHECK(bits(static_cast<float>(f16(0x7c01))) == 0x7fc02000u);
  CHECK(bits(static_cast<float>(f16(0xfd00))) == 0xffe00000u);
  CHECK(float16(as_double(0x7ff0000000000001ULL)).bits() == 0x7e00);
  CHECK(float16(as_double(0xfff8000000000000ULL)).bits() == 0xfe00);
#if UFX_HALF_SIMD_CALLS
  // the scalar functions (the F16C rows' conversions: tests/test_half_rows.cpp)
  for (std::uint32_t b = 0; b < 0x10000; b += 7) REQUIRE(bits(::ufx_half_to_float(b)) == hb::f16_to_f32_portable(b));
  for (std::size_t i = 0; i < fs.size(); i += 5) REQUIRE(::ufx_float_to_half(fs[i]) == hb::f32_to_f16_portable(fs[i]));
  // a float16 sum in the pairwise tree's order (detail/cpu/reduce_runs.hpp), written out here element by element: every
  // float16 but the NaNs and infinities (magnitudes 2^-24 .. 2^15, so another order gives other bits), lengths from
  // one element to many leaves, splits and tails
  std::vector<std::uint16_t> finite;
  for (std::uint32_t b = 0; b < 0x10000; ++b)
    if ((b & 0x7c00u) != 0x7c00u) finite.push_back(static_cast<std::uint16_t>(b));
  std::mt19937 shuffle(48);
  std::shuffle(finite.begin(), finite.end(), shuffle);
  const auto at = [&](std::size_t i) { return hb::bits_as<float>(hb::f16_to_f32_portable(finite[i])); };
  for (const std::size_t lanes : {32u, 64u, 128u}) {
    const auto leaf = [&](std::size_t i0, std::size_t n) {
      if (n < lanes) {
        float s = at(i0);
        for (std::size_t i = 1; i < n; ++i) s += at(i0 + i);
        return s;
      }
      std::vector<float> acc(lanes);
      for (std::size_t j = 0; j < lanes; ++j) acc[j] = at(i0 + j);
      for (std::size_t i = lanes; i + lanes <= n; i += lanes)
        for (std::size_t j = 0; j < lanes; ++j) acc[j] += at(i0 + i + j);
      for (std::size_t w = lanes / 2; w >= 1; w /= 2)
        for (std::size_t j = 0; j < w; ++j) acc[j] += acc[j + w];
      float s = acc[0];
      for (std::size_t i = n / lanes * lanes; i < n; ++i) s += at(i0 + i);
      return s;
    };
    const auto tree = [&](const auto& self, std::size_t i0, std::size_t n) -> float {
      if (n <= 16 * lanes) return leaf(i0, n);
      std::size_t n2 = n / 2;
      n2 -= n2 % lanes;
      return self(self, i0, n2) + self(self, i0 + n2, n - n2);
    };
    for (const std::size_t n : {std::size_t(1), lanes - 1, lanes, 16 * lanes, 16 * lanes + 1, 16 * lanes + 37,
                                35 * lanes + 3, finite.size() - 3, finite.size()})
      for (const std::size_t off : {std::size_t(0), std::size_t(3)}) {
        if (off + n > finite.size()) continue;
        CAPTURE(lanes);
        CAPTURE(n);
        REQUIRE(bits(::ufx_halves_pairwise_sum(finite.data() + off, n, static_cast<int>(lanes))) ==
                bits(tree(tree, off, n)));
      }
  }
#endif
}

TEST_CASE("integers convert to float16 and bfloat16 in one rounding") {
  for (std::int32_t i = -(1 << 18); i <= (1 << 18); ++i) {
    REQUIRE(float16(i).bits() == nearest<float16>(i));
    REQUIRE(bfloat16(i).bits() == nearest<bfloat16>(i));
  }
  CHECK(float16(65519).bits() == 0x7bff);
  CHECK(float16(65520u).bits() == 0x7c00);
  CHECK(float16(-65520L).bits() == 0xfc00);
  CHECK(float16(std::numeric_limits<std::int64_t>::min()).bits() == 0xfc00);
  CHECK(float16(true).bits() == 0x3c00);
  CHECK(float16(static_cast<unsigned char>(200)).bits() == 0x5a40);
  // 2^60 + 2^52 + 1 is just above the midpoint between the bfloat16s 2^60 and 2^60 + 2^53: up; as
  // a double it would be the midpoint itself (53 bits), and rounding that again would go to even
  const std::int64_t big = (std::int64_t(1) << 60) + (std::int64_t(1) << 52) + 1;
  CHECK(bfloat16(big).bits() == 0x5d81);
  CHECK(bfloat16(static_cast<double>(big)).bits() == 0x5d80);
  CHECK(bfloat16(-big).bits() == 0xdd81);
  CHECK(bfloat16(static_cast<std::uint64_t>(big)).bits() == 0x5d81);
  CHECK(bfloat16(std::numeric_limits<std::uint64_t>::max()).bits() == 0x5f80);         // 2^64
  CHECK(bfloat16(std::numeric_limits<std::int64_t>::min()).bits() == 0xdf00);          // -2^63
  CHECK(bfloat16((std::int64_t(1) << 60) + (std::int64_t(1) << 52)).bits() == 0x5d80); // a tie: even
}

TEST_CASE("comparisons order every float16 as float does; NaN is unordered (test_half_ordering, test_nans_infs)") {
  // every value that is not a NaN, ascending: -inf ... -0, +0 ... inf
  std::vector<float16> a;
  for (std::uint32_t b = 0xfc00; b >= 0x8000; --b) a.push_back(f16(b));
  for (std::uint32_t b = 0x0000; b <= 0x7c00; ++b) a.push_back(f16(b));
  int strictly = 0;
  for (std::size_t i = 0; i + 1 < a.size(); ++i) {
    REQUIRE(a[i] <= a[i + 1]);
    REQUIRE(!(a[i] > a[i + 1]));
    REQUIRE(a[i + 1] >= a[i]);
    REQUIRE(!(a[i + 1] < a[i]));
    strictly += a[i] < a[i + 1] && a[i + 1] > a[i];
  }
  CHECK(strictly == static_cast<int>(a.size()) - 2); // all but -0 < +0
  CHECK(f16(0x8000) == f16(0x0000));
  const float16 nan = std::numeric_limits<float16>::quiet_NaN();
  for (std::uint32_t b = 0; b < 0x10000; ++b) {
    const float16 x = f16(b);
    REQUIRE(!(x == nan));
    REQUIRE(!(nan == x));
    REQUIRE((x != nan));
    REQUIRE((nan != x));
    REQUIRE(!(x < nan || nan < x || x <= nan || nan <= x || x > nan || nan > x || x >= nan || nan >= x));
  }
}

TEST_CASE_TEMPLATE("comparisons of every pair of a sample agree with float's", H, float16, bfloat16) {
  const std::vector<H> s = sample<H>(400);
  for (H x : s)
    for (H y : s) {
      const float fx = x, fy = y;
      REQUIRE((x == y) == (fx == fy));
      REQUIRE((x != y) == (fx != fy));
      REQUIRE((x < y) == (fx < fy));
      REQUIRE((x <= y) == (fx <= fy));
      REQUIRE((x > y) == (fx > fy));
      REQUIRE((x >= y) == (fx >= fy));
    }
}

TEST_CASE_TEMPLATE("+ - * / of every pair of a sample are the correctly rounded results", H, float16, bfloat16) {
  // the reference: the operation in double, then nearest(): double's 53 bits are at least twice
  // the type's plus 2, so rounding twice is rounding once (the sums and products of float16s are
  // even exact in double)
  const std::vector<H> s = sample<H>(500);
  for (H x : s)
    for (H y : s) {
      const double dx = static_cast<float>(x), dy = static_cast<float>(y);
      const double exact[] = {dx + dy, dx - dy, dx * dy, dx / dy};
      const H got[] = {x + y, x - y, x * y, x / y};
      for (int op = 0; op < 4; ++op) {
        INFO("x bits " << x.bits() << ", y bits " << y.bits() << ", op "
                       << "+-*/"[op]);
        if (std::isnan(exact[op])) REQUIRE(ufx::math::isnan(got[op]));
        else REQUIRE(got[op].bits() == nearest<H>(exact[op]));
      }
    }
}

TEST_CASE("NumPy's float16 ufunc values (test_half_ufuncs) and overflow (test_half_fpe)") {
  const float16 a[] = {float16(0), float16(1), float16(2), float16(4), float16(2)};
  const float16 b[] = {float16(-2), float16(5), float16(1), float16(4), float16(3)};
  const double add[] = {-2, 6, 3, 8, 5}, sub[] = {2, -4, 1, 0, -1}, mul[] = {0, 5, 2, 16, 6};
  const double div[] = {0, 0.199951171875, 2, 1, 0.66650390625};
  for (int i = 0; i < 5; ++i) {
    CHECK(static_cast<double>(a[i] + b[i]) == add[i]);
    CHECK(static_cast<double>(a[i] - b[i]) == sub[i]);
    CHECK(static_cast<double>(a[i] * b[i]) == mul[i]);
    CHECK(static_cast<double>(a[i] / b[i]) == div[i]);
  }
  CHECK(ufx::math::isinf(float16(65504) + float16(17))); // 65521 rounds to inf
  CHECK(ufx::math::isinf(float16(-65504) - float16(17)));
  CHECK((float16(65472) + float16(32)).bits() == 0x7bff); // 65504 exactly
  CHECK(ufx::math::isinf(float16(1e4f) * float16(1e4f)));
  CHECK((float16(1e-4f) * float16(1e-4f)).bits() == 0); // underflow to zero
  CHECK(ufx::math::isnan(float16(INFINITY) / float16(INFINITY)));
  CHECK(static_cast<double>(float16(0x1p-14) / float16(1024)) == 0x1p-24);
  CHECK(static_cast<double>(float16(0x1p-14 + 0x1p-23) / float16(2)) == 0x1p-15 + 0x1p-24);
}

TEST_CASE("unary minus flips the sign bit, of zeros and NaNs too") {
  for (std::uint32_t b = 0; b < 0x10000; ++b) {
    REQUIRE((-f16(b)).bits() == (b ^ 0x8000u));
    REQUIRE((-bf16(b)).bits() == (b ^ 0x8000u));
    REQUIRE((+f16(b)).bits() == b);
  }
}

TEST_CASE("mixed operands follow NumPy's rules: with float a float, with double a double, with an integer the type") {
  float16 h(3);
  const bfloat16 b(3);
  static_assert(std::is_same_v<decltype(h + h), float16> && std::is_same_v<decltype(b * b), bfloat16>);
  static_assert(std::is_same_v<decltype(h + 1.5f), float> && std::is_same_v<decltype(1.5f * h), float>);
  static_assert(std::is_same_v<decltype(h - 1.5), double> && std::is_same_v<decltype(1.5 / b), double>);
  static_assert(std::is_same_v<decltype(h * 2), float16> && std::is_same_v<decltype(2u - h), float16>);
  static_assert(std::is_same_v<decltype(b / 2LL), bfloat16> && std::is_same_v<decltype('a' + b), bfloat16>);
  static_assert(std::is_same_v<decltype(h + b), float> && std::is_same_v<decltype(-h), float16>);
  static_assert(std::is_same_v<decltype(h += 1.5), float16&> && std::is_same_v<decltype(h == 1), bool>);
  CHECK((h * 2).bits() == float16(6).bits());
  CHECK((2 * h).bits() == float16(6).bits());
  CHECK((float16(1) / 3).bits() == 0x3555); // 1/3 in float16, rounded once
  CHECK((1 / float16(3)).bits() == 0x3555);
  CHECK(h + 0.1f == 3.1f);                     // a float: not rounded to float16
  CHECK(h + 0.1 == 3.1);                       // a double
  CHECK(float16(2) + bfloat16(3) == 5.0f);     // a float
  CHECK(ufx::math::isinf(float16(1) * 70000)); // the integer is a float16 first, as in NumPy
  CHECK((float16(1000) / 100000).bits() == 0); // 100000 is inf as a float16
  CHECK(float16(1000) / 100000.f == 0.01f);
  h += 1.5; // 4.5
  CHECK(h.bits() == float16(4.5f).bits());
  h *= 2; // 9
  CHECK(h.bits() == float16(9).bits());
  h -= bfloat16(0.5f); // 8.5
  CHECK(h.bits() == float16(8.5f).bits());
  h /= float16(2); // 4.25
  CHECK(h.bits() == float16(4.25f).bits());
  h += 0.0001f; // 4.2501 rounds back to 4.25
  CHECK(h.bits() == float16(4.25f).bits());
  CHECK((h == 4.25f && h < 5 && 4 < h && h != 4.5 && h >= float16(4.25f)));
  float f = 1.f;
  f += h; // float's own +=, h converted
  CHECK(f == 5.25f);
}

TEST_CASE("bfloat16: every bit pattern comes back from float; float rounds as PyTorch's round_to_nearest_even") {
  for (std::uint32_t b = 0; b < 0x10000; ++b) {
    const float f = bf16(b);
    REQUIRE(bits(f) == b << 16); // the exact widening, NaNs as they are
    const std::uint32_t expect = ufx::math::isnan(bf16(b)) ? quieted<bfloat16>(b) : b;
    REQUIRE(bfloat16(f).bits() == expect);
    REQUIRE(bfloat16(static_cast<double>(f)).bits() == expect);
    if (!ufx::math::isnan(bf16(b)) && (b & 0x7fffu) != 0x7f80u)
      REQUIRE(static_cast<double>(f) == manual_value<bfloat16>(b));
  }
  // PyTorch's round_to_nearest_even, for every number: every 257th float bit pattern, and the floats
  // around every bfloat16 midpoint
  const auto pytorch = [](std::uint32_t u) { return (u + 0x7fffu + ((u >> 16) & 1u)) >> 16; };
  for (std::uint64_t u = 0; u < (std::uint64_t(1) << 32); u += 257) {
    const auto x = static_cast<std::uint32_t>(u);
    if ((x & 0x7fffffffu) <= 0x7f800000u) REQUIRE(bfloat16(as_float(x)).bits() == pytorch(x));
  }
  const std::vector<double>& v = positive_values<bfloat16>();
  for (std::uint32_t p = 0; p <= 0x7f7f; ++p)
    for (int k = -3; k <= 3; ++k)
      for (std::uint32_t sign : {0u, 0x80000000u}) {
        const std::uint32_t x =
            (bits(static_cast<float>((v[p] + v[p + 1]) / 2)) + static_cast<std::uint32_t>(k)) | sign;
        if ((x & 0x7fffffffu) > 0x7f800000u) continue; // past the largest midpoint: a NaN
        REQUIRE(bfloat16(as_float(x)).bits() == pytorch(x));
        REQUIRE(bfloat16(as_float(x)).bits() == nearest<bfloat16>(as_float(x)));
      }
  // NaN: PyTorch's 0x7fc0 for the usual NaN; the sign and high payload bits kept, quieted
  CHECK(bfloat16(std::numeric_limits<float>::quiet_NaN()).bits() == 0x7fc0);
  CHECK(bfloat16(as_float(0xffc00000u)).bits() == 0xffc0);
  CHECK(bfloat16(as_float(0x7f800001u)).bits() == 0x7fc0);
  CHECK(bfloat16(as_float(0x7f810000u)).bits() == 0x7fc1);
  CHECK(bfloat16(as_float(0x7fffffffu)).bits() == 0x7fff);
  CHECK(bfloat16(as_double(0x7ff8000000000000ULL)).bits() == 0x7fc0);
  CHECK(bfloat16(as_float(0x7f7fffffu)).bits() == 0x7f80); // float's max rounds up to inf
  CHECK(bfloat16(as_float(0x7f7f7fffu)).bits() == 0x7f7f);
  CHECK(bfloat16(as_float(0x00008000u)).bits() == 0x0000); // a subnormal tie, to even
  CHECK(bfloat16(as_float(0x00018000u)).bits() == 0x0002);
}

TEST_CASE("bfloat16 converts a sample of float32 and float64 as exact rational rounding does") {
  int n = 0;
  for (const std::string key : {"bf32", "bf64"})
    for (const std::string& line : cases(key)) {
      std::istringstream in(line);
      std::string x, b;
      in >> x >> b;
      INFO(key << " bits " << x);
      const bfloat16 got =
          key == "bf32" ? bfloat16(as_float(static_cast<std::uint32_t>(hex(x)))) : bfloat16(as_double(hex(x)));
      REQUIRE(got.bits() == hex(b));
      ++n;
    }
  CHECK(n == 1152);
}

TEST_CASE("numeric_limits have NumPy's finfo values") {
  using L = std::numeric_limits<float16>;
  static_assert(L::is_specialized && L::digits == 11 && L::digits10 == 3 && L::max_digits10 == 5 && L::is_iec559);
  static_assert(L::min_exponent == -13 && L::max_exponent == 16 && L::min_exponent10 == -4 && L::max_exponent10 == 4);
  static_assert(std::numeric_limits<const float16>::digits == 11);
  CHECK(static_cast<double>(L::epsilon()) == 0x1p-10);                                              // finfo eps
  CHECK(static_cast<double>(float16(1) - ufx::math::nextafter(float16(1), float16(0))) == 0x1p-11); // epsneg
  CHECK(static_cast<double>(L::min()) == 0x1p-14);                                                  // tiny
  CHECK(static_cast<double>(L::denorm_min()) == 0x1p-24); // smallest_subnormal
  CHECK(static_cast<double>(L::max()) == 65504);
  CHECK(static_cast<double>(L::lowest()) == -65504);
  CHECK(static_cast<double>(L::round_error()) == 0.5);
  CHECK(L::infinity().bits() == 0x7c00);
  CHECK(L::quiet_NaN().bits() == 0x7e00); // np.float16(np.nan)
  CHECK((ufx::math::isnan(L::signaling_NaN()) && (L::signaling_NaN().bits() & 0x200) == 0));
  CHECK(ufx::math::nextafter(float16(1), float16(2)) - float16(1) == L::epsilon());
  using B = std::numeric_limits<bfloat16>;
  static_assert(B::digits == 8 && B::digits10 == 2 && B::max_digits10 == 4 && !B::is_iec559);
  static_assert(B::min_exponent == -125 && B::max_exponent == 128 && B::min_exponent10 == -37 &&
                B::max_exponent10 == 38);
  CHECK(static_cast<double>(B::epsilon()) == 0x1p-7);
  CHECK(static_cast<double>(B::min()) == 0x1p-126);
  CHECK(static_cast<double>(B::denorm_min()) == 0x1p-133);
  CHECK(static_cast<double>(B::max()) == 0x1.fep127);
  CHECK(static_cast<double>(B::lowest()) == -0x1.fep127);
  CHECK(B::infinity().bits() == 0x7f80);
  CHECK(B::quiet_NaN().bits() == 0x7fc0);
  CHECK((ufx::math::isnan(B::signaling_NaN()) && (B::signaling_NaN().bits() & 0x40) == 0));
}

TEST_CASE_TEMPLATE("isnan, isinf, isfinite and signbit agree with float's for every bit pattern (test_nans_infs)", H,
                   float16, bfloat16) {
  for (std::uint32_t b = 0; b < 0x10000; ++b) {
    const H x = H::from_bits(static_cast<std::uint16_t>(b));
    const float f = x;
    REQUIRE(ufx::math::isnan(x) == std::isnan(f));
    REQUIRE(ufx::math::isinf(x) == std::isinf(f));
    REQUIRE(ufx::math::isfinite(x) == std::isfinite(f));
    REQUIRE(ufx::math::signbit(x) == std::signbit(f));
    REQUIRE(std::isnan(x) == std::isnan(f)); // std:: takes them through float
  }
}

TEST_CASE_TEMPLATE("nextafter and spacing as NumPy's on float16 (test_spacing_nextafter)", H, float16, bfloat16) {
  constexpr std::uint32_t inf_bits = format<H>::inf;
  const H inf = H::from_bits(inf_bits), nan = std::numeric_limits<H>::quiet_NaN();
  const auto same = [](H x, H y) { return x.bits() == y.bits() || (ufx::math::isnan(x) && ufx::math::isnan(y)); };
  // the non-negative finite values
  for (std::uint32_t b = 0; b + 1 < inf_bits; ++b) {
    const H x = H::from_bits(static_cast<std::uint16_t>(b)), up = H::from_bits(static_cast<std::uint16_t>(b + 1));
    REQUIRE(same(ufx::math::spacing(x), up - x));
    REQUIRE(same(ufx::math::nextafter(x, inf), up));
    REQUIRE(same(ufx::math::nextafter(up, -inf), x));
    REQUIRE(same(ufx::math::nextafter(x, nan), nan));
    REQUIRE(same(ufx::math::nextafter(nan, x), nan));
    // and the negative ones: spacing is still the step up, towards zero, and positive
    REQUIRE(same(ufx::math::spacing(-up), -x - -up));
    REQUIRE(same(ufx::math::nextafter(-up, inf), -x));
    REQUIRE(same(ufx::math::nextafter(-x, -inf), -up));
  }
  const H zero = H::from_bits(0), tiny = H::from_bits(1), max = std::numeric_limits<H>::max();
  CHECK(same(ufx::math::nextafter(zero, -inf), -tiny));
  CHECK(same(ufx::math::nextafter(-zero, inf), tiny));
  CHECK(same(ufx::math::nextafter(zero, -zero), zero)); // equal: x, as NumPy's float16
  CHECK(same(ufx::math::spacing(-zero), ufx::math::spacing(-tiny)));
  CHECK(same(ufx::math::spacing(-zero), tiny));
  CHECK(same(ufx::math::nextafter(inf, zero), max));
  CHECK(same(ufx::math::nextafter(-inf, zero), -max));
  CHECK(same(ufx::math::nextafter(inf, inf), inf));
  CHECK(same(ufx::math::nextafter(inf, -inf), max));
  CHECK(same(ufx::math::nextafter(-inf, inf), -max));
  CHECK(same(ufx::math::nextafter(-inf, -inf), -inf));
  CHECK(same(ufx::math::nextafter(max, inf), inf));
  CHECK(same(ufx::math::nextafter(nan, nan), nan));
  CHECK(same(ufx::math::nextafter(inf, nan), nan));
  CHECK(same(ufx::math::nextafter(nan, inf), nan));
  CHECK(same(ufx::math::spacing(max), inf)); // np.spacing(float16(65504)) is inf
  CHECK(same(ufx::math::spacing(-max), max - ufx::math::nextafter(max, zero)));
  CHECK(same(ufx::math::spacing(inf), nan));
  CHECK(same(ufx::math::spacing(nan), nan));
  CHECK(ufx::math::nextafter(zero, nan).bits() == nan.bits()); // the quiet NaN NumPy returns
}

TEST_CASE_TEMPLATE("std::hash hashes equal values alike, +0 and -0 included", H, float16, bfloat16) {
  CHECK(std::hash<H>{}(H::from_bits(0)) == std::hash<H>{}(H::from_bits(0x8000)));
  std::unordered_set<H> s;
  for (float f : {0.f, -0.f, 1.f, 1.f, 2.f, -1.f}) s.insert(H(f));
  CHECK(s.size() == 4);
  CHECK(s.count(H(2)) == 1);
}

TEST_CASE("float16 prints as NumPy's str(), bfloat16 likewise, and every value reads back as its bits") {
  int n = 0;
  for (const std::string& line : cases("str")) {
    const auto space = line.find(' ');
    INFO("float16 bits " << line.substr(0, space));
    REQUIRE(str(f16(static_cast<std::uint32_t>(hex(line.substr(0, space))))) == line.substr(space + 1));
    ++n;
  }
  for (const std::string& line : cases("bstr")) {
    const auto space = line.find(' ');
    INFO("bfloat16 bits " << line.substr(0, space));
    REQUIRE(str(bf16(static_cast<std::uint32_t>(hex(line.substr(0, space))))) == line.substr(space + 1));
    ++n;
  }
  CHECK(n > 2500);
  CHECK(str(float16(0.1f)) == "0.1");
  CHECK(str(float16(65504)) == "65500.0");
  CHECK(str(float16(1)) == "1.0");
  CHECK(str(f16(1)) == "6e-08");
  CHECK(str(f16(0x8000)) == "-0.0");
  CHECK(str(f16(0xfc00)) == "-inf");
  CHECK(str(f16(0xfe00)) == "nan");
  CHECK(str(float16(1e-4f)) == "0.0001");
  CHECK(str(bfloat16(0.1f)) == "0.1");
  CHECK(str(bfloat16(3e38f)) == "3e+38");
  CHECK(str(std::numeric_limits<bfloat16>::max()) == "3.39e+38");
  for (std::uint32_t b = 0; b < 0x10000; ++b) {
    const std::string s = str(f16(b)), t = str(bf16(b));
    const double x = std::strtod(s.c_str(), nullptr), y = std::strtod(t.c_str(), nullptr);
    if (ufx::math::isnan(f16(b))) {
      REQUIRE(s == "nan");
    } else {
      REQUIRE(float16(x).bits() == b);
    }
    if (ufx::math::isnan(bf16(b))) {
      REQUIRE(t == "nan");
    } else {
      REQUIRE(bfloat16(y).bits() == b);
    }
  }
}

#if defined(__CUDACC__)
namespace {
/// Each thread: the bits of its float16 and bfloat16 as floats, of a float converted to each, and of
/// + - * / of two float16s and two bfloat16s, through CUDA's own types where the API meets them.
__global__ void half_device_kernel(const std::uint16_t* in, const float* x, std::uint32_t* as_float,
                                   std::uint16_t* from_float, std::uint16_t* ops, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= n) return;
  const float16 h = float16::from_bits(in[i]);
  const bfloat16 b = bfloat16::from_bits(in[i]);
  as_float[2 * i] = ufx::detail::half_bits::bits_as<std::uint32_t>(static_cast<float>(h));
  as_float[2 * i + 1] = ufx::detail::half_bits::bits_as<std::uint32_t>(static_cast<float>(b));
  from_float[2 * i] = float16(x[i]).bits();
  from_float[2 * i + 1] = bfloat16(x[i]).bits();
  const __half ch = static_cast<__half>(h);
  const float16 h2 = float16(ch) + float16::from_bits(in[(i * 7919) % n]);
  const bfloat16 b2 = bfloat16(static_cast<__nv_bfloat16>(b)) * bfloat16::from_bits(in[(i * 7919) % n]);
  const float16 g = float16::from_bits(in[(i * 7919) % n]);
  ops[4 * i] = h2.bits();
  ops[4 * i + 1] = b2.bits();
  ops[4 * i + 2] = (h / g - h).bits();
  ops[4 * i + 3] = (b / bfloat16::from_bits(in[(i * 7919) % n]) - b).bits();
}
} // namespace

TEST_CASE("__half and __nv_bfloat16 convert to and from float16 and bfloat16 bit for bit") {
  static_assert(sizeof(__half) == sizeof(float16) && alignof(__half) == alignof(float16));
  static_assert(sizeof(__nv_bfloat16) == sizeof(bfloat16) && alignof(__nv_bfloat16) == alignof(bfloat16));
  static_assert(std::is_convertible_v<__half, float16> && !std::is_convertible_v<float16, __half>);
  const __half c = __float2half_rn(0.1f);
  const float16 h = c;
  CHECK(h.bits() == 0x2e66);
  CHECK(__half_as_ushort(static_cast<__half>(float16(-2))) == 0xc000);
  const __nv_bfloat16 cb = __float2bfloat16_rn(0.1f);
  const bfloat16 b = cb;
  CHECK(b.bits() == 0x3dcd);
  CHECK(__bfloat16_as_ushort(static_cast<__nv_bfloat16>(bfloat16(-3))) == 0xc040);
  __half arr[2] = {__float2half_rn(1.f), __float2half_rn(-0.5f)};
  const float16* p = reinterpret_cast<const float16*>(arr); // a CUDA user's array, read in place
  CHECK(p[0].bits() == 0x3c00);
  CHECK(p[1].bits() == 0xb800);
}

TEST_CASE("on the device, float16 and bfloat16 convert and compute to the host's bits") {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    MESSAGE("skipping the device comparison: no CUDA device");
    return;
  }
  constexpr int n = 1 << 16;
  std::vector<std::uint16_t> in(n);
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i) {
    in[i] = static_cast<std::uint16_t>(i);
    // floats of every sign, exponent and high fraction (every bfloat16's), NaNs and infinities too
    x[i] = as_float(static_cast<std::uint32_t>(i) * 0x10001u + static_cast<std::uint32_t>(i % 7) - 3);
  }
  std::uint16_t *d_in = nullptr, *d_from = nullptr, *d_ops = nullptr;
  float* d_x = nullptr;
  std::uint32_t* d_as = nullptr;
  REQUIRE(cudaMalloc(&d_in, n * sizeof(std::uint16_t)) == cudaSuccess);
  REQUIRE(cudaMalloc(&d_x, n * sizeof(float)) == cudaSuccess);
  REQUIRE(cudaMalloc(&d_as, 2 * n * sizeof(std::uint32_t)) == cudaSuccess);
  REQUIRE(cudaMalloc(&d_from, 2 * n * sizeof(std::uint16_t)) == cudaSuccess);
  REQUIRE(cudaMalloc(&d_ops, 4 * n * sizeof(std::uint16_t)) == cudaSuccess);
  REQUIRE(cudaMemcpy(d_in, in.data(), n * sizeof(std::uint16_t), cudaMemcpyHostToDevice) == cudaSuccess);
  REQUIRE(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
  half_device_kernel<<<n / 256, 256>>>(d_in, d_x, d_as, d_from, d_ops, n);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<std::uint32_t> as(2 * n);
  std::vector<std::uint16_t> from(2 * n), ops(4 * n);
  REQUIRE(cudaMemcpy(as.data(), d_as, as.size() * sizeof(std::uint32_t), cudaMemcpyDeviceToHost) == cudaSuccess);
  REQUIRE(cudaMemcpy(from.data(), d_from, from.size() * sizeof(std::uint16_t), cudaMemcpyDeviceToHost) == cudaSuccess);
  REQUIRE(cudaMemcpy(ops.data(), d_ops, ops.size() * sizeof(std::uint16_t), cudaMemcpyDeviceToHost) == cudaSuccess);
  for (void* p : {static_cast<void*>(d_in), static_cast<void*>(d_x), static_cast<void*>(d_as),
                  static_cast<void*>(d_from), static_cast<void*>(d_ops)})
    cudaFree(p);
  for (int i = 0; i < n; ++i) {
    INFO("bits " << i);
    const float16 h = f16(in[i]), g = f16(in[(i * 7919) % n]);
    const bfloat16 b = bf16(in[i]), c = bf16(in[(i * 7919) % n]);
    REQUIRE(as[2 * i] == bits(static_cast<float>(h)));
    REQUIRE(as[2 * i + 1] == bits(static_cast<float>(b)));
    REQUIRE(from[2 * i] == float16(x[i]).bits());
    REQUIRE(from[2 * i + 1] == bfloat16(x[i]).bits());
    const std::uint16_t expect[] = {(h + g).bits(), (b * c).bits(), (h / g - h).bits(), (b / c - b).bits()};
    for (int k = 0; k < 4; ++k) {
      // a NaN result's payload and sign are the platform's float arithmetic's
      const bool nan = k % 2 == 0 ? ufx::math::isnan(f16(expect[k])) : ufx::math::isnan(bf16(expect[k]));
      const bool got_nan = k % 2 == 0 ? ufx::math::isnan(f16(ops[4 * i + k])) : ufx::math::isnan(bf16(ops[4 * i + k]));
      if (nan) REQUIRE(got_nan);
      else REQUIRE(ops[4 * i + k] == expect[k]);
    }
  }
}
#endif
