// The doctest main of ufx_tests_avx512 (tests/CMakeLists.txt): tests built with AVX-512, run only
// where the CPU has it. This file is built without those flags.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>

int main(int argc, char** argv) {
  if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512vl") ||
      !__builtin_cpu_supports("avx512bw") || !__builtin_cpu_supports("avx512dq") || !__builtin_cpu_supports("fma")) {
    std::puts("ufx_tests_avx512: this CPU has no AVX-512 (F, VL, BW, DQ) and FMA; skipped");
    return 0;
  }
  return doctest::Context(argc, argv).run();
}
