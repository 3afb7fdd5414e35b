// Expected: "ufx::reducers: each argument must be a reduction".
#include <ufx/reducers.hpp>

int main() {
  auto r = ufx::reducers(ufx::sum, ufx::plus{}); // an operator, not a reduction: ufx::reducer(ufx::plus{}, 0)
  (void)r;
}
