// Expected: ufx::shared<A> needs an array type.
#include <ufx/thread.hpp>

int main() {
  ufx::shared<float> s;
  (void)s;
}
