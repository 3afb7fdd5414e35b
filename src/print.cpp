// The non-template half of ufx/print.hpp: element words in NumPy's formats and NumPy's layout of
// them (numpy/core/arrayprint.py: FloatingFormat, IntegerFormat, BoolFormat, _formatArray).
#include "ufx/print.hpp"

#include "ufx/half.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <sstream>
#include <system_error>
#include <type_traits>

namespace ufx::detail {
namespace {

constexpr int float_precision = 8;     // NumPy's default `precision`
constexpr std::size_t line_width = 75; // NumPy's default `linewidth`

/// x in `fmt`: the shortest digits that read back as x, or `precision` digits.
template <class F>
std::string chars(F x, std::chars_format fmt, int precision = -1) {
  char buf[512];
  const auto r = precision < 0 ? std::to_chars(buf, buf + sizeof buf, x, fmt)
                               : std::to_chars(buf, buf + sizeof buf, x, fmt, precision);
  return std::string(buf, r.ptr);
}

/// The type an element's value is read as: float for float16 and bfloat16 (exactly), else itself.
template <class F>
using wide_t = std::conditional_t<std::is_floating_point_v<F>, F, float>;

/// The same for a float16 or bfloat16 x: the shortest digits that read back as x in its own type
/// (half_bits::shortest_decimal, NumPy's Dragon4), written as std::to_chars writes a float's.
template <class H>
std::string half_chars(H x, std::chars_format fmt) {
  constexpr bool f16 = std::is_same_v<H, float16>;
  const auto abits = static_cast<std::uint16_t>(x.bits() & 0x7fffu);
  std::string out = ufx::math::signbit(x) ? "-" : "";
  if (abits == 0) return out + (fmt == std::chars_format::fixed ? "0" : "0e+00");
  const auto round = [](double d) { return f16 ? half_bits::f64_to_f16(d) : half_bits::f64_to_bf16(d); };
  const auto [digits, exp10] = half_bits::shortest_decimal(std::fabs(static_cast<float>(x)), abits, round, f16 ? 5 : 4);
  const std::string s = std::to_string(digits);
  const int n = static_cast<int>(s.size()), point = n + exp10; // the value is 0.<s> * 10^point
  if (fmt == std::chars_format::fixed) {
    if (point <= 0) return out + "0." + std::string(static_cast<std::size_t>(-point), '0') + s;
    if (point >= n) return out + s + std::string(static_cast<std::size_t>(point - n), '0');
    return out + s.substr(0, static_cast<std::size_t>(point)) + "." + s.substr(static_cast<std::size_t>(point));
  }
  out += s.substr(0, 1) + (n > 1 ? "." + s.substr(1) : "");
  const int e = point - 1, ae = e < 0 ? -e : e;
  return out + (e < 0 ? "e-" : "e+") + (ae < 10 ? "0" : "") + std::to_string(ae);
}

/// Shortest round-trip digits in `fmt`, in x's own type; past `float_precision` fractional digits,
/// the value rounded to that many with trailing zeros dropped (NumPy's floatmode 'maxprec').
template <class F>
std::string max_precision(F x, std::chars_format fmt) {
  std::string s;
  if constexpr (std::is_floating_point_v<F>) s = chars(x, fmt);
  else s = half_chars(x, fmt);
  const std::size_t dot = s.find('.');
  const std::size_t end = std::min(s.find('e'), s.size());
  if (dot == std::string::npos || end - dot - 1 <= float_precision) return s;
  s = chars(static_cast<wide_t<F>>(x), fmt, float_precision);
  const std::size_t e = std::min(s.find('e'), s.size());
  std::size_t last = e;
  while (last > 0 && s[last - 1] == '0') --last;
  if (last > 0 && s[last - 1] == '.') --last;
  return s.substr(0, last) + s.substr(e);
}

/// "1.5" -> {"1", "5"}; "2" -> {"2", ""}.
std::pair<std::string, std::string> split_point(const std::string& s) {
  const std::size_t dot = s.find('.');
  if (dot == std::string::npos) return {s, ""};
  return {s.substr(0, dot), s.substr(dot + 1)};
}

std::string pad_left(const std::string& s, std::size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

std::string nonfinite(double x) { return std::isnan(x) ? "nan" : (x < 0 ? "-inf" : "inf"); }

/// s with a '+' in front unless it has a '-', when `plus` (NumPy's sign='+', a complex's imaginary part).
std::string signed_word(std::string s, bool plus) { return plus && s[0] != '-' ? "+" + s : s; }

/// NumPy's FloatingFormat: whether the array prints in scientific notation, decided from its finite
/// nonzero magnitudes, compared and divided in its own type (float16's quotient rounded to float16).
template <class F>
bool exp_format(const F* v, std::size_t n) {
  F max_abs = F(0), min_abs = std::numeric_limits<F>::infinity();
  for (std::size_t i = 0; i < n; ++i) {
    const auto w = static_cast<wide_t<F>>(v[i]);
    if (!std::isfinite(w) || w == 0) continue;
    const F a = F(std::fabs(w));
    max_abs = std::max(max_abs, a), min_abs = std::min(min_abs, a);
  }
  return max_abs != F(0) && (max_abs >= F(1e8) || min_abs < F(1e-4) || max_abs / min_abs > F(1e3));
}

/// The words of an array's finite elements, with the widths of their integer and fractional parts.
struct real_words {
  std::vector<std::string> out;
  std::size_t left = 0, right = 0;
};

/// Scientific notation: one mantissa width and one exponent width for the whole array.
template <class F>
void scientific_words(const F* v, std::size_t n, bool plus, real_words& w) {
  struct parts {
    std::string mant_int, mant_frac, exp_sign, exp_digits;
  };
  std::vector<parts> p(n);
  std::size_t exp_digits = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(static_cast<wide_t<F>>(v[i]))) continue;
    const std::string s = signed_word(max_precision(v[i], std::chars_format::scientific), plus);
    const std::size_t e = s.find('e');
    std::tie(p[i].mant_int, p[i].mant_frac) = split_point(s.substr(0, e));
    p[i].exp_sign = s.substr(e + 1, 1);
    p[i].exp_digits = s.substr(e + 2);
    w.left = std::max(w.left, p[i].mant_int.size());
    w.right = std::max(w.right, p[i].mant_frac.size());
    exp_digits = std::max(exp_digits, p[i].exp_digits.size());
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(static_cast<wide_t<F>>(v[i]))) continue;
    w.out[i] = pad_left(p[i].mant_int, w.left) + "." + p[i].mant_frac +
               std::string(w.right - p[i].mant_frac.size(), '0') + "e" + p[i].exp_sign +
               std::string(exp_digits - p[i].exp_digits.size(), '0') + p[i].exp_digits;
  }
  w.right += exp_digits + 2; // the fractional digits, 'e', the exponent's sign and digits
}

