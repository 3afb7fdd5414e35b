// Expected: "ufx::atomic_cas: the element type must be int32_t, uint32_t, int64_t, uint64_t, float,
// double, ufx::float16 or ufx::bfloat16 (not const or volatile)" (the element of an input view,
// ufx::ndview<const int, 1>, is read-only).
#include <ufx/atomic.hpp>
#include <ufx/ndview.hpp>

int main() {
  int buf[1] = {};
  const ufx::ndview<const int, 1> x(buf, {1});
  return ufx::atomic_cas(x(0), 0, 1);
}
