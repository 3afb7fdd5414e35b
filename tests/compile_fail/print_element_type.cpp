// Expected: "ufx: printing needs an arithmetic element type" (an array of structs has no NumPy format).
#include <ufx/print.hpp>

#include <iostream>

struct point {
  float x, y;
};

int main() {
  const ufx::ndarray<point, 1> a({2});
  std::cout << a;
}
