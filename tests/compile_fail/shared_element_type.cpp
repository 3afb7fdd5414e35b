// Expected: a shared element type that is not trivially copyable.
#include <string>
#include <ufx/thread.hpp>

int main() {
  ufx::shared<std::string[4]> s;
  (void)s;
}
