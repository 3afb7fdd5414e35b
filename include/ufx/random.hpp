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
/// to T. ufx::float16 and ufx::bfloat16 are drawn as float (the same values as `uniform<float>` and
/// `normal<float>` with the same arguments and seed) and then rounded to nearest even once; their
/// lo, hi, mean and sd are floats. Rounding may give uniform's hi itself (as it may for float: a
/// value below hi rounds up to it). Complex element types are refused at compile time (NumPy has no
/// complex distributions). Every target gives identical bits, ufx::cuda included: log and cos are ufx's own
/// (fdlibm's polynomials, within about an ulp), every product and sum rounded once and never
/// fused into an FMA, and sqrt and division are IEEE on the host and the device alike. (Code
/// built with -ffast-math may reassociate them: its values are not promised.)
///
/// Errors. A negative sd: ufx::value_error; a negative extent: ufx::shape_error.
///
/// Targets. The overloads taking a target fill there: an ndarray on ufx::serial (the calling
/// thread) or ufx::host (its threads), a device_array on ufx::sim or ufx::cuda, filled on the
/// device (ufx::cuda in a unit nvcc did not compile: on the host, then copied). The overloads
/// without a target fill an ndarray on ufx::host.

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "ufx/creation.hpp"
#include "ufx/detail/arrays/random.hpp"

namespace ufx::random {

/// Uniform values in [lo, hi) on target `t`: a device_array on ufx::sim / ufx::cuda, else an ndarray.
template <class T = double, target_tag Tg, std::size_t R>
auto uniform(const Tg& t, const index_t (&shape)[R], detail::param_t<T> lo = 0, detail::param_t<T> hi = 1,
             std::uint64_t seed = 0) {
  detail::check_real<T>();
  const double a = static_cast<double>(lo);
  return detail::generate<T>(t, shape, detail::uniform_gen<T>{seed, a, static_cast<double>(hi) - a},
                             "ufx::random::uniform kernel");
}
/// Uniform values in [lo, hi): an ndarray, filled on ufx::host.
template <class T = double, std::size_t R>
ndarray<T, static_cast<int>(R)> uniform(const index_t (&shape)[R], detail::param_t<T> lo = 0, detail::param_t<T> hi = 1,
                                        std::uint64_t seed = 0) {
  return uniform<T>(host, shape, lo, hi, seed);
}

/// Normal values of mean `mean` and standard deviation `sd` on target `t`.
template <class T = double, target_tag Tg, std::size_t R>
auto normal(const Tg& t, const index_t (&shape)[R], detail::param_t<T> mean = 0, detail::param_t<T> sd = 1,
            std::uint64_t seed = 0) {
  detail::check_real<T>();
  detail::check_sd(sd);
  return detail::generate<T>(t, shape, detail::normal_gen<T>{seed, static_cast<double>(mean), static_cast<double>(sd)},
                             "ufx::random::normal kernel");
}
/// Normal values: an ndarray, filled on ufx::host.
template <class T = double, std::size_t R>
ndarray<T, static_cast<int>(R)> normal(const index_t (&shape)[R], detail::param_t<T> mean = 0,
                                       detail::param_t<T> sd = 1, std::uint64_t seed = 0) {
  return normal<T>(host, shape, mean, sd, seed);
}

} // namespace ufx::random
