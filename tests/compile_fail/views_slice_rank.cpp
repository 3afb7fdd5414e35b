// Expected: "ufx::slice: the view would have more than ufx::max_rank axes" (a newaxis on a rank-16 view).
#include <ufx/views.hpp>

int main() {
  float buf[1] = {};
  ufx::ndview<float, 16> v(buf, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1});
  auto s = ufx::slice(v, ufx::newaxis);
  (void)s;
}