/// Positional notation: every element padded to the same integer and fractional widths.
template <class F>
void positional_words(const F* v, std::size_t n, bool plus, real_words& w) {
  std::vector<std::pair<std::string, std::string>> p(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(static_cast<wide_t<F>>(v[i]))) continue;
    p[i] = split_point(signed_word(max_precision(v[i], std::chars_format::fixed), plus));
    w.left = std::max(w.left, p[i].first.size());
    w.right = std::max(w.right, p[i].second.size());
  }
  for (std::size_t i = 0; i < n; ++i)
    if (std::isfinite(static_cast<wide_t<F>>(v[i])))
      w.out[i] = pad_left(p[i].first, w.left) + "." + p[i].second + std::string(w.right - p[i].second.size(), ' ');
}

/// NumPy's FloatingFormat of an array of F (float, double, float16 or bfloat16), with sign='+' when
/// `plus` (a complex's imaginary parts: "+1.5", "+nan", "+inf").
template <class F>
std::vector<std::string> format_reals(const F* v, std::size_t n, bool plus = false) {
  real_words w{std::vector<std::string>(n)};
  if (exp_format(v, n)) scientific_words(v, n, plus, w);
  else positional_words(v, n, plus, w);
  bool any_finite = false, neg_inf = plus, any_nonfinite = false;
  for (std::size_t i = 0; i < n; ++i) {
    const auto x = static_cast<wide_t<F>>(v[i]);
    any_finite = any_finite || std::isfinite(x);
    any_nonfinite = any_nonfinite || !std::isfinite(x);
    neg_inf = neg_inf || (std::isinf(x) && x < 0);
  }
  if (any_nonfinite) { // nan and inf widen every element, as NumPy's pad_left does
    if (!any_finite) w.left = w.right = 0;
    const std::size_t width = std::max(w.left + w.right + 1, std::size_t{3} + (neg_inf ? 1 : 0));
    for (std::size_t i = 0; i < n; ++i) {
      const auto x = static_cast<wide_t<F>>(v[i]);
      w.out[i] = pad_left(std::isfinite(x) ? w.out[i] : signed_word(nonfinite(static_cast<double>(x)), plus), width);
    }
  }
  return w.out;
}

