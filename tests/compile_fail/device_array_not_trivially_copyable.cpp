// Expected: "ufx::device_array: the element type must be trivially copyable".
#include <ufx/device_array.hpp>

#include <string>

int main() {
  ufx::device_array<std::string, 1> d({3}, ufx::sim);
  (void)d;
}
