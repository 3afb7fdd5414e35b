// Expected: "ufx::atomic_and: the element type must be int32_t, uint32_t, int64_t or uint64_t" (a
// float: a bitwise operation has no floating-point form).
#include <ufx/atomic.hpp>

int main() {
  float bits[1] = {};
  ufx::atomic_and(bits[0], 1.f);
}
