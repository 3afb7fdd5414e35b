// Expected: "ufx::block_reduce / block_scan / block_exclusive_scan: the scratch is a ufx::shared<T[N]> with N >= 32"
// (16 elements: too few for the 32 warps of a 1024-thread block).
#include <ufx/ufx.hpp>

float body(const ufx::thread& t, ufx::shared<float[16]> scratch, float v) {
  return ufx::block_reduce(t, scratch, v, [](float a, float b) { return a + b; });
}

int main() {}