/// NumPy's ComplexFloatingFormat: the real parts formatted as one float array, the imaginary parts
/// as another with sign='+', and each element the two joined, a 'j' before the imaginary part's
/// padding ("1.+2.j ", "3.-4.5j").
template <class F>
std::vector<std::string> format_complex(const std::complex<F>* v, std::size_t n) {
  std::vector<F> re(n), im(n);
  for (std::size_t i = 0; i < n; ++i) re[i] = v[i].real(), im[i] = v[i].imag();
  std::vector<std::string> out = format_reals(re.data(), n), imag = format_reals(im.data(), n, true);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t end = imag[i].find_last_not_of(' ') + 1;
    out[i] += imag[i].substr(0, end) + "j" + imag[i].substr(end);
  }
  return out;
}

template <class I>
std::vector<std::string> format_integers(const I* v, std::size_t n) {
  std::vector<std::string> out(n);
  std::size_t width = 0;
  for (std::size_t i = 0; i < n; ++i) width = std::max(width, (out[i] = std::to_string(v[i])).size());
  for (auto& s : out) s = pad_left(s, width);
  return out;
}

/// NumPy's scalar str: positional for 1e-4 <= |x| < 1e16 (compared in long double, as NumPy does:
/// float32's 1e-4 is below it), with ".0" when integral unless `trim` (a complex's parts: "1", "2.5"),
/// else scientific; the shortest digits that read back as x. With `plus`, a sign always ("+2").
template <class F>
std::string format_real_scalar(F x, bool trim = false, bool plus = false) {
  if (!std::isfinite(x)) return signed_word(nonfinite(static_cast<double>(x)), plus);
  const auto a = static_cast<long double>(std::fabs(x));
  if (a == 0 || (a >= 1e-4L && a < 1e16L)) {
    std::string s = chars(x, std::chars_format::fixed);
    if (!trim && s.find('.') == std::string::npos) s += ".0";
    return signed_word(s, plus);
  }
  return signed_word(chars(x, std::chars_format::scientific), plus);
}

/// NumPy's str of a complex scalar: "2j" when the real part is +0, else "(1+2j)", "(nan+infj)",
/// "(1e-05+1e+20j)": each part as a scalar prints, without a trailing ".0".
template <class F>
std::string format_complex_scalar(std::complex<F> x) {
  if (x.real() == 0 && !std::signbit(x.real())) return format_real_scalar(x.imag(), true) + "j";
  return "(" + format_real_scalar(x.real(), true) + format_real_scalar(x.imag(), true, true) + "j)";
}

/// NumPy's str of a float16 (and of a bfloat16, in the same layout): half.hpp's operator<<.
template <class H>
std::string format_half_scalar(H x) {
  std::ostringstream os;
  os << x;
  return os.str();
}

struct array_layout {
  const std::vector<index_t>& shape;
  const std::vector<bool>& summarised;
  const std::vector<std::string>& words;
  std::vector<index_t> shown; // shown extents
  std::vector<index_t> step;  // words per shown index of each axis

