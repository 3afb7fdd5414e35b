// Expected: "ufx::bitwise_and: NumPy's bitwise operations take integers and bool only", for the & operator.
#include <ufx/ufuncs.hpp>

int main() {
  ufx::ndarray<float, 1> a({2}), b({2});
  ufx::ndarray<float, 1> r = a & b;
  (void)r;
}
