// Expected: "ufx::cbrt: NumPy has no cbrt of complex numbers" (np.cbrt has no complex loop; docs/ufuncs.md's table).
#include <ufx/ufuncs.hpp>

#include <complex>
#include <vector>

int main() {
  const std::vector<std::complex<double>> z{{1, 2}};
  (void)ufx::cbrt(z);
}
