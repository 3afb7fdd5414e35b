// ufx::profile's collections (one ufx::profile at a time, and UFX_SIM_PROFILE's for the whole program), its table and
// its roofline estimate. The tracer of a raw kernel's launch is src/sim/profile.cpp.
#include "ufx/profile.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>

#include "sim/profile.hpp"
#include "ufx/detail/backend/sim/launch.hpp"
#include "ufx/detail/device/thread.hpp"
#include "ufx/errors.hpp"

namespace ufx {
namespace detail {

std::atomic<int> sim_profile_collecting{0};

namespace {
struct collections {
  std::mutex m;
  std::unique_ptr<profile_report> call; // ufx::profile's
  std::unique_ptr<profile_report> env;  // UFX_SIM_PROFILE's, printed at exit
};
collections& all() {
  static collections c;
  return c;
}

/// UFX_SIM_PROFILE=1: every sim launch of the program, its table on standard error at exit.
struct env_profile {
  env_profile() {
    const char* v = std::getenv("UFX_SIM_PROFILE");
    if (!v || !*v || std::string(v) == "0") return;
    all().env = std::make_unique<profile_report>();
    ++sim_profile_collecting;
  }
  ~env_profile() {
    collections& c = all();
    const std::lock_guard lock(c.m);
    if (c.env) std::cerr << "ufx::profile (UFX_SIM_PROFILE), every launch on ufx::sim:\n" << *c.env;
  }
};
const std::ios_base::Init iostreams; // std::cerr outlives env_profile
const env_profile at_start;
} // namespace

void begin_sim_profile() {
  collections& c = all();
  const std::lock_guard lock(c.m);
  if (c.call)
    throw device_error("ufx::profile: a profile is already being collected (one ufx::profile at a time in a "
                       "program, and they do not nest)");
  c.call = std::make_unique<profile_report>();
  ++sim_profile_collecting;
}

profile_report end_sim_profile() {
  collections& c = all();
  const std::lock_guard lock(c.m);
  profile_report r = c.call ? std::move(*c.call) : profile_report{};
  if (c.call) --sim_profile_collecting;
  c.call.reset();
  return r;
}

void sim_profile_add(const kernel_profile& k) {
  collections& c = all();
  const std::lock_guard lock(c.m);
  if (c.call) c.call->kernels.push_back(k);
  if (c.env) c.env->kernels.push_back(k);
}

} // namespace detail

namespace {
std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}
std::string seconds_text(double s) {
  return s >= 1      ? fmt("%.3g s", s)
         : s >= 1e-3 ? fmt("%.3g ms", s * 1e3)
         : s >= 1e-6 ? fmt("%.3g us", s * 1e6)
                     : fmt("%.3g ns", s * 1e9);
}
/// "1234567" as "1,234,567".
std::string count_text(long long n) {
  std::string d = std::to_string(n < 0 ? -n : n), r;
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (i && (d.size() - i) % 3 == 0) r += ',';
    r += d[i];
  }
  return n < 0 ? "-" + r : r;
}
std::string pad(const std::string& s, std::size_t w, bool left = false) {
  if (s.size() >= w) return s;
  return left ? s + std::string(w - s.size(), ' ') : std::string(w - s.size(), ' ') + s;
}
double ratio(long long a, long long b) { return b ? static_cast<double>(a) / static_cast<double>(b) : 0.0; }

long long global_sectors(const kernel_profile& k) {
  return k.global_loads.sectors + k.global_stores.sectors + k.global_atomics.sectors;
}
long long shared_wavefronts(const kernel_profile& k) {
  return k.shared_loads.wavefronts + k.shared_stores.wavefronts + k.shared_atomics.wavefronts;
}
long long global_asked(const kernel_profile& k) {
  return k.global_loads.bytes_requested + k.global_stores.bytes_requested + k.global_atomics.bytes_requested;
}
} // namespace

gpu_estimate kernel_profile::estimate(const gpu_model& gpu) const {
  gpu_estimate e;
  e.gpu = gpu.name;
  const double sms = gpu.multiprocessors, clock = gpu.clock_hz;
  e.dram_bytes = static_cast<double>(distinct_sectors) * 32.0;
  e.dram_seconds = e.dram_bytes / gpu.memory_bytes_per_second;
  e.l1_seconds = static_cast<double>(global_sectors(*this)) / (sms * gpu.l1_sectors_per_clock * clock);
  e.shared_seconds = static_cast<double>(shared_wavefronts(*this)) / (sms * gpu.shared_wavefronts_per_clock * clock);
  e.seconds = std::max({e.dram_seconds, e.l1_seconds, e.shared_seconds});
  e.bound = e.seconds == 0                ? "nothing (no traced access)"
            : e.seconds == e.dram_seconds ? "device memory"
            : e.seconds == e.l1_seconds   ? "L1"
                                          : "shared memory";
  e.efficiency = ratio(global_asked(*this), global_sectors(*this) * 32);
  return e;
}

