// The compile-time gufunc signature parser (detail/core/signature.hpp): NumPy's grammar, the parsed
// form, and the error each malformed signature gives. Compile-fail cases for the static_asserts
// are in tests/compile_fail/.
#include "common.hpp"

#include <string_view>

#include <ufx/detail/core/signature.hpp>
#include <ufx/guvectorize.hpp>

using ufx::detail::parse_signature;
using ufx::detail::parsed_signature;
using ufx::detail::sig_error;
using ufx::detail::signature_of;

namespace {
constexpr parsed_signature parse(std::string_view s) { return parse_signature(s.data(), static_cast<int>(s.size())); }
constexpr sig_error error_of(std::string_view s) { return parse(s).error; }
} // namespace

// the parse is a constant expression: these hold at compile time, not only when the tests run
static_assert(signature_of<"(m,n),(n,p)->(m,p)">::nin == 2);
static_assert(signature_of<"(m,n),(n,p)->(m,p)">::core_rank(2) == 2);
static_assert(error_of("(n)") == sig_error::no_arrow);

TEST_CASE("a matmul signature names three dimensions shared across operands") {
  using S = signature_of<"(m,n),(n,p)->(m,p)">;
  CHECK(S::nin == 2);
  CHECK(S::nout == 1);
  CHECK(S::operands == 3);
  CHECK(S::ndims == 3);
  CHECK(S::core_rank(0) == 2);
  CHECK(S::core_rank(1) == 2);
  CHECK(S::core_rank(2) == 2);
  // m is dimension 0, n is 1, p is 2, in order of first appearance
  CHECK(S::dim(0, 0) == 0);
  CHECK(S::dim(0, 1) == 1);
  CHECK(S::dim(1, 0) == 1);
  CHECK(S::dim(1, 1) == 2);
  CHECK(S::dim(2, 0) == 0);
  CHECK(S::dim(2, 1) == 2);
  CHECK(S::dim_name(1) == "n");
  CHECK(S::str() == "(m,n),(n,p)->(m,p)");
  CHECK(S::fixed(0, 0) == -1);
}

TEST_CASE("scalar cores, several outputs and long names parse") {
  using S = signature_of<"(n)->(),()">;
  CHECK(S::nin == 1);
  CHECK(S::nout == 2);
  CHECK(S::core_rank(1) == 0);
  CHECK(S::core_rank(2) == 0);
  using T = signature_of<"(),()->()">;
  CHECK(T::operands == 3);
  CHECK(T::ndims == 0);
  using U = signature_of<"(rows_1,_cols)->(_cols)">;
  CHECK(U::ndims == 2);
  CHECK(U::dim_name(0) == "rows_1");
  CHECK(U::dim_name(1) == "_cols");
  CHECK(U::dim(1, 0) == 1);
}

TEST_CASE("whitespace is allowed between any two tokens") {
  using S = signature_of<" ( m , n ) ,( n,p )  ->  ( m,p ) ">;
  CHECK(S::nin == 2);
  CHECK(S::nout == 1);
  CHECK(S::ndims == 3);
  CHECK(S::dim_name(2) == "p");
  CHECK(error_of("(m,n)\t->\n()") == sig_error::none);
  CHECK(error_of("( )->( )") == sig_error::none);
}

TEST_CASE("fixed sizes parse as dimensions with a size, shared by equal spelling") {
  using S = signature_of<"(3),(3)->(3)">;
  CHECK(S::ndims == 1);
  CHECK(S::fixed(0, 0) == 3);
  CHECK(S::fixed(2, 0) == 3);
  CHECK(S::dim_name(0) == "3");
  using T = signature_of<"(4,n),(n,16)->(4,16)">;
  CHECK(T::ndims == 3);
  CHECK(T::fixed(0, 0) == 4);
  CHECK(T::fixed(0, 1) == -1);
  CHECK(T::fixed(1, 1) == 16);
  CHECK(parse("(2147483647)->()").fixed[0] == 2147483647);
}

