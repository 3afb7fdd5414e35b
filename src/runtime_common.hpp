#pragma once
// Shared by the device runtimes in src/: one wording for the errors every runtime raises.
#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

namespace ufx::detail {

/// "1.5 GiB" style sizes for messages.
inline std::string format_bytes(std::size_t b) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(b);
  int u = 0;
  while (v >= 1024.0 && u < 4) {
    v /= 1024.0;
    ++u;
  }
  if (u == 0) return std::to_string(b) + " bytes";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

/// "ufx::sim device 0: out of device memory: requested 96.0 MiB (100663296 bytes), 64.0 MiB available of 64.0 MiB
/// (a call on host containers runs in chunks ...)": how much, and how to make a call fit
inline std::string out_of_memory_message(std::string_view runtime, int device, std::size_t requested,
                                         std::size_t available, std::size_t total) {
  return std::string(runtime) + " device " + std::to_string(device) + ": out of device memory: requested " +
         format_bytes(requested) + " (" + std::to_string(requested) + " bytes), " + format_bytes(available) +
         " available of " + format_bytes(total) +
         " (a call on host containers runs in chunks that fit with ufx::chunked(target, bytes); see docs/streams.md)";
}

} // namespace ufx::detail
