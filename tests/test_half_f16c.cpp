// test_half.cpp compiled with -mavx2 -mfma -mf16c (tests/CMakeLists.txt sets them for this file):
// float16's conversions through F16C's instructions, which the other test binary's flags never
// build; its test of the two paths then compares the instructions with the portable code.
#include "test_half.cpp"
