// Expected: "use of deleted function ... reshape" (a view of a temporary device_array would dangle).
#include <ufx/views.hpp>

int main() {
  auto m = ufx::reshape(ufx::device_array<float, 1>({6}, ufx::sim), {2, 3});
  (void)m;
}