  /// Adds `word` to `line`, first moving `line` into `s` when it would pass `width` (NumPy's
  /// _extendLine: a word never wraps onto a line of its own).
  static void extend(std::string& s, std::string& line, const std::string& word, std::size_t width,
                     const std::string& indent) {
    if (line.size() + word.size() > width && line.size() > indent.size()) {
      std::size_t end = line.size();
      while (end > 0 && line[end - 1] == ' ') --end;
      s += line.substr(0, end) + "\n";
      line = indent;
    }
    line += word;
  }

  // NumPy's _formatArray with separator ' ' (str, not repr), legacy off.
  std::string operator()(int axis, index_t first, const std::string& indent, std::size_t width) const {
    const int rank = static_cast<int>(shape.size());
    if (axis == rank) return words[static_cast<std::size_t>(first)];
    const std::string next_indent = indent + " ";
    const std::size_t next_width = width - 1;
    const index_t n = shown[static_cast<std::size_t>(axis)];
    const index_t edge = summarised[static_cast<std::size_t>(axis)] ? n / 2 : n;
    const index_t st = step[static_cast<std::size_t>(axis)];
    std::string s;
    if (axis == rank - 1) {
      const std::size_t elem_width = width - 1;
      std::string line = indent;
      for (index_t i = 0; i < n; ++i) {
        if (i == edge) {
          extend(s, line, "...", elem_width, indent);
          line += " ";
        }
        extend(s, line, (*this)(axis + 1, first + i * st, next_indent, next_width), elem_width, indent);
        if (i + 1 < n) line += " ";
      }
      s += line;
    } else {
      const std::string line_sep(static_cast<std::size_t>(rank - 1 - axis), '\n');
      for (index_t i = 0; i < n; ++i) {
        if (i == edge) s += indent + "..." + line_sep;
        s += indent + (*this)(axis + 1, first + i * st, next_indent, next_width);
        if (i + 1 < n) s += line_sep;
      }
    }
    std::string r(1, '[');
    r.append(s, indent.size(), std::string::npos).push_back(']');
    return r;
  }
};

} // namespace

std::vector<std::string> format_words(const float16* v, std::size_t n) { return format_reals(v, n); }
std::vector<std::string> format_words(const bfloat16* v, std::size_t n) { return format_reals(v, n); }
std::vector<std::string> format_words(const float* v, std::size_t n) { return format_reals(v, n); }
std::vector<std::string> format_words(const double* v, std::size_t n) { return format_reals(v, n); }
std::vector<std::string> format_words(const long long* v, std::size_t n) { return format_integers(v, n); }
std::vector<std::string> format_words(const unsigned long long* v, std::size_t n) { return format_integers(v, n); }
std::vector<std::string> format_words(const std::complex<float>* v, std::size_t n) { return format_complex(v, n); }
std::vector<std::string> format_words(const std::complex<double>* v, std::size_t n) { return format_complex(v, n); }
std::vector<std::string> format_words(const bool* v, std::size_t n) {
  std::vector<std::string> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = v[i] ? " True" : "False";
  return out;
}

std::string format_scalar(float16 x) { return format_half_scalar(x); }
std::string format_scalar(bfloat16 x) { return format_half_scalar(x); }
std::string format_scalar(float x) { return format_real_scalar(x); }
std::string format_scalar(double x) { return format_real_scalar(x); }
std::string format_scalar(long long x) { return std::to_string(x); }
std::string format_scalar(unsigned long long x) { return std::to_string(x); }
std::string format_scalar(bool x) { return x ? "True" : "False"; }
std::string format_scalar(std::complex<float> x) { return format_complex_scalar(x); }
std::string format_scalar(std::complex<double> x) { return format_complex_scalar(x); }

std::string format_layout(const std::vector<index_t>& shape, const std::vector<bool>& summarised,
                          const std::vector<std::string>& words) {
  array_layout l{shape, summarised, words, {}, {}};
  const std::size_t rank = shape.size();
  l.shown.resize(rank);
  l.step.assign(rank, 1);
  for (std::size_t k = 0; k < rank; ++k) l.shown[k] = summarised[k] ? 2 * print_edge_items : shape[k];
  for (std::size_t k = rank; k-- > 1;) l.step[k - 1] = l.step[k] * l.shown[k];
  return l(0, 0, " ", line_width);
}

} // namespace ufx::detail
