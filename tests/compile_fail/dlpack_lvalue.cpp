// Expected: "ufx::to_dlpack: pass the array as an rvalue (std::move(a))".
#include <ufx/dlpack.hpp>

int main() {
  ufx::ndarray<float, 1> a({4}, 1.f);
  DLManagedTensor* t = ufx::to_dlpack(a); // the array's memory cannot pass to the tensor and stay in a
  t->deleter(t);
}
