// Expected: "ufx::from_dlpack<View>: View must be ufx::ndview<T, R> (host memory) or ufx::device_view<T, R>".
#include <ufx/dlpack.hpp>

#include <vector>

int main() {
  DLTensor t{};
  auto v = ufx::from_dlpack<std::vector<float>>(t); // a view type, not a container
  return static_cast<int>(v.size());
}
