// test_half.cpp compiled with -mavx2 -mfma -mf16c (tests/CMakeLists.txt sets them for this file):
// its vectorised conversion loops call src/half.cpp's AVX2 variants, which the other test
// binary's baseline flags never reach; its test of the two paths compares them with the portable code.
#include "test_half.cpp"
