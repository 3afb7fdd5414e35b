#pragma once
// Checks of the CPU reduction leaf's vector code (include/ufx/detail/cpu/simd_leaf.hpp): a plain
// sum, and a sum of mapped values, take the vector leaves, whose loads are aligned whatever the
// data's address, and a user's `+` takes the generic leaf; both must give the same bits, at every
// misalignment and length.
// Built with the presets' flags (tests/test_reduce_simd.cpp) and again with AVX2 and AVX-512
// (test_reduce_simd_avx2.cpp, test_reduce_simd_avx512.cpp), whose vectors are 32 and 64 bytes.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include <ufx/detail/cpu/simd_leaf.hpp> // lanes_sum
#include <ufx/reduce.hpp>

namespace ufx_simd_test {

/// Deterministic values of T: floats of mixed magnitude and sign (no -0), integers across the range.
template <class T>
std::vector<T> values(std::size_t n, std::uint64_t seed) {
  std::vector<T> v(n);
  for (T& x : v) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    const std::uint64_t r = seed >> 11;
    if constexpr (std::is_floating_point_v<T>) {
      const double u = static_cast<double>(r % 1000003) / 1000003.0 - 0.49;
      x = static_cast<T>(u * static_cast<double>(1 + (r >> 40) % 1000));
      if (x == T(0)) x = T(1);
    } else if constexpr (std::is_signed_v<T>) {
      x = static_cast<T>(static_cast<std::int64_t>(r % (std::uint64_t{1} << 41)) -
                         (std::int64_t{1} << 40)); // no overflow
    } else {
      x = static_cast<T>(r * 0x9E3779B97F4A7C15ull); // unsigned sums wrap
    }
  }
  return v;
}

/// The first index of `v` on a 64-byte boundary.
template <class T>
std::size_t aligned_base(const std::vector<T>& v) {
  const auto addr = reinterpret_cast<std::uintptr_t>(v.data());
  return (64 - addr % 64) % 64 / sizeof(T);
}

template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

/// ufx::plus (the vector leaf) against a user's `+` (the generic leaf), for every element offset
/// 0..16 from a 64-byte boundary and lengths around the lane counts of every vector width.
template <class T, class Target>
void sum_leaf_matches_generic(const Target& t) {
  const auto user_plus = [](T a, T b) { return static_cast<T>(a + b); };
  const std::vector<T> data = values<T>(140000, 12345 + sizeof(T));
  const std::size_t base = aligned_base(data);
  for (const std::int64_t n : {1,   3,   15,  16,  17,  31,   32,   33,   63,   64,   65,    127,
                               128, 129, 255, 256, 257, 1000, 2047, 2048, 2049, 4099, 70001, (1 << 17) + 5}) {
    for (std::size_t off = 0; off <= 16; ++off) {
      CAPTURE(n);
      CAPTURE(off);
      const ufx::ndview<const T, 1> v(data.data() + base + off, {n});
      const T fast = ufx::reduce(t, v, ufx::plus{}, T{0});
      const T generic = ufx::reduce(t, v, user_plus, T{0});
      CHECK(same_bits(fast, generic));
      if constexpr (std::is_integral_v<T>) { // integer sums are exact (modulo 2^bits) in any order
        T expect{0};
        for (std::int64_t i = 0; i < n; ++i)
          expect = static_cast<T>(expect + data[base + off + static_cast<std::size_t>(i)]);
        CHECK(fast == expect);
      }
    }
  }
}

