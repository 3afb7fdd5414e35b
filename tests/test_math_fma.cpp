// test_math.cpp compiled with -mavx2 -mfma (tests/CMakeLists.txt sets them for this file): the
// kernels' FMA path, which the default flags of the other test binary never build.
#include "test_math.cpp"
