// Expected: "ufx::sin: complex arguments are not in ufx yet" (docs/ufuncs.md lists the ufuncs that take them).
#include <ufx/ufuncs.hpp>

#include <complex>
#include <vector>

int main() {
  const std::vector<std::complex<double>> z{{1, 2}};
  (void)ufx::sin(z);
}
