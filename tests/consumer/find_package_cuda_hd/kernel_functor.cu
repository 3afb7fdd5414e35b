// A raw kernel whose body is a functor without UFX_HD, launched on ufx::cuda.
#include <ufx/ufx.hpp>

#include <vector>

struct fill_f {
  void operator()(const ufx::thread& t, ufx::ndview<float, 1> out) const {
    const ufx::index_t i = t.grid<1>();
    if (i < out.extent(0)) out(i) = 1;
  }
};

void run(std::vector<float>& y) {
  ufx::kernel(fill_f{}, "fill").forall(static_cast<ufx::index_t>(y.size()))(ufx::cuda, y);
}
