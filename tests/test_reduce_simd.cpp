// The CPU reduction leaf's vector code at the presets' flags (tests/reduce_simd_cases.hpp): every
// case in the cpu build; float and double on ufx::serial in the sanitizer build (UFX_TEST_SANITIZED),
// which checks the leaf's reads at -O0 and would otherwise spend 80 s compiling this file.
#include "common.hpp"

#include "reduce_simd_cases.hpp"

#if defined(UFX_TEST_SANITIZED)
TEST_CASE("a plain sum's vector leaf is bitwise the generic leaf, at every misalignment") {
  ufx_simd_test::run_all<false>();
}
#else
TEST_CASE("a plain sum's vector leaf is bitwise the generic leaf, at every misalignment") {
  ufx_simd_test::run_all<true>();
}
#endif
