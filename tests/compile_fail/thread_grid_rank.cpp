// Expected: t.grid<N> with N outside 1..3.
#include <ufx/thread.hpp>

int main() {
  ufx::thread t;
  auto g = t.grid<4>();
  (void)g;
}
