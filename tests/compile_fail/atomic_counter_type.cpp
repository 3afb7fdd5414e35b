// Expected: "ufx::atomic_inc: the element type must be uint32_t or uint64_t" (a signed int: CUDA's
// atomicInc wraps unsigned counters).
#include <ufx/atomic.hpp>

int main() {
  int counter[1] = {};
  ufx::atomic_inc(counter[0], 10);
}
