// Expected: "ufx::profile: profiles ufx::sim's launches only" (ufx::host runs its kernels on the CPU's threads; only
// the sim sees every thread's accesses as a GPU would make them).
#include <ufx/ufx.hpp>

int main() {
  const ufx::profile_report p = ufx::profile(ufx::host, [](auto) {});
  return static_cast<int>(p.kernels.size());
}
