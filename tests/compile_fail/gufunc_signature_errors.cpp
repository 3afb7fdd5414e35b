// Expected: one message per malformed signature, in this order (the CTest's regex names them all;
// the parser's classification itself is unit-tested in tests/test_signature.cpp). Unlike the other
// cases this file holds several mistakes, one per signature, so that the ten messages of
// signature_check cost one compile instead of ten.
#include <ufx/guvectorize.hpp>

struct any_f {
  template <class... A>
  void operator()(A&&...) const {}
};

int main() {
  (void)ufx::guvectorize<"n->()">(any_f{});      // expected '('
  (void)ufx::guvectorize<"(m,)->()">(any_f{});   // expected a dimension
  (void)ufx::guvectorize<"(m n)->()">(any_f{});  // expected ',' or ')'
  (void)ufx::guvectorize<"(m)(n)->()">(any_f{}); // expected ',' or '->'
  (void)ufx::guvectorize<"(m)->()x">(any_f{});   // trailing text
  (void)ufx::guvectorize<"(3d)->()">(any_f{});   // a name starting with a digit
  (void)ufx::guvectorize<"(),(),(),(),(),(),(),(),(),(),(),(),(),(),(),()->()">(any_f{}); // 17 operands
  (void)ufx::guvectorize<"(a,b,c,d,e,f,g,h,i)->()">(any_f{});                             // core rank 9
  (void)ufx::guvectorize<"(d0,d1,d2,d3,d4,d5,d6,d7),(d8,d9,d10,d11,d12,d13,d14,d15),"
                         "(d16,d17,d18,d19,d20,d21,d22,d23),(d24,d25,d26,d27,d28,d29,d30,d31)->(e0)">(
      any_f{});                                        // 33 dimension names
  (void)ufx::guvectorize<"(2147483648)->()">(any_f{}); // size above int32
}
