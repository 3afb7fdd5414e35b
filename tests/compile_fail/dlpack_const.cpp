// Expected: "ufx::to_dlpack: the array must not be const".
#include <ufx/dlpack.hpp>

int main() {
  const ufx::ndarray<float, 1> a({4}, 1.f);
  DLManagedTensor* t = ufx::to_dlpack(std::move(a)); // a const array cannot give its memory away
  t->deleter(t);
}
