// Linked into every Google Benchmark program built with UFX_BENCH_BUILD_CHECK (the test command's build, CI's: -O0,
// only to check that the benchmarks compile and link). Timings of such a build would mean nothing, so it refuses to
// run and says how to build one that measures.
#include <cstdio>
#include <cstdlib>

namespace {
const int refuse = [] {
  std::fputs("ufx: this benchmark was built by the test command (UFX_BENCH_BUILD_CHECK: -O0, to check that it "
             "compiles), so its timings would mean nothing. Build the benchmarks to measure with "
             "scripts/bench_cpu.sh, or reconfigure: cmake --preset cpu -DUFX_BENCH_BUILD_CHECK=OFF\n",
             stderr);
  std::exit(2);
  return 0;
}();
} // namespace
