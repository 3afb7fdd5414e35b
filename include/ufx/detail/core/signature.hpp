#pragma once
// NumPy gufunc core signatures, "(m,n),(n,p)->(m,p)", parsed at compile time.
//
// The text arrives as a `fixed_string` template argument and is turned at once into `signature<'(', 'm', ...>`, a type
// of integers only: nvcc cannot pass class-type template arguments to a __global__ function, and this type travels into
// kernels. The parse is a constexpr function over the characters, so its result serves static_asserts (malformed
// signatures), the shape step (binding core dimensions) and kernels (core ranks and fixed sizes as constants).
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "ufx/config.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// A string literal as a template argument: `guvectorize<"(n)->()">`.
template <std::size_t N>
struct fixed_string {
  char data[N] = {};
  constexpr fixed_string(const char (&s)[N]) {
    for (std::size_t i = 0; i < N; ++i) data[i] = s[i];
  }
  static constexpr std::size_t size = N - 1; // without the terminating '\0'
};

inline constexpr int max_sig_operands = 16;
inline constexpr int max_core_rank = 8;
inline constexpr int max_sig_dims = 32;
inline constexpr long long max_fixed_size = 2147483647;

/// What is wrong with a signature; each value has its own static_assert message (signature_check).
enum class sig_error {
  none,
  no_arrow,            // "(n)" : no "->"
  expected_open,       // "n)->()" : an operand must start with '('
  expected_dim,        // "(,n)", "(m,)", "(-1)", "(0)" : a name or a non-zero size must follow '(' or ','
  expected_close,      // "(m n)" : ',' or ')' must follow a dimension
  expected_comma,      // "(m)(n)->()" : ',' or "->" must follow an input
  trailing_text,       // "(n)->() x" : text after the last output
  digit_name,          // "(3d)" : a name cannot start with a digit
  flexible_dim,        // "(m?,n)" : NumPy's '?' dimensions are not supported
  too_many_operands,   // more than max_sig_operands
  core_rank_too_large, // more than max_core_rank dimensions in one operand
  too_many_dims,       // more than max_sig_dims distinct dimensions
  size_too_large,      // a fixed size above max_fixed_size
};

/// The parsed form of a signature. Dimensions are numbered in order of first appearance; a fixed size is a dimension
/// too (every "3" in a signature is the same dimension, as in NumPy).
struct parsed_signature {
  sig_error error = sig_error::none;
  int error_at = 0; // column of the error (0-based)
  int nin = 0, nout = 0;
  int ndims = 0;
  int rank[max_sig_operands] = {};               // core rank per operand (inputs, then outputs)
  int dim[max_sig_operands][max_core_rank] = {}; // dimension number of each core dimension
  long long fixed[max_sig_dims] = {};            // fixed size of each dimension, -1 for a name
  int name_begin[max_sig_dims] = {};             // where the dimension's name (or size) is spelled
  int name_len[max_sig_dims] = {};

  constexpr int operands() const { return nin + nout; }
};

constexpr bool sig_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
constexpr bool sig_digit(char c) { return c >= '0' && c <= '9'; }
constexpr bool sig_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

/// NumPy's signature grammar: operands "(d,...)" or "()" separated by ',', inputs "->" outputs, d a name
/// [A-Za-z_][A-Za-z0-9_]* or a size >= 0, whitespace between tokens. A step returns false once failed.
struct signature_parser {
  const char* s;
  int n;
  int i = 0;
  parsed_signature p{};

  constexpr void skip() {
    while (i < n && sig_space(s[i])) ++i;
  }
  constexpr bool at(char c) const { return i < n && s[i] == c; }
  constexpr bool fail(sig_error e) {
    p.error = e;
    p.error_at = i;
    return false;
  }
  constexpr bool same_text(int a, int la, int b, int lb) const {
    if (la != lb) return false;
    for (int k = 0; k < la; ++k)
      if (s[a + k] != s[b + k]) return false;
    return true;
  }
  /// `d`: the dimension spelled at [begin, begin + len), a name or a size (size >= 0), added when new: the same name,
  /// or the same size however spelled ("3" and "03", as NumPy), is one.
  constexpr bool intern(int begin, int len, long long size, int& d) {
    d = 0;
    while (d < p.ndims && !(size >= 0 ? p.fixed[d] == size : same_text(p.name_begin[d], p.name_len[d], begin, len)))
      ++d;
    if (d < p.ndims) return true;
    if (p.ndims == max_sig_dims) return fail(sig_error::too_many_dims);
    p.name_begin[d] = begin;
    p.name_len[d] = len;
    p.fixed[d] = size;
    ++p.ndims;
    return true;
  }
  /// One core dimension of operand `op`: a name, or a non-zero size.
  constexpr bool dimension(int op) {
    skip();
    const int begin = i;
    long long size = -1;
    if (i < n && sig_digit(s[i])) {
      size = 0;
      while (i < n && sig_digit(s[i])) {
        size = size * 10 + (s[i] - '0');
        if (size > max_fixed_size) return fail(sig_error::size_too_large);
        ++i;
      }
      if (i < n && sig_alpha(s[i])) return fail(sig_error::digit_name);
      if (size == 0) { // NumPy: "expect dimension name or non-zero frozen size"
        i = begin;
        return fail(sig_error::expected_dim);
      }
    } else if (i < n && sig_alpha(s[i])) {
      while (i < n && (sig_alpha(s[i]) || sig_digit(s[i]))) ++i;
    } else {
      return fail(sig_error::expected_dim);
    }
    const int len = i - begin;
    if (at('?')) return fail(sig_error::flexible_dim);
    int d = 0;
    if (!intern(begin, len, size, d)) return false;
    if (p.rank[op] == max_core_rank) return fail(sig_error::core_rank_too_large);
    p.dim[op][p.rank[op]++] = d;
    return true;
  }
  /// One operand, "(d, ...)" or "()": an input, or an output after the arrow.
  constexpr bool operand(bool output) {
    skip();
    if (!at('(')) return fail(sig_error::expected_open);
    if (p.operands() == max_sig_operands) return fail(sig_error::too_many_operands);
    const int op = p.operands();
    ++(output ? p.nout : p.nin);
    ++i;
    skip();
    if (!at(')'))
      while (true) {
        if (!dimension(op)) return false;
        skip();
        if (!at(',')) break;
        ++i;
      }
    if (!at(')')) return fail(sig_error::expected_close);
    ++i;
    return true;
  }
  constexpr parsed_signature run() {
    bool outputs = false;
    while (operand(outputs)) {
      skip();
      if (at(',')) {
        ++i;
      } else if (!outputs && i + 1 < n && s[i] == '-' && s[i + 1] == '>') {
        i += 2;
        outputs = true;
      } else {
        if (!outputs) fail(i >= n ? sig_error::no_arrow : sig_error::expected_comma);
        else if (i < n) fail(sig_error::trailing_text);
        break;
      }
    }
    return p;
  }
};

