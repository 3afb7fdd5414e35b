// tests/reduce_simd_cases.hpp with -mavx2 -mfma (tests/CMakeLists.txt): 32-byte vectors.
#include "reduce_simd_cases.hpp"

TEST_CASE("AVX2: a plain sum's vector leaf is bitwise the generic leaf, at every misalignment") {
  ufx_simd_test::run_all<false>();
}
