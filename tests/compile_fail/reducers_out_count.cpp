// Expected: "ufx::out: name one destination for each reduction of ufx::reducers".
#include <ufx/reducers.hpp>

int main() {
  const ufx::ndarray<float, 2> m({2, 3}, 1.f);
  ufx::ndarray<float, 1> lo({3});
  ufx::minmax(m, ufx::axis{0}, ufx::out(lo)); // minmax has two results
}
