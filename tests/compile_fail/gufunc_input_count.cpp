// Expected: "ufx::guvectorize: the call's number of input operands differs from the number of
// inputs in the signature" (one input passed to a two-input signature).
#include <ufx/guvectorize.hpp>

struct dot_f {
  template <class T>
  void operator()(ufx::ndview<const T, 1>, ufx::ndview<const T, 1>, T& r) const {
    r = 0;
  }
};

int main() {
  auto dot = ufx::guvectorize<"(n),(n)->()">(dot_f{});
  const ufx::ndarray<float, 1> x({3}, 1.f);
  dot(x);
}
