// Profiler ranges (ufx/nvtx.hpp, detail/lib/ranges.hpp): names built here, NVTX called here, so that no
// header includes NVTX and a call with ranges off reads one flag.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "ufx/detail/lib/ranges.hpp"
#include "ufx/detail/lib/runtime.hpp"
#include "ufx/errors.hpp"
#include "ufx/nvtx.hpp"
#include "ufx/targets.hpp"

#if UFX_WITH_NVTX
#  include <nvtx3/nvToolsExt.h>
#endif

namespace ufx {
namespace detail {

std::atomic<bool> ranges_on{false};

namespace {

constexpr int opened_range = 1, opened_nvtx = 2;

std::atomic<bool> nvtx_flag{false};
std::atomic<range_observer> observer{nullptr};
std::atomic<long> opened_count{0};
// the subjects of this thread's open calls ("add", or the front door without a label): a chunk names its call
thread_local std::vector<std::string> subjects;

void update_flag() { ranges_on.store(nvtx_flag.load() || observer.load() != nullptr, std::memory_order_relaxed); }

void name_devices() noexcept;

int open(const char* name) noexcept {
  opened_count.fetch_add(1, std::memory_order_relaxed);
  int opened = opened_range;
  if (const range_observer f = observer.load()) f(name);
#if UFX_WITH_NVTX
  if (nvtx_flag.load(std::memory_order_relaxed)) {
    name_devices();
    nvtxRangePushA(name);
    opened |= opened_nvtx;
  }
#endif
  return opened;
}

// "ufx::vectorize" -> "vectorize"; ufx::reducer's calls are reductions: "reduce"
std::string door_name(const char* who) {
  std::string d = who ? who : "ufx";
  if (d.rfind("ufx::", 0) == 0) d.erase(0, 5);
  if (d == "reducer") d = "reduce";
  return d;
}

// Names the CUDA devices, once, when the first NVTX range opens (a no-op without a GPU): not at
// start-up, which would start CUDA in every program that sets UFX_NVTX.
void name_devices() noexcept {
  static std::atomic<bool> named{false};
  if (!named.load(std::memory_order_relaxed) && !named.exchange(true)) {
    try {
      cuda_runtime().name_for_profiler();
    } catch (...) {}
  }
}

// UFX_NVTX=1 at start-up
[[maybe_unused]] const bool from_environment = [] {
  const char* e = std::getenv("UFX_NVTX");
  if (!e || !*e || std::string(e) == "0") return false;
  if (!nvtx_available()) {
    std::fprintf(stderr,
                 "ufx: UFX_NVTX=%s is set, but this ufx was built without NVTX (CMake option UFX_NVTX, "
                 "nvtx3/nvToolsExt.h from the CUDA toolkit): no ranges\n",
                 e);
    return false;
  }
  nvtx_flag.store(true);
  update_flag();
  return true;
}();

} // namespace

int range_push(const char* who, const char* label, const int* axes, int naxes) noexcept {
  try {
    std::string subject = label && *label ? std::string(label) : door_name(who);
    std::string name = door_name(who);
    if (label && *label) name += ' ' + std::string(label);
    if (axes && naxes > 0) { // " axis=1", " axis=(0,2)"
      name += naxes == 1 ? " axis=" : " axis=(";
      for (int k = 0; k < naxes; ++k) { // appended in two steps: GCC 12's -Wrestrict misreads "," + std::string&&
        if (k) name += ',';
        name += std::to_string(axes[k]);
      }
      if (naxes > 1) name += ')';
    }
    subjects.push_back(std::move(subject));
    return open(name.c_str()) | 4; // 4: a call's range (pops its subject)
  } catch (...) {
    return 0; // no memory for a name: no range, the call goes on
  }
}

int chunk_range_push(long k, long n) noexcept {
  try {
    const std::string name = "chunked " + (subjects.empty() ? std::string("call") : subjects.back()) + " " +
                             std::to_string(k) + "/" + std::to_string(n);
    return open(name.c_str());
  } catch (...) {
    return 0;
  }
}

void range_pop(int opened) noexcept {
  if (opened & 4) subjects.pop_back();
  if (const range_observer f = observer.load()) f(nullptr);
#if UFX_WITH_NVTX
  if (opened & opened_nvtx) nvtxRangePop();
#endif
}

void set_range_observer(range_observer f) noexcept {
  observer.store(f);
  update_flag();
}

long ranges_opened() noexcept { return opened_count.load(std::memory_order_relaxed); }

} // namespace detail

bool nvtx_available() noexcept {
#if UFX_WITH_NVTX
  return true;
#else
  return false;
#endif
}

void set_nvtx(bool on) {
  if (on && !nvtx_available())
    throw device_error("ufx::set_nvtx: this ufx was built without NVTX (CMake option UFX_NVTX, with "
                       "nvtx3/nvToolsExt.h from the CUDA toolkit)");
  detail::nvtx_flag.store(on);
  detail::update_flag();
}

bool nvtx_enabled() noexcept { return detail::nvtx_flag.load(); }

nvtx_range::nvtx_range(const char* name) noexcept {
  if (detail::ranges_on.load(std::memory_order_relaxed)) opened_ = detail::open(name ? name : "");
}

nvtx_range::~nvtx_range() {
  if (opened_) detail::range_pop(opened_);
}

} // namespace ufx
