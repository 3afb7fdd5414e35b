// Expected: t.gridsize<N> with N outside 1..3.
#include <ufx/thread.hpp>

int main() {
  ufx::thread t;
  auto g = t.gridsize<0>();
  (void)g;
}
