// A gufunc core function without UFX_HD, on ufx::cuda.
#include <ufx/ufx.hpp>

#include <vector>

struct row_sum_f {
  void operator()(ufx::ndview<const float, 1> x, float& s) const {
    s = 0;
    for (ufx::index_t i = 0; i < x.extent(0); ++i) s += x(i);
  }
};

ufx::ndarray<float, 1> run(const ufx::ndarray<float, 2>& a) {
  return ufx::guvectorize<"(n)->()">(row_sum_f{})(ufx::cuda, a);
}