gpu_estimate profile_report::estimate(const gpu_model& gpu) const {
  gpu_estimate e;
  e.gpu = gpu.name;
  long long asked = 0, moved = 0;
  double longest = -1;
  for (const kernel_profile& k : kernels) {
    const gpu_estimate x = k.estimate(gpu);
    e.seconds += x.seconds;
    e.dram_seconds += x.dram_seconds;
    e.l1_seconds += x.l1_seconds;
    e.shared_seconds += x.shared_seconds;
    e.dram_bytes += x.dram_bytes;
    asked += global_asked(k);
    moved += global_sectors(k) * 32;
    if (x.seconds > longest) {
      longest = x.seconds;
      e.bound = x.bound;
    }
  }
  e.efficiency = ratio(asked, moved);
  return e;
}

std::ostream& operator<<(std::ostream& os, const gpu_estimate& e) {
  return os << "about " << seconds_text(e.seconds) << " on " << e.gpu << ", bound by " << e.bound << " (device memory "
            << seconds_text(e.dram_seconds) << " for " << count_text(static_cast<long long>(e.dram_bytes))
            << " bytes, L1 " << seconds_text(e.l1_seconds) << ", shared memory " << seconds_text(e.shared_seconds)
            << "); " << fmt("%.0f", e.efficiency * 100) << "% of the bytes its sectors move were asked for\n";
}

std::ostream& operator<<(std::ostream& os, const kernel_profile& k) {
  os << "kernel '" << k.name << "' on " << k.device << ": grid " << detail::format_dim3(k.grid) << ", block "
     << detail::format_dim3(k.block) << ", " << count_text(static_cast<long long>(k.shared_bytes))
     << " bytes of shared memory per block\n";
  if (!k.traced)
    return os << "  (ufx's own kernel, whose accesses are not traced yet: a reduction's later passes, a gufunc's "
                 "per-thread "
                 "body, a scan or a copy)\n";
  const auto global_line = [&](const char* what, const global_counts& g) {
    if (g.requests == 0) return;
    os << "  " << pad(what, 15, true) << pad(count_text(g.requests), 13) << pad(count_text(g.sectors), 14)
       << pad(fmt("%.2f", g.sectors_per_request), 12) << pad(fmt("%.2f", g.ideal_sectors_per_request), 8)
       << pad(fmt("%.0f%%", 100 * ratio(g.bytes_requested, g.sectors * 32)), 12) << "\n";
  };
  const auto shared_line = [&](const char* what, const shared_counts& s) {
    if (s.requests == 0) return;
    os << "  " << pad(what, 15, true) << pad(count_text(s.requests), 13) << pad(count_text(s.wavefronts), 14)
       << pad(fmt("%.2f", s.wavefronts_per_request), 12) << pad(fmt("%.2f", ratio(s.ideal_wavefronts, s.requests)), 8)
       << pad(count_text(s.bank_conflicts), 12) << "\n";
  };
  if (k.global_loads.requests + k.global_stores.requests + k.global_atomics.requests) {
    os << "  " << pad("global", 15, true) << pad("requests", 13) << pad("sectors", 14) << pad("/request", 12)
       << pad("ideal", 8) << pad("efficiency", 12) << "\n";
    global_line("loads", k.global_loads);
    global_line("stores", k.global_stores);
    global_line("atomics", k.global_atomics);
  }
  if (k.shared_loads.requests + k.shared_stores.requests + k.shared_atomics.requests) {
    os << "  " << pad("shared", 15, true) << pad("requests", 13) << pad("wavefronts", 14) << pad("/request", 12)
       << pad("ideal", 8) << pad("conflicts", 12) << "\n";
    shared_line("loads", k.shared_loads);
    shared_line("stores", k.shared_stores);
    shared_line("atomics", k.shared_atomics);
  }
  os << "  " << count_text(k.distinct_sectors * 32) << " distinct bytes of global memory; "
     << count_text(k.warp_operations) << " warp operations (" << count_text(k.partial_warp_operations)
     << " with a partial mask)\n";
  if (!k.rows.empty()) {
    os << "  " << pad("by array", 34, true) << pad("kind", 7, true) << pad("bytes", 6) << pad("sites", 6)
       << pad("requests", 13) << pad("/request", 10) << pad("ideal", 8) << "\n";
    for (const profile_row& r : k.rows)
      os << "  " << pad(r.array, 34, true) << pad(r.kind, 7, true) << pad(std::to_string(r.access_bytes), 6)
         << pad(std::to_string(r.code_sites), 6) << pad(count_text(r.requests), 13)
         << pad(fmt("%.2f", ratio(r.transactions, r.requests)), 10) << pad(fmt("%.2f", ratio(r.ideal, r.requests)), 8)
         << (r.shared ? " wavefronts" : " sectors") << "\n";
  }
  return os;
}

std::ostream& operator<<(std::ostream& os, const profile_report& p) {
  if (p.kernels.empty()) return os << "no launch on ufx::sim\n";
  for (const kernel_profile& k : p.kernels) os << k;
  return os;
}

} // namespace ufx
