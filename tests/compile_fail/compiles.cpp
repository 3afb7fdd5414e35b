// Control case: correct guvectorize code builds with the same set-up as the failing cases.
#include <ufx/guvectorize.hpp>

struct dot_f {
  template <class T>
  void operator()(ufx::ndview<const T, 1> x, ufx::ndview<const T, 1> y, T& r) const {
    r = 0;
    for (ufx::index_t i = 0; i < x.extent(0); ++i) r += x(i) * y(i);
  }
};

int main() {
  auto dot = ufx::guvectorize<"(n),(n)->()">(dot_f{});
  const ufx::ndarray<float, 1> x({3}, 1.f);
  return dot(ufx::serial, x, x) == 3.f ? 0 : 1;
}
