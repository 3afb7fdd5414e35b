// Expected: "device_array::copy_from_host: ranks differ" (a flat vector into a 2-d array).
#include <ufx/device_array.hpp>

#include <vector>

int main() {
  ufx::device_array<float, 2> d({2, 3}, ufx::sim);
  const std::vector<float> h(6, 1.f);
  d.copy_from_host(h);
}
