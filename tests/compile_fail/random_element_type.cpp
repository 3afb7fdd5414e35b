// Expected: "ufx::random: the element type must be float or double" (integer uniform draws).
#include <ufx/random.hpp>

int main() {
  const auto a = ufx::random::uniform<int>({3}, 0, 10, 1);
  (void)a;
}
