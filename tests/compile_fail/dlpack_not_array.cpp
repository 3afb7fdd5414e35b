// Expected: "ufx::to_dlpack: the array must be a ufx::ndarray<T, R> or a ufx::device_array<T, R>".
#include <ufx/dlpack.hpp>

#include <vector>

int main() {
  std::vector<float> v(4);
  DLManagedTensor* t = ufx::to_dlpack(std::move(v));
  t->deleter(t);
}
