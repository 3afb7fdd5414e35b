// test_math.cpp compiled with AVX-512 (tests/CMakeLists.txt sets the flags for this file): the
// kernels' FMA path as GCC writes it with mask registers (selects become masked moves and blends).
#include "test_math.cpp"
