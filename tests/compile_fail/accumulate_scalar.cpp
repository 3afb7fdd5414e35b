// Expected: "ufx::accumulate: accumulate an array, not a scalar".
#include <ufx/reduce.hpp>

int main() {
  auto c = ufx::accumulate(2.f, ufx::plus{});
  (void)c;
}
