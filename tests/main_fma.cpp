// The doctest main of ufx_tests_math_fma (tests/CMakeLists.txt): test_math.cpp built with AVX2 and
// FMA, run only where the CPU has them. This file is built without those flags.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>

int main(int argc, char** argv) {
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) {
    std::puts("ufx_tests_math_fma: this CPU has no AVX2 and FMA; skipped");
    return 0;
  }
  return doctest::Context(argc, argv).run();
}
