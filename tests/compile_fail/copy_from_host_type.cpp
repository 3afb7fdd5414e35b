// Expected: "device_array::copy_from_host: element types differ" (doubles into a float array).
#include <ufx/device_array.hpp>

#include <vector>

int main() {
  ufx::device_array<float, 1> d({3}, ufx::sim);
  const std::vector<double> h(3, 1.0);
  d.copy_from_host(h);
}
