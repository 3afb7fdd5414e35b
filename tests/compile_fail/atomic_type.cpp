// Expected: "ufx::atomic_add: the element type must be int32_t, uint32_t, int64_t, uint64_t, float,
// double, ufx::float16 or ufx::bfloat16 (not const or volatile)" (a short element: CUDA has no 16-bit
// atomic add on integers).
#include <ufx/atomic.hpp>

int main() {
  short counts[1] = {};
  ufx::atomic_add(counts[0], 1);
}
