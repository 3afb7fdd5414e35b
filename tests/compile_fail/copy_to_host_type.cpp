// Expected: "device_array::copy_to_host: element types differ" (a float array into doubles).
#include <ufx/device_array.hpp>

#include <vector>

int main() {
  const ufx::device_array<float, 1> d({3}, ufx::sim);
  std::vector<double> h(3);
  d.copy_to_host(h);
}
