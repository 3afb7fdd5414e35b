// Expected: "ufx::subtract: NumPy has no boolean subtract" (NumPy raises TypeError for the - operator on bool).
#include <ufx/ufuncs.hpp>

int main() {
  ufx::ndarray<bool, 1> a({2}), b({2});
  (void)ufx::subtract(a, b);
}
