// Expected: "ufx::device_array: d(i...) cannot read an element" (host code cannot read device
// memory: the message names to_host() and device_view).
#include <ufx/device_array.hpp>

int main() {
  const ufx::device_array<float, 1> d({3}, ufx::sim);
  return d(0) > 0;
}