TEST_CASE("equal fixed sizes are one dimension however they are spelled, as in NumPy") {
  // found by tests/fuzz: NumPy's test_signature numbers "(3),(03)->(3)" with one dimension
  using S = signature_of<"(3),(03)->(n,003)">;
  CHECK(S::ndims == 2);
  CHECK(S::dim(1, 0) == 0);
  CHECK(S::dim(2, 1) == 0);
  CHECK(S::fixed(1, 0) == 3);
  CHECK(S::dim_name(0) == "3");
}

TEST_CASE("each malformed signature gives its own error at the right column") {
  CHECK(error_of("") == sig_error::expected_open);
  CHECK(error_of("(n)") == sig_error::no_arrow);
  CHECK(error_of("(n),(n)") == sig_error::no_arrow);
  CHECK(error_of("n->()") == sig_error::expected_open);
  CHECK(error_of("->()") == sig_error::expected_open);
  CHECK(error_of("(n)->") == sig_error::expected_open);
  CHECK(error_of("(,n)->()") == sig_error::expected_dim);
  CHECK(error_of("(m,)->()") == sig_error::expected_dim);
  CHECK(error_of("(-1)->()") == sig_error::expected_dim);
  CHECK(error_of("(0)->()") == sig_error::expected_dim); // NumPy: "non-zero frozen size"
  CHECK(error_of("(n,00)->()") == sig_error::expected_dim);
  CHECK(parse("(n,00)->()").error_at == 3);
  CHECK(error_of("(m n)->()") == sig_error::expected_close);
  CHECK(error_of("(m,n->()") == sig_error::expected_close);
  CHECK(error_of("(m)(n)->()") == sig_error::expected_comma);
  CHECK(error_of("(m)-()") == sig_error::expected_comma);
  CHECK(error_of("(m)->()x") == sig_error::trailing_text);
  CHECK(error_of("(m)->()->()") == sig_error::trailing_text);
  CHECK(error_of("(3d)->()") == sig_error::digit_name);
  CHECK(error_of("(m?,n)->()") == sig_error::flexible_dim);
  CHECK(error_of("(2147483648)->()") == sig_error::size_too_large);
  CHECK(error_of("(a,b,c,d,e,f,g,h,i)->()") == sig_error::core_rank_too_large);
  CHECK(error_of("(a,b,c,d,e,f,g,h)->()") == sig_error::none);
  CHECK(error_of("(),(),(),(),(),(),(),(),(),(),(),(),(),(),(),()->()") == sig_error::too_many_operands);
  CHECK(error_of("(),(),(),(),(),(),(),(),(),(),(),(),(),(),()->()") == sig_error::none);
  // columns point at the offending character
  CHECK(parse("(m n)->()").error_at == 3);
  CHECK(parse("(m)->() x").error_at == 8);
  CHECK(parse("(m,n)").error_at == 5);
}

TEST_CASE("more than 32 distinct dimension names is an error") {
  CHECK(error_of("(a0,a1,a2,a3,a4,a5,a6,a7),(b0,b1,b2,b3,b4,b5,b6,b7),(c0,c1,c2,c3,c4,c5,c6,c7),"
                 "(d0,d1,d2,d3,d4,d5,d6,d7)->()") == sig_error::none);
  CHECK(error_of("(a0,a1,a2,a3,a4,a5,a6,a7),(b0,b1,b2,b3,b4,b5,b6,b7),(c0,c1,c2,c3,c4,c5,c6,c7),"
                 "(d0,d1,d2,d3,d4,d5,d6,d7)->(e0)") == sig_error::too_many_dims);
}

namespace {
struct first_f {
  template <class T>
  UFX_HD void operator()(ufx::ndview<const T, 1> x, T& r) const {
    r = x(0);
  }
};
} // namespace

TEST_CASE("the parsed signature is a type of integers only") {
  // (through the gufunc type: nvcc's host code cannot spell signature_of<"..."> outside a template)
  auto g = ufx::guvectorize<"(n)->()">(first_f{});
  CHECK(std::is_same_v<decltype(g), ufx::gufunc<ufx::detail::signature<'(', 'n', ')', '-', '>', '(', ')'>, first_f>>);
  // the same text gives the same type, so kernels instantiate once per signature
  CHECK(std::is_same_v<decltype(g), decltype(ufx::guvectorize<"(n)->()">(first_f{}))>);
}