constexpr parsed_signature parse_signature(const char* s, int n) { return signature_parser{s, n}.run(); }

/// A signature as a type of integers: its characters. Everything else is computed from them.
template <char... C>
struct signature {
  static constexpr char text[] = {C..., '\0'};
  static constexpr int length = sizeof...(C);
  /// The text again as a fixed_string, for static_asserts that show it (host code only).
  static constexpr fixed_string<sizeof...(C) + 1> literal{text};
  static constexpr parsed_signature parsed = parse_signature(text, length);
  static constexpr int nin = parsed.nin;
  static constexpr int nout = parsed.nout;
  static constexpr int operands = parsed.nin + parsed.nout;
  static constexpr int ndims = parsed.ndims;

  /// Core rank of operand k (inputs first, then outputs).
  static constexpr int core_rank(int k) { return parsed.rank[k]; }
  static constexpr int dim(int k, int j) { return parsed.dim[k][j]; }
  /// The fixed size of operand k's j-th core dimension, or -1 when it is a name.
  static constexpr long long fixed(int k, int j) { return parsed.fixed[parsed.dim[k][j]]; }

  static std::string_view str() { return {text, static_cast<std::size_t>(length)}; }
  /// The dimension's name as the user spelled it ("n", or "3" for a fixed size).
  static std::string_view dim_name(int d) {
    return {text + parsed.name_begin[d], static_cast<std::size_t>(parsed.name_len[d])};
  }
};

// Built by recursion on the length, without decltype and without partial specialisation: nvcc's front end spells a
// decltype-made type by its expression in the host code it generates (and cannot spell the fixed_string inside it), and
// it does not match partial specialisations that have a class-type template parameter.
template <fixed_string S, std::size_t N, char... C>
struct signature_from {
  using type =
      typename std::conditional_t<N == 0, std::type_identity<signature<C...>>,
                                  signature_from<S, (N == 0 ? 0 : N - 1), (N == 0 ? '\0' : S.data[N - 1]), C...>>::type;
};

/// The integer-only signature type of a string literal.
template <fixed_string S>
using signature_of = typename signature_from<S, S.size>::type;

/// Instantiated with a parse result: exactly one static_assert fails for a malformed signature, and the compiler's "in
/// instantiation of" line shows the signature text and the column.
template <fixed_string Sig, sig_error Error, int Column>
struct signature_check {
  static_assert(Error != sig_error::no_arrow,
                "guvectorize: malformed signature: no '->' between the inputs and the outputs");
  static_assert(Error != sig_error::expected_open,
                "guvectorize: malformed signature: expected '(' to start an operand's core dimensions");
  static_assert(Error != sig_error::expected_dim,
                "guvectorize: malformed signature: expected a dimension name or a non-zero size after '(' or ','");
  static_assert(Error != sig_error::expected_close,
                "guvectorize: malformed signature: expected ',' or ')' after a dimension");
  static_assert(Error != sig_error::expected_comma,
                "guvectorize: malformed signature: expected ',' or '->' after an input operand");
  static_assert(Error != sig_error::trailing_text,
                "guvectorize: malformed signature: unexpected text after the last output operand");
  static_assert(Error != sig_error::digit_name,
                "guvectorize: malformed signature: a dimension name cannot start with a digit");
  static_assert(Error != sig_error::flexible_dim, "guvectorize: NumPy's flexible '?' dimensions are not supported");
  static_assert(Error != sig_error::too_many_operands, "guvectorize: the signature has more than 16 operands");
  static_assert(Error != sig_error::core_rank_too_large, "guvectorize: an operand has more than 8 core dimensions");
  static_assert(Error != sig_error::too_many_dims, "guvectorize: the signature has more than 32 distinct dimensions");
  static_assert(Error != sig_error::size_too_large, "guvectorize: a fixed core size is larger than 2147483647");
  static constexpr bool ok = Error == sig_error::none;
};

/// Instantiated with fn's parameter count: the "in instantiation of" line shows both numbers and the signature.
template <int FunctionParameters, fixed_string Sig, int SignatureOperands>
struct arity_check {
  static_assert(FunctionParameters == SignatureOperands,
                "guvectorize: the function's parameter count differs from the signature's operand count "
                "(fn takes one parameter per input, then one per output)");
  static constexpr bool ok = FunctionParameters == SignatureOperands;
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
