#pragma once
/// \file random.hpp
/// Seeded random arrays for benchmarks and examples, the same values on every target:
/// `ufx::random::uniform<T>(shape, lo, hi, seed)` (NumPy's `uniform`: [lo, hi)) and
/// `ufx::random::normal<T>(shape, mean, sd, seed)` (Box-Muller). T defaults to double, as NumPy's.
///
///   auto x = ufx::random::uniform<float>({1000}, -1, 1, 42);  // an ndarray, filled on ufx::host
///   auto y = ufx::random::normal<float>(ufx::sim, {1000}, 0, 1, 42); // a device_array, filled on sim
///   auto s = ufx::random::uniform<float>(ufx::serial, {1000}, -1, 1, 42); // the same values as x
///
/// Values. Element i depends only on the seed and on i (its row-major index), never on the target,
/// the threads or the shape's split into axes: 64 random bits are SplitMix64's finaliser applied to
/// mix(seed) + (counter + 1) * 0x9e3779b97f4a7c15 (a counter-based generator; any number of
/// threads draw independently). uniform: the top 24 (float) or 53 (double) bits as u in [0, 1),
/// then lo + (hi - lo) * u in double, converted to T. normal: u1 in (0, 1] from counter 2i and u2
/// in [0, 1) from counter 2i + 1, mean + sd * sqrt(-2 log u1) * cos(2 pi u2) in double, converted
/// to T. serial, host and sim give identical bits; on ufx::cuda, uniform values are identical and
/// normal ones use the device's log and cos (within an ulp of double, so float results almost
/// always identical).
///
/// Errors. A negative sd: ufx::value_error; a negative extent: ufx::shape_error.

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <type_traits>

#include "ufx/creation.hpp"

namespace ufx::random {
namespace detail {
UFX_TU_NAMESPACE_BEGIN

/// SplitMix64's output function.
UFX_HD constexpr std::uint64_t splitmix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
/// The bits of draw `counter` of the stream of `seed`.
UFX_HD constexpr std::uint64_t random_bits(std::uint64_t seed, std::uint64_t counter) {
  return splitmix64(splitmix64(seed) + (counter + 1) * 0x9e3779b97f4a7c15ull);
}
/// a * b + c in double, never fused into one rounding (so host and device agree).
UFX_HD inline double mul_add(double a, double b, double c) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(__dmul_rn(a, b), c);
#else
  const volatile double p = a * b; // a host compiler allowed to contract would fuse a * b + c
  return p + c;
#endif
}

template <class T>
struct uniform_gen {
  std::uint64_t seed;
  double lo, width;
  UFX_HD T operator()(index_t i) const {
    const std::uint64_t b = random_bits(seed, static_cast<std::uint64_t>(i));
    const double u = std::is_same_v<T, float> ? static_cast<double>(b >> 40) * 0x1p-24 : static_cast<double>(b >> 11) * 0x1p-53;
    return static_cast<T>(mul_add(width, u, lo));
  }
};

template <class T>
struct normal_gen {
  std::uint64_t seed;
  double mean, sd;
  UFX_HD T operator()(index_t i) const {
    const auto c = static_cast<std::uint64_t>(i) * 2;
    const double u1 = static_cast<double>((random_bits(seed, c) >> 11) + 1) * 0x1p-53;
    const double u2 = static_cast<double>(random_bits(seed, c + 1) >> 11) * 0x1p-53;
    const double z = ::sqrt(-2.0 * ::log(u1)) * ::cos(6.283185307179586 * u2);
    return static_cast<T>(mul_add(sd, z, mean));
  }
};

template <class T>
void check_real() {
  static_assert(std::is_floating_point_v<T>, "ufx::random: the element type must be float or double");
}

/// An array of `shape` filled with gen(i) on target `t`: an ndarray on a CPU target (its threads),
/// a device_array on a device target.
template <class T, class Tg, std::size_t R, class Gen>
auto generate(const Tg& t, const index_t (&shape)[R], const Gen& gen, const char* label) {
  if constexpr (Tg::is_device) {
    device_array<T, static_cast<int>(R)> d(ufx::detail::shape_of(shape), target(t));
    ufx::detail::fill_device(d, gen, label);
    return d;
  } else {
    ndarray<T, static_cast<int>(R)> a(ufx::detail::shape_of(shape));
    if constexpr (std::is_same_v<Tg, host_t>) ufx::detail::fill_host(a.data(), a.size(), gen, ufx::detail::cpu_executor(t));
    else ufx::detail::fill_host(a.data(), a.size(), gen);
    return a;
  }
}

UFX_TU_NAMESPACE_END
} // namespace detail

/// Uniform values in [lo, hi) on target `t`: a device_array on ufx::sim / ufx::cuda, else an ndarray.
template <class T = double, target_tag Tg, std::size_t R>
auto uniform(const Tg& t, const index_t (&shape)[R], std::type_identity_t<T> lo = 0, std::type_identity_t<T> hi = 1,
             std::uint64_t seed = 0) {
  detail::check_real<T>();
  const double a = static_cast<double>(lo);
  return detail::generate<T>(t, shape, detail::uniform_gen<T>{seed, a, static_cast<double>(hi) - a}, "ufx::random::uniform kernel");
}
/// Uniform values in [lo, hi): an ndarray, filled on ufx::host.
template <class T = double, std::size_t R>
ndarray<T, static_cast<int>(R)> uniform(const index_t (&shape)[R], std::type_identity_t<T> lo = 0,
                                        std::type_identity_t<T> hi = 1, std::uint64_t seed = 0) {
  return uniform<T>(host, shape, lo, hi, seed);
}

/// Normal values of mean `mean` and standard deviation `sd` on target `t`.
template <class T = double, target_tag Tg, std::size_t R>
auto normal(const Tg& t, const index_t (&shape)[R], std::type_identity_t<T> mean = 0, std::type_identity_t<T> sd = 1,
            std::uint64_t seed = 0) {
  detail::check_real<T>();
  if (!(sd >= 0)) {
    std::ostringstream os;
    os << "ufx::random::normal: the standard deviation, " << sd << ", is negative";
    throw value_error(os.str());
  }
  return detail::generate<T>(t, shape, detail::normal_gen<T>{seed, static_cast<double>(mean), static_cast<double>(sd)},
                             "ufx::random::normal kernel");
}
/// Normal values: an ndarray, filled on ufx::host.
template <class T = double, std::size_t R>
ndarray<T, static_cast<int>(R)> normal(const index_t (&shape)[R], std::type_identity_t<T> mean = 0,
                                       std::type_identity_t<T> sd = 1, std::uint64_t seed = 0) {
  return normal<T>(host, shape, mean, sd, seed);
}

} // namespace ufx::random
