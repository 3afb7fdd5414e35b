// The non-template half of ufx/print.hpp: element words in NumPy's formats and NumPy's layout of
// them (numpy/core/arrayprint.py: FloatingFormat, IntegerFormat, BoolFormat, _formatArray).
#include "ufx/print.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <system_error>

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

/// Shortest round-trip digits in `fmt`; past `float_precision` fractional digits, the value rounded
/// to that many with trailing zeros dropped (NumPy's floatmode 'maxprec').
template <class F>
std::string max_precision(F x, std::chars_format fmt) {
  std::string s = chars(x, fmt);
  const std::size_t dot = s.find('.');
  const std::size_t end = std::min(s.find('e'), s.size());
  if (dot == std::string::npos || end - dot - 1 <= float_precision) return s;
  s = chars(x, fmt, float_precision);
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

template <class F>
std::vector<std::string> format_reals(const F* v, std::size_t n) {
  // NumPy decides exponential notation from the finite nonzero magnitudes, compared in the type.
  F max_abs = 0, min_abs = std::numeric_limits<F>::infinity();
  bool any_finite = false, neg_inf = false, any_nonfinite = false;
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(v[i])) {
      any_nonfinite = true;
      neg_inf = neg_inf || (std::isinf(v[i]) && v[i] < 0);
      continue;
    }
    any_finite = true;
    const F a = std::fabs(v[i]);
    if (a != 0) max_abs = std::max(max_abs, a), min_abs = std::min(min_abs, a);
  }
  const bool exp_format = max_abs != 0 && (max_abs >= F(1e8) || min_abs < F(1e-4) || max_abs / min_abs > F(1e3));

  std::vector<std::string> out(n);
  std::size_t left = 0, right = 0; // widths of the integer and fractional parts
  if (exp_format) {
    struct parts {
      std::string mant_int, mant_frac, exp_sign, exp_digits;
    };
    std::vector<parts> p(n);
    std::size_t exp_digits = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (!std::isfinite(v[i])) continue;
      const std::string s = max_precision(v[i], std::chars_format::scientific);
      const std::size_t e = s.find('e');
      std::tie(p[i].mant_int, p[i].mant_frac) = split_point(s.substr(0, e));
      p[i].exp_sign = s.substr(e + 1, 1);
      p[i].exp_digits = s.substr(e + 2);
      left = std::max(left, p[i].mant_int.size());
      right = std::max(right, p[i].mant_frac.size());
      exp_digits = std::max(exp_digits, p[i].exp_digits.size());
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (!std::isfinite(v[i])) continue;
      out[i] = pad_left(p[i].mant_int, left) + "." + p[i].mant_frac + std::string(right - p[i].mant_frac.size(), '0') +
               "e" + p[i].exp_sign + std::string(exp_digits - p[i].exp_digits.size(), '0') + p[i].exp_digits;
    }
    right += exp_digits + 2; // the fractional digits, 'e', the exponent's sign and digits
  } else {
    std::vector<std::pair<std::string, std::string>> p(n);
    for (std::size_t i = 0; i < n; ++i) {
      if (!std::isfinite(v[i])) continue;
      p[i] = split_point(max_precision(v[i], std::chars_format::fixed));
      left = std::max(left, p[i].first.size());
      right = std::max(right, p[i].second.size());
    }
    for (std::size_t i = 0; i < n; ++i)
      if (std::isfinite(v[i]))
        out[i] = pad_left(p[i].first, left) + "." + p[i].second + std::string(right - p[i].second.size(), ' ');
  }
  if (any_nonfinite) { // nan and inf widen every element, as NumPy's pad_left does
    if (!any_finite) left = right = 0;
    const std::size_t width = std::max(left + right + 1, std::size_t{3} + (neg_inf ? 1 : 0));
    for (std::size_t i = 0; i < n; ++i)
      out[i] = pad_left(std::isfinite(v[i]) ? out[i] : nonfinite(static_cast<double>(v[i])), width);
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

/// NumPy's scalar str: positional for 1e-4 <= |x| < 1e16 (with ".0" when integral), else
/// scientific; the shortest digits that read back as x.
template <class F>
std::string format_real_scalar(F x) {
  if (!std::isfinite(x)) return nonfinite(static_cast<double>(x));
  const F a = std::fabs(x);
  if (a == 0 || (a >= F(1e-4) && a < F(1e16))) {
    std::string s = chars(x, std::chars_format::fixed);
    if (s.find('.') == std::string::npos) s += ".0";
    return s;
  }
  return chars(x, std::chars_format::scientific);
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

std::vector<std::string> format_words(const float* v, std::size_t n) { return format_reals(v, n); }
std::vector<std::string> format_words(const double* v, std::size_t n) { return format_reals(v, n); }
std::vector<std::string> format_words(const long long* v, std::size_t n) { return format_integers(v, n); }
std::vector<std::string> format_words(const unsigned long long* v, std::size_t n) { return format_integers(v, n); }
std::vector<std::string> format_words(const bool* v, std::size_t n) {
  std::vector<std::string> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = v[i] ? " True" : "False";
  return out;
}

std::string format_scalar(float x) { return format_real_scalar(x); }
std::string format_scalar(double x) { return format_real_scalar(x); }
std::string format_scalar(long long x) { return std::to_string(x); }
std::string format_scalar(unsigned long long x) { return std::to_string(x); }
std::string format_scalar(bool x) { return x ? "True" : "False"; }

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
