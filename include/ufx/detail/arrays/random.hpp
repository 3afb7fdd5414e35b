#pragma once
// The bodies of ufx/random.hpp: the counter-based bits, the once-rounded arithmetic and portable log and cos that give
// every target the same values, and the fills.
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <type_traits>

#include "ufx/detail/arrays/creation.hpp"

namespace ufx::random::detail {
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
/// a * b and a + b, each rounded once and never fused into an FMA, whatever the compiler may contract (nvcc's -fmad,
/// GCC's -ffp-contract=fast with FMA hardware): so host and device give the same bits for the same inputs.
UFX_HD inline double rn_mul(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  double p = a * b;
#  if defined(__GNUC__) && defined(__x86_64__)
  asm("" : "+x"(p)); // the product leaves the compiler's sight, so no add can absorb it
#  elif defined(__GNUC__) && defined(__aarch64__)
  asm("" : "+w"(p));
#  else
  const volatile double v = p;
  p = v;
#  endif
  return p;
#endif
}
UFX_HD inline double rn_add(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}
UFX_HD inline double mul_add(double a, double b, double c) { return rn_add(rn_mul(a, b), c); }
/// p[0] + x (p[1] + x (...)), every step rounded once.
template <int K>
UFX_HD inline double horner_rn(double x, const double (&p)[K]) {
  double r = p[K - 1];
  for (int i = K - 2; i >= 0; --i) r = mul_add(r, x, p[i]);
  return r;
}

/// Box-Muller's log(u), 0 < u <= 1, the same on every target (a device's libm is not glibc's): fdlibm's log, within an
/// ulp or so, from exact steps (frexp, Sterbenz subtractions) and once-rounded ones (+, *, /, IEEE everywhere).
UFX_HD inline double portable_log(double u) {
  int e = 0;
  double m = ::frexp(u, &e);                         // u = m 2^e, m in [1/2, 1): exact
  if (m < 0.70710678118654752440) m = m * 2, e -= 1; // m in [sqrt(1/2), sqrt(2)): exact
  const double f = m - 1;                            // exact (Sterbenz)
  const double s = f / rn_add(2.0, f), z = rn_mul(s, s), w = rn_mul(z, z);
  constexpr double even[] = {3.999999999940941908e-01, 2.222219843214978396e-01, 1.531383769920937332e-01};
  constexpr double odd[] = {6.666666666666735130e-01, 2.857142874366239149e-01, 1.818357216161805012e-01,
                            1.479819860511658591e-01};
  const double r = rn_add(rn_mul(z, horner_rn(w, odd)), rn_mul(w, horner_rn(w, even)));
  const double hfsq = rn_mul(rn_mul(0.5, f), f), k = static_cast<double>(e);
  const double inner = rn_add(rn_mul(s, rn_add(hfsq, r)), rn_mul(k, 1.90821492927058770002e-10));
  return rn_add(rn_mul(k, 6.93147180369123816490e-01), -rn_add(rn_add(hfsq, -inner), -f));
}

/// cos(2 pi u) for 0 <= u < 1, within an ulp or so: the quarter turn q = rint(4u) and t = 4u - q in [-1/2, 1/2]
/// exactly, then fdlibm's sine or cosine polynomial at y = (pi/2) t in [-pi/4, pi/4].
UFX_HD inline double portable_cos_turns(double u) {
  const double x4 = u * 4, q = ::rint(x4), t = x4 - q; // exact: u is a multiple of 2^-53 below 1
  const double y = rn_mul(t, 1.57079632679489661923), z = rn_mul(y, y);
  const int quarter = static_cast<int>(q) & 3;
  if (quarter == 0 || quarter == 2) {
    constexpr double c[] = {4.16666666666666019037e-02,  -1.38888888888741095749e-03, 2.48015872894767294178e-05,
                            -2.75573143513906633035e-07, 2.08757232129817482790e-09,  -1.13596475577881948265e-11};
    const double r = rn_mul(rn_mul(z, z), horner_rn(z, c)), hz = rn_mul(0.5, z), w = rn_add(1.0, -hz);
    const double cosy = rn_add(w, rn_add(rn_add(rn_add(1.0, -w), -hz), r));
    return quarter == 0 ? cosy : -cosy;
  }
  constexpr double sc[] = {-1.66666666666666324348e-01, 8.33333333332248946124e-03,  -1.98412698298579493134e-04,
                           2.75573137070700676789e-06,  -2.50507602534068634195e-08, 1.58969099521155010221e-10};
  const double siny = rn_add(y, rn_mul(rn_mul(z, y), horner_rn(z, sc)));
  return quarter == 1 ? -siny : siny; // cos(pi/2 + y) = -sin y, cos(3 pi/2 + y) = sin y
}

/// The type a value is drawn in: float for ufx::float16 and ufx::bfloat16 (then rounded to them), else T.
template <class T>
using draw_t = std::conditional_t<ufx::detail::half_type<T>, float, T>;

/// The type of the arguments (lo, hi, mean, sd) for element type T: T for float and double, else float (the 16-bit
/// floats; for a complex T, only check_real's message follows).
template <class T>
using param_t = std::conditional_t<std::is_floating_point_v<T>, T, float>;

template <class T>
struct uniform_gen {
  std::uint64_t seed;
  double lo, width;
  UFX_HD T operator()(index_t i) const {
    using D = draw_t<T>;
    const std::uint64_t b = random_bits(seed, static_cast<std::uint64_t>(i));
    const double u =
        std::is_same_v<D, float> ? static_cast<double>(b >> 40) * 0x1p-24 : static_cast<double>(b >> 11) * 0x1p-53;
    return static_cast<T>(static_cast<D>(mul_add(width, u, lo)));
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
    const double z = rn_mul(::sqrt(-2.0 * portable_log(u1)), portable_cos_turns(u2)); // sqrt: IEEE everywhere
    return static_cast<T>(static_cast<draw_t<T>>(mul_add(sd, z, mean)));
  }
};

template <class T>
void check_real() {
  static_assert(!ufx::detail::is_complex_v<T>,
                "ufx::random: no complex distributions (NumPy's random has none either): draw the real and the "
                "imaginary parts as two float or double arrays");
  static_assert(ufx::detail::is_complex_v<T> || std::is_floating_point_v<T> || ufx::detail::half_type<T>,
                "ufx::random: the element type must be float, double, ufx::float16 or ufx::bfloat16");
}

/// Throws ufx::value_error for a negative (or NaN) standard deviation.
template <class T>
void check_sd(T sd) {
  if (!(sd >= 0)) {
    std::ostringstream os;
    os << "ufx::random::normal: the standard deviation, " << sd << ", is negative";
    throw value_error(os.str());
  }
}

/// An array of `shape` filled with gen(i) on target `t`: an ndarray on a CPU target, else a device_array.
template <class T, class Tg, std::size_t R, class Gen>
auto generate(const Tg& t, const index_t (&shape)[R], const Gen& gen, const char* label) {
  if constexpr (Tg::is_device) {
    device_array<T, static_cast<int>(R)> d(ufx::detail::shape_of(shape), target(t));
    ufx::detail::fill_device(d, gen, label);
    return d;
  } else {
    ndarray<T, static_cast<int>(R)> a(ufx::detail::shape_of(shape));
    ufx::detail::fill_host(a.data(), a.size(), gen, ufx::detail::cpu_executor(t));
    return a;
  }
}

UFX_TU_NAMESPACE_END
} // namespace ufx::random::detail
