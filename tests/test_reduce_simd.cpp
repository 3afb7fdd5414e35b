// The CPU reduction leaf's vector code at the presets' flags (tests/reduce_simd_cases.hpp).
#include "common.hpp"

#include "reduce_simd_cases.hpp"

TEST_CASE("a plain sum's vector leaf is bitwise the generic leaf, at every misalignment") { ufx_simd_test::run_all<true>(); }