/// A float sum of wide_sum_min (2^23) elements or more is accumulated in double by its own vector
/// leaf (simd_widen_sum_leaf: converting loads, and FMAs by 1 where the build has FMA): its bits
/// against the generic leaf's, a user's `+` over a double accumulator, rounded to float once.
template <class Target>
void widened_sum_matches_generic(const Target& t) {
  const auto user_plus = [](double a, double b) { return a + b; };
  const std::vector<float> data = values<float>((std::size_t{1} << 23) + 200, 777);
  const std::size_t base = aligned_base(data);
  for (const std::int64_t n : {std::int64_t{1} << 23, (std::int64_t{1} << 23) + 131}) {
    for (const std::size_t off : {0, 1, 6}) {
      CAPTURE(n);
      CAPTURE(off);
      const ufx::ndview<const float, 1> v(data.data() + base + off, {n});
      const float fast = ufx::reduce(t, v, ufx::plus{}, 0.0f);
      const double generic = ufx::reduce(t, v, user_plus, 0.0);
      CHECK(same_bits(fast, static_cast<float>(generic)));
    }
  }
}

/// The statistics' leaf passes (lanes_sum: vector registers with GCC where the build is not
/// cloned, the generic loop otherwise) against the order they document: lane j adds value(j),
/// value(j + L), ... from +0, then acc[j] += acc[j + w] for w = L/2 .. 1. Bitwise, at the lane
/// counts the leaf uses (128 bytes: 32 floats, 16 doubles) and at 64 bytes.
template <class T, int L>
void lanes_sum_matches_its_order() {
  const std::vector<T> data = values<T>(2048 + 7, 4242 + sizeof(T));
  const auto value = [&](ufx::index_t i) { return data[static_cast<std::size_t>(i)]; };
  for (const ufx::index_t nfull : {ufx::index_t{0}, ufx::index_t{L}, ufx::index_t{3 * L}, ufx::index_t{2048}}) {
    CAPTURE(nfull);
    T acc[L] = {};
    for (ufx::index_t i = 0; i < nfull; i += L)
      for (int j = 0; j < L; ++j) acc[j] = static_cast<T>(acc[j] + value(i + j));
    for (int w = L / 2; w > 0; w /= 2)
      for (int j = 0; j < w; ++j) acc[j] = static_cast<T>(acc[j] + acc[j + w]);
    CHECK(same_bits(ufx::detail::lanes_sum<T, L>(nfull, value), acc[0]));
  }
}

struct abs_map {
  template <class T>
  T operator()(T v) const {
    return v < T(0) ? -v : v;
  }
};
struct mul_map {
  template <class T>
  T operator()(T a, T b) const {
    return a * b;
  }
};

/// `fast` against the generic leaf's `generic` for a sum of products. Without FMA the two are
/// bitwise equal. With FMA, GCC's default -ffp-contract=fast may fuse the generic leaf's
/// `acc + x * y` into one rounding, while the vector leaf rounds each product before it adds it
/// (ISO C++'s evaluation): then both are within the pairwise error bound of a wider sum.
template <class T>
void check_product_sum(T fast, T generic, const std::vector<long double>& terms) {
#if defined(__FP_FAST_FMA) || defined(__FMA__) // the target has fused multiply-add
  long double ref = 0, mag = 0;
  for (long double v : terms) {
    ref += v;
    mag += v < 0 ? -v : v;
  }
  const long double eps = std::numeric_limits<T>::epsilon();
  const long double bound = eps * (std::log2(static_cast<long double>(terms.size()) + 1) + 20) * mag;
  CHECK(std::fabs(static_cast<long double>(fast) - ref) <= bound);
  CHECK(std::fabs(static_cast<long double>(generic) - ref) <= bound);
#else
  (void)terms;
  CHECK(same_bits(fast, generic));
#endif
}

