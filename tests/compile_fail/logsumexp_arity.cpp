// Expected: "ufx::logsumexp: call it as logsumexp(x) or logsumexp(x, y, ..., map)" (a target and
// no array).
#include <ufx/reduce.hpp>

int main() {
  auto l = ufx::logsumexp(ufx::host);
  (void)l;
}
