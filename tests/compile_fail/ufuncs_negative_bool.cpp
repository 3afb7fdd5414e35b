// Expected: "ufx::negative: NumPy has no negative of bool", for the unary - operator on a lazy bool operand.
#include <ufx/ufuncs.hpp>

int main() {
  ufx::ndarray<bool, 1> a({2});
  ufx::ndarray<bool, 1> r = ufx::eval(-ufx::lazy(a));
  (void)r;
}
