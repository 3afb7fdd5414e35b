#pragma once
// Shared by the device runtimes in src/: one wording for the errors every runtime raises.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

namespace ufx::detail {

/// The sim's fill of memory that holds nothing written (a new device_array's, a kernel block's shared memory), 4 bytes
/// repeated from 4-byte boundaries: a float read from it is a NaN, a double a huge negative number, and no arithmetic
/// result has these bits, so a write is told from a read by the change it makes.
inline constexpr std::uint32_t undefined_fill = 0xffa5a5a5u;
/// Lays the fill over `bytes` at p (4-byte aligned).
inline void fill_undefined(void* p, std::size_t bytes) {
  auto* c = static_cast<unsigned char*>(p);
  std::size_t o = 0;
  for (; o + 4 <= bytes; o += 4) std::memcpy(c + o, &undefined_fill, 4);
  std::memcpy(c + o, &undefined_fill, bytes - o);
}
inline unsigned char undefined_fill_byte(std::uintptr_t a) {
  return static_cast<unsigned char>(undefined_fill >> (8 * (a % 4)));
}
/// src/sim/runtime.cpp: whether `bytes` at p lie in device memory unwritten since allocation; that they are written.
bool sim_memory_undefined(const void* p, std::size_t bytes);
void sim_memory_defined(const void* p, std::size_t bytes);

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

inline std::string out_of_memory_message(std::string_view runtime, int device, std::size_t requested,
                                         std::size_t available, std::size_t total) {
  return std::string(runtime) + " device " + std::to_string(device) + ": out of device memory: requested " +
         format_bytes(requested) + " (" + std::to_string(requested) + " bytes), " + format_bytes(available) +
         " available of " + format_bytes(total) +
         " (a call on host containers runs in chunks that fit with ufx::chunked(target, bytes); see docs/streams.md)";
}

} // namespace ufx::detail