/// Sums of mapped values with ufx::plus (the vector leaf over a buffer of mapped values, loads aligned
/// on the first input) against a user's `+` (the generic leaf): |x|, a dot product of two inputs at
/// different offsets, and an input times a scalar.
template <class T, class Target>
void mapped_sum_matches_generic(const Target& t) {
  const auto user_plus = [](T a, T b) { return static_cast<T>(a + b); };
  const std::vector<T> data = values<T>(140000, 777 + sizeof(T));
  const std::size_t base = aligned_base(data);
  for (const std::int64_t n : {1, 17, 64, 127, 128, 129, 257, 1000, 2049, 4099, 70001, (1 << 17) + 5}) {
    for (std::size_t off = 0; off <= 16; off += 3) {
      CAPTURE(n);
      CAPTURE(off);
      const ufx::ndview<const T, 1> x(data.data() + base + off, {n});
      const ufx::ndview<const T, 1> y(data.data() + base + 2 * off + 5, {n});
      CHECK(same_bits(ufx::transform_reduce(t, x, abs_map{}, ufx::plus{}, T{0}),
                      ufx::transform_reduce(t, x, abs_map{}, user_plus, T{0})));
      std::vector<long double> xy(static_cast<std::size_t>(n)), x3(static_cast<std::size_t>(n));
      for (std::int64_t i = 0; i < n; ++i) {
        xy[static_cast<std::size_t>(i)] = static_cast<long double>(x(i)) * static_cast<long double>(y(i));
        x3[static_cast<std::size_t>(i)] = static_cast<long double>(x(i)) * 3;
      }
      check_product_sum(ufx::transform_reduce(t, x, y, mul_map{}, ufx::plus{}, T{0}),
                        ufx::transform_reduce(t, x, y, mul_map{}, user_plus, T{0}), xy);
      check_product_sum(ufx::transform_reduce(t, x, T{3}, mul_map{}, ufx::plus{}, T{0}),
                        ufx::transform_reduce(t, x, T{3}, mul_map{}, user_plus, T{0}), x3);
    }
  }
}

/// Negative zeros: the vector leaf's lanes start at -0, which leaves every element as it is. A sum
/// of -0s with ufx::plus is -0, as the generic leaf gives it (its partials start from their first
/// element; NumPy's sum starts from +0 and gives +0). Among other values they change nothing.
template <class Target>
void sum_of_negative_zeros(const Target& t) {
  const auto user_plus = [](float a, float b) { return a + b; };
  for (const std::int64_t n : {5, 300, 3000}) {
    for (std::size_t off = 0; off < 4; ++off) {
      CAPTURE(n);
      CAPTURE(off);
      std::vector<float> x(static_cast<std::size_t>(n) + 4, -0.0f);
      const ufx::ndview<const float, 1> v(x.data() + off, {n});
      CHECK(same_bits(ufx::reduce(t, v, ufx::plus{}, 0.0f), -0.0f));
      CHECK(same_bits(ufx::reduce(t, v, ufx::plus{}, -0.0f), -0.0f));
      for (std::size_t i = 0; i < x.size(); i += 3) x[i] = 1.5f;
      CHECK(same_bits(ufx::reduce(t, v, ufx::plus{}, 0.0f), ufx::reduce(t, v, user_plus, 0.0f)));
    }
  }
}

/// All: every type on both CPU targets (the presets' build); otherwise float and double on
/// ufx::serial (the AVX2 and AVX-512 builds, where the integer and ufx::host cases would only
/// repeat the presets' build at 50 s of compile time per file).
template <bool All>
void run_all() {
  sum_leaf_matches_generic<float>(ufx::serial);
  sum_leaf_matches_generic<double>(ufx::serial);
  mapped_sum_matches_generic<float>(ufx::serial);
  mapped_sum_matches_generic<double>(ufx::serial);
  sum_of_negative_zeros(ufx::serial);
  widened_sum_matches_generic(ufx::serial);
  lanes_sum_matches_its_order<float, 32>();
  lanes_sum_matches_its_order<float, 16>();
  lanes_sum_matches_its_order<double, 16>();
  lanes_sum_matches_its_order<double, 8>();
  if constexpr (All) {
    sum_leaf_matches_generic<std::int64_t>(ufx::serial);
    sum_leaf_matches_generic<std::uint64_t>(ufx::serial);
    sum_leaf_matches_generic<float>(ufx::host);
    sum_leaf_matches_generic<double>(ufx::host);
    mapped_sum_matches_generic<float>(ufx::host);
    sum_of_negative_zeros(ufx::host);
    widened_sum_matches_generic(ufx::host);
  }
}

} // namespace ufx_simd_test
