// Expected: "ufx::reduce: reduce at least one array (scalars alone have nothing to reduce)".
#include <ufx/reduce.hpp>

int main() {
  auto sum = ufx::reducer(ufx::plus{}, 0.f);
  float s = sum(2.f);
  (void)s;
}
