// tests/reduce_simd_cases.hpp with AVX-512 (tests/CMakeLists.txt): 64-byte vectors.
#include "reduce_simd_cases.hpp"

TEST_CASE("AVX-512: a plain sum's vector leaf is bitwise the generic leaf, at every misalignment") {
  ufx_simd_test::run_all<false>();
}
