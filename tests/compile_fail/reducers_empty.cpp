// Expected: "ufx::reducers: name at least one reduction".
#include <ufx/reducers.hpp>

int main() {
  auto r = ufx::reducers();
  (void)r;
}
