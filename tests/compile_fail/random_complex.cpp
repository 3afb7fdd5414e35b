// Expected: "ufx::random: no complex distributions" (NumPy's random has none either).
#include <ufx/random.hpp>

#include <complex>

int main() {
  const auto a = ufx::random::uniform<std::complex<float>>({3}, 0, 1, 1);
  (void)a;
}
