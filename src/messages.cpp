// The checks and messages of every call's path that need no template, compiled once here, not in every caller (#29).
#include <algorithm>
#include <string>

#include "ufx/detail/backend/sim/checks.hpp"
#include "ufx/detail/device/thread.hpp"
#include "ufx/targets.hpp"

namespace ufx {

std::string to_string(const memory_space& s) {
  if (s.is_host()) return "host";
  return std::string(detail::runtime_name(*s.runtime)) + " device " + std::to_string(s.device);
}

} // namespace ufx

namespace ufx::detail {

std::string format_dim3(const dim3& d) {
  std::string s = "(";
  s.append(std::to_string(d.x)).append(", ").append(std::to_string(d.y)).append(", ").append(std::to_string(d.z));
  return s.append(")"); // piece by piece: GCC 12's -Wrestrict misfires on "(" + std::string
}

void check_launch(const launch_config& c, const device_info& d, const char* label, std::size_t static_shared) {
  auto fail = [&](const std::string& what) {
    throw launch_error(d.target + " device " + std::to_string(d.ordinal) + ": cannot launch " + label + " with grid " +
                       format_dim3(c.grid) + ", block " + format_dim3(c.block) + ": " + what);
  };
  if (c.grid.count() == 0 || c.block.count() == 0) fail("a grid or block extent is 0");
  if (c.block.count() > static_cast<unsigned long long>(d.max_threads_per_block))
    fail(std::to_string(c.block.count()) + " threads per block, more than the device's " +
         std::to_string(d.max_threads_per_block));
  if (c.block.z > 64) fail("block.z is more than 64");
  if (c.grid.y > 65535 || c.grid.z > 65535) fail("grid.y or grid.z is more than 65535");
  if (c.grid.x > 2147483647u) fail("grid.x is more than 2^31 - 1");
  if (c.shared_bytes + static_shared > d.shared_memory_per_block)
    fail(std::to_string(c.shared_bytes + static_shared) + " bytes of shared memory per block" +
         (static_shared ? " (" + std::to_string(static_shared) + " in shared arrays, " +
                              std::to_string(c.shared_bytes) + " dynamic)"
                        : std::string()) +
         ", more than the device's " + std::to_string(d.shared_memory_per_block));
}

void check_cooperative(const launch_config& c, long long limit, const device_info& d, const char* label) {
  if (!c.cooperative || static_cast<long long>(c.grid.count()) <= limit) return;
  throw launch_error(d.target + " device " + std::to_string(d.ordinal) + ": cannot launch " + label +
                     " cooperatively with grid " + format_dim3(c.grid) + " (" + std::to_string(c.grid.count()) +
                     " blocks), block " + format_dim3(c.block) + ": at most " + std::to_string(limit) +
                     " blocks of this kernel are resident at once (ufx::max_cooperative_grid), and a cooperative "
                     "launch needs every block resident for t.grid_sync()");
}

long long host_cooperative_blocks(const device_info& d, unsigned long long threads, std::size_t shared_bytes) {
  if (threads == 0) return 0;
  // a multiprocessor as a GPU's of compute capability 9.0: 2048 threads, 32 blocks, 228 KiB shared
  long long per_sm = std::min<long long>(32, static_cast<long long>(2048 / threads));
  if (shared_bytes > 0) per_sm = std::min<long long>(per_sm, static_cast<long long>((228u << 10) / shared_bytes));
  return per_sm * std::max(1, d.multiprocessors);
}

std::string operand_name(int k, int nout) {
  return k < nout ? "output " + std::to_string(k) : "input " + std::to_string(k - nout);
}

std::string where_instead(const memory_space& want, const void* lo, const void* hi) {
  const memory_space is =
      space_of(lo, static_cast<std::size_t>(static_cast<const char*>(hi) - static_cast<const char*>(lo)));
  return "is not in " + to_string(want) + " memory (it points to " +
         (is.is_host() ? std::string("host memory") : to_string(is) + " memory") +
         ": a pointer from elsewhere leaked into a device loop)";
}

} // namespace ufx::detail
