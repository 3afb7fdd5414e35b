// ufx::host's scheduling (detail/cpu/executor.hpp): oneTBB's work stealing when ufx was built with
// it, else OpenMP, compiled here once so that no translation unit calling ufx includes their
// headers. The executor in the header hands each loop over as a function pointer and a context.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <string_view>

#if defined(__x86_64__) || defined(_M_X64)
#  include <emmintrin.h>
#  define UFX_STREAM_STORES 1
#else
#  define UFX_STREAM_STORES 0
#endif
#if defined(_OPENMP)
#  include <omp.h>
#endif
#if UFX_WITH_TBB
#  include <oneapi/tbb/blocked_range.h>
#  include <oneapi/tbb/parallel_for.h>
#  include <oneapi/tbb/partitioner.h>
#  include <oneapi/tbb/task_arena.h>
#endif

#include "ufx/detail/cpu/executor.hpp"
#include "ufx/detail/lib/host_memory.hpp"

namespace ufx::detail {
namespace {

std::atomic<bool>& tbb_switch() {
  static std::atomic<bool> on = [] {
#if UFX_WITH_TBB
    const char* v = std::getenv("UFX_HOST_SCHEDULER");
    return !(v && std::string_view(v) == "openmp");
#else
    return false;
#endif
  }();
  return on;
}

#if UFX_WITH_TBB
tbb::task_arena& host_arena(int threads) {
  static std::mutex m;
  static std::map<int, std::unique_ptr<tbb::task_arena>> arenas;
  const std::lock_guard lock(m);
  auto& a = arenas[threads];
  if (!a) a = std::make_unique<tbb::task_arena>(threads);
  return *a;
}

/// fn over [0, n) in units of cut.align, ranges of at least cut.grain units, handed to an arena of `threads` threads
/// (auto: stolen by idle threads; static: one range each); oneTBB rethrows the first exception on the calling thread.
void tbb_for(int threads, index_t n, parallel_cut cut, range_fn fn, const void* context) {
  const index_t units = (n + cut.align - 1) / cut.align;
  auto loop = [&] {
    auto range = [&](const tbb::blocked_range<index_t>& r) {
      fn(context, r.begin() * cut.align, std::min(n, r.end() * cut.align));
    };
    const tbb::blocked_range<index_t> all(0, units, cut.grain);
    if (cut.static_blocks) tbb::parallel_for(all, range, tbb::static_partitioner{});
    else tbb::parallel_for(all, range, tbb::auto_partitioner{});
  };
  if (threads >= tbb::this_task_arena::max_concurrency()) loop();
  else host_arena(threads).execute(loop);
}
#endif

/// OpenMP: `threads` even shares of [0, n) (static blocks: 64-aligned), the first exception rethrown after the region.
void openmp_for(int threads, index_t n, parallel_cut cut, range_fn fn, const void* context) {
  std::exception_ptr error;
  auto part = [&](index_t t, index_t nt) {
    if (cut.static_blocks) {
      const index_t chunk = ((n + nt - 1) / nt + 63) / 64 * 64;
      const index_t b = std::min(n, t * chunk), e = std::min(n, b + chunk);
      fn(context, b, e);
    } else {
      fn(context, n * t / nt, n * (t + 1) / nt);
    }
  };
#if defined(_OPENMP)
  const int team = cut.static_blocks ? threads : static_cast<int>(std::min<index_t>(threads, n));
#  pragma omp parallel num_threads(team)
  {
    const index_t t = omp_get_thread_num(), nt = omp_get_num_threads();
    try {
      part(t, nt);
    } catch (...) {
#  pragma omp critical(ufx_parallel_error)
      if (!error) error = std::current_exception();
    }
  }
#else
  (void)threads;
  part(index_t{0}, index_t{1});
#endif
  if (error) std::rethrow_exception(error);
}

} // namespace

int host_threads() {
#if defined(_OPENMP)
  return omp_get_max_threads();
#elif UFX_WITH_TBB
  return tbb::this_task_arena::max_concurrency();
#else
  return 1;
#endif
}

bool host_uses_tbb() { return tbb_switch().load(std::memory_order_relaxed); }
void set_host_uses_tbb(bool on) {
#if UFX_WITH_TBB
  tbb_switch() = on;
#else
  (void)on;
#endif
}

void host_parallel_for(int threads, index_t n, parallel_cut cut, range_fn fn, const void* context) {
#if UFX_WITH_TBB
  if (host_uses_tbb()) return tbb_for(threads, n, cut, fn, context);
#endif
  openmp_for(threads, n, cut, fn, context);
}

void stream_copy(void* dst, const void* src, std::size_t bytes) noexcept {
#if UFX_STREAM_STORES
  auto* d = static_cast<char*>(dst);
  auto* s = static_cast<const char*>(src);
  const std::size_t head = (16 - reinterpret_cast<std::uintptr_t>(d) % 16) % 16;
  if (bytes < head + 64) {
    std::memcpy(d, s, bytes);
    return;
  }
  std::memcpy(d, s, head);
  d += head, s += head, bytes -= head;
  const std::size_t body = bytes / 64 * 64;
  for (std::size_t i = 0; i < body; i += 64) { // 16-byte loads from anywhere, 16-byte stores to aligned lines
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + 16));
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + 32));
    const __m128i e = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + 48));
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + i), a);
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + i + 16), b);
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + i + 32), c);
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + i + 48), e);
  }
  _mm_sfence(); // the streamed stores are visible before this thread reports the range done
  std::memcpy(d + body, s + body, bytes - body);
#else
  std::memcpy(dst, src, bytes);
#endif
}

void host_copy(void* dst, const void* src, std::size_t bytes, int threads, bool streaming) {
  constexpr std::size_t piece = std::size_t{1} << 20; // 1 MiB a range: a thread's share of a staging block
  const auto copy =
      streaming ? &stream_copy : +[](void* d, const void* s, std::size_t n) noexcept { std::memcpy(d, s, n); };
  if (threads <= 1 || bytes < 2 * piece) {
    copy(dst, src, bytes);
    return;
  }
  const auto n = static_cast<index_t>((bytes + piece - 1) / piece);
  struct ctx_t {
    char* dst;
    const char* src;
    std::size_t total;
    void (*copy)(void*, const void*, std::size_t) noexcept;
  } ctx{static_cast<char*>(dst), static_cast<const char*>(src), bytes, copy};
  host_parallel_for(
      std::min<int>(threads, static_cast<int>(n)), n, parallel_cut{1, 1, false},
      [](const void* c, index_t b, index_t e) {
        const auto& x = *static_cast<const ctx_t*>(c);
        const std::size_t lo = static_cast<std::size_t>(b) * piece;
        const std::size_t hi = std::min(x.total, static_cast<std::size_t>(e) * piece);
        x.copy(x.dst + lo, x.src + lo, hi - lo);
      },
      &ctx);
}

} // namespace ufx::detail
