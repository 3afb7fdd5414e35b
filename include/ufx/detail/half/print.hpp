#pragma once
/// \file detail/half/print.hpp
/// What operator<< of ufx::float16 and ufx::bfloat16 (ufx/half.hpp) writes: NumPy's str() of an
/// np.float16.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <limits>
#include <string>

namespace ufx::detail::half_bits {

/// A decimal: digits * 10^exp10, the digits without trailing zeros.
struct decimal {
  unsigned long long digits;
  int exp10;
};

/// The shortest decimal that `round` (a 16-bit type's conversion from double) takes back to `abits`,
/// the bits of a (positive, finite, nonzero) a, the closest to a of those: what NumPy's Dragon4 gives
/// in its unique mode.
///
/// At each number of digits d, the closest d-digit decimal to a (printf's, correctly rounded) and
/// its two neighbours on the d-digit grid are the only candidates: a d-digit decimal that reads back
/// as a lies in a's rounding interval, and so does every grid point between it and a.
template <class Round>
decimal shortest_decimal(double a, std::uint16_t abits, Round round, int max_digits) {
  unsigned long long digits = 0; // the decimal digits * 10^exp10
  int exp10 = 0;
  for (int d = 1; d <= max_digits && digits == 0; ++d) {
    char buf[64]; // d digits, correctly rounded (C's printf is exact); any locale's decimal point
    std::snprintf(buf, sizeof buf, "%.*e", d - 1, a);
    unsigned long long m = 0;
    const char* p = buf;
    for (; *p != 'e'; ++p)
      if (*p >= '0' && *p <= '9') m = m * 10 + static_cast<unsigned>(*p - '0');
    const int first = std::atoi(p + 1); // the exponent of the first digit
    double closest = 0;
    for (int delta : {0, -1, 1}) {
      const unsigned long long c = m + static_cast<unsigned long long>(static_cast<long long>(delta));
      if (c == 0) continue;
      char t[64]; // no decimal point: strtod reads it alike in every locale
      std::snprintf(t, sizeof t, "%llue%d", c, first - (d - 1));
      const double back = std::strtod(t, nullptr), distance = back > a ? back - a : a - back;
      if (round(back) == abits && (digits == 0 || distance < closest))
        digits = c, exp10 = first - (d - 1), closest = distance;
    }
  }
  while (digits % 10 == 0) digits /= 10, ++exp10;
  return {digits, exp10};
}

/// NumPy's str() of v, the exact value of a 16-bit type's `bits`, where `round` is that type's
/// conversion from double: shortest_decimal's digits, positional from 1e-4 up to 1e16 with a digit
/// after the point, scientific elsewhere.
template <class Round>
std::string numpy_str(double v, std::uint16_t bits, Round round, int max_digits) {
  if (v != v) return "nan"; // NumPy prints no sign on a NaN
  std::string out = (bits & 0x8000u) != 0 ? "-" : "";
  const double a = v < 0 ? -v : v;
  const auto abits = static_cast<std::uint16_t>(bits & 0x7fffu);
  if (abits == 0) return out + "0.0";
  if (a == std::numeric_limits<double>::infinity()) return out + "inf";
  const auto [digits, exp10] = shortest_decimal(a, abits, round, max_digits);
  const std::string s = std::to_string(digits);
  const int n = static_cast<int>(s.size());
  const int point = n + exp10; // the value is 0.<s> * 10^point
  if (a >= 1e-4 && a < 1e16) { // positional, with a digit after the point
    if (point <= 0) return out + "0." + std::string(static_cast<std::size_t>(-point), '0') + s;
    if (point >= n) return out + s + std::string(static_cast<std::size_t>(point - n), '0') + ".0";
    return out + s.substr(0, static_cast<std::size_t>(point)) + "." + s.substr(static_cast<std::size_t>(point));
  }
  out += s[0];
  if (n > 1) out += "." + s.substr(1);
  const int e = point - 1;
  out += e < 0 ? "e-" : "e+";
  if (e > -10 && e < 10) out += '0';
  return out + std::to_string(e < 0 ? -e : e);
}

} // namespace ufx::detail::half_bits
