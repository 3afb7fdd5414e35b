// Expected: "device_array::copy_to_host: ranks differ" (a 2-d array into a flat vector).
#include <ufx/device_array.hpp>

#include <vector>

int main() {
  const ufx::device_array<float, 2> d({2, 3}, ufx::sim);
  std::vector<float> h(6);
  d.copy_to_host(h);
}
