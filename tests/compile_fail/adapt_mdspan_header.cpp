// Expected: "ufx: a cuda::std::mdspan needs #include <ufx/mdspan.hpp>" (ufx.hpp came before
// libcu++'s mdspan, so it did not include the mdspan adapter).
#include <ufx/ufx.hpp>

#include <cuda/std/mdspan>

int main() {
  float data[4] = {1, 2, 3, 4};
  cuda::std::mdspan<float, cuda::std::dextents<int, 1>> m(data, 4);
  auto neg = ufx::vectorize([](float a) { return -a; });
  auto z = neg(m);
  (void)z;
}
