// Expected: "ufx::dlpack: DLPack has no type code for this element type".
#include <ufx/dlpack.hpp>

struct rgb {
  float r, g, b;
};

int main() {
  ufx::ndarray<rgb, 1> a({4});
  DLManagedTensor* t = ufx::to_dlpack(std::move(a));
  t->deleter(t);
}
