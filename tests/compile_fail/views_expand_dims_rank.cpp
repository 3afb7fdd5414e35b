// Expected: "ufx::expand_dims: the view would have more than ufx::max_rank axes".
#include <ufx/views.hpp>

int main() {
  float buf[1] = {};
  ufx::ndview<float, 16> v(buf, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1});
  auto c = ufx::expand_dims<0>(v);
  (void)c;
}
