// Expected: "ufx::full_like: a complex value for an array of real elements" (NumPy would drop the
// imaginary part with a ComplexWarning).
#include <ufx/creation.hpp>

#include <complex>

int main() {
  const ufx::ndarray<float, 1> x({3});
  const auto y = ufx::full_like(x, std::complex<float>(1, 2));
  (void)y;
}
