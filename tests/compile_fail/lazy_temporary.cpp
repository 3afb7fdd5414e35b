// Expected: a call to ufx::lazy's deleted overload: a temporary would be gone before the
// expression runs.
#include <ufx/lazy.hpp>

#include <vector>

int main() {
  auto e = ufx::lazy(std::vector<float>{1, 2, 3});
  (void)e;
}
