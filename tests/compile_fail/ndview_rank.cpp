// Expected: "ufx::ndview: rank must be between 0 and ufx::max_rank" (a rank above ufx::max_rank).
#include <ufx/ndview.hpp>

int main() {
  float buf[1] = {};
  ufx::ndview<float, 17> v(buf, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1});
  (void)v;
}
