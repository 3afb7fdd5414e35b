// Expected: "ufx::guvectorize: the function cannot be called with the cores of these operands" (a
// generic functor is checked at the call: here it wants rank-2 cores and the signature gives rank 1).
#include <ufx/guvectorize.hpp>

struct wants_matrices {
  template <class T>
  void operator()(ufx::ndview<const T, 2>, T&) const {}
};

int main() {
  auto g = ufx::guvectorize<"(n)->()">(wants_matrices{});
  const ufx::ndarray<float, 1> x({3}, 1.f);
  float r = g(x);
  (void)r;
}
