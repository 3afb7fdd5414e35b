// Raw kernels on the host: the block runner behind ufx::sim (and ufx::serial / ufx::host).
//
// A block's threads run as fibers (Boost.Context: about 18 ns to create, run and switch a fiber on
// this machine class, against 3.3 us for a ucontext swapcontext pair, which makes a system call),
// in order:
// thread 0 until it reaches sync() or returns, then thread 1, ... When every thread that has not
// returned waits at a barrier, the barrier opens and the next interval starts. Blocks run in
// parallel, one worker per host thread, each with its own stacks and shared memory.
//
// The checks, each reported as ufx::kernel_error naming the kernel, the block and the thread:
// - barrier divergence: some threads returned while others wait at sync(), or threads wait at
//   different sync() calls (told apart by their source lines);
// - shared-memory races: within one barrier interval two threads touch an element of a
//   ufx::shared array and at least one of them writes it. Each access through `shared` logs the
//   element's bytes the first time a thread touches it in the interval; when the thread's turn
//   ends, an element whose bytes changed was written by it. Since a block's threads run one at a
//   time between barriers, that is exact for every write that changes a value (a write of the
//   value already there is not seen: it is also harmless). Updates through ufx's atomic functions
//   (atomic.hpp) are told apart: they call sim_shared_atomic_begin / _end, which mark the thread's
//   entry atomic and keep, as its "old" bytes, the value its last atomic left, so a change after
//   that (or before it, seen at the next atomic) is still a plain write. Atomic updates by two
//   threads do not race; an atomic update and another thread's plain read or write do. A thread's
//   own plain reads of an element it also updates atomically in the interval are not told apart
//   from its atomics (only the first touch of an element is logged);
// - reads of shared memory no thread of the block has written. The first such read of a barrier
//   interval is reported when the interval ends, unless another thread of the block writes the
//   element later in the interval: then a barrier is probably missing between the write and the
//   read (the sim ran the reader first), and the error says so. Any other failure in the interval
//   gives way to the read, which came first and is the likelier cause;
// - an exception from the body (an index out of range, a host pointer, the user's own).
//
// Whichever check fails, and whenever: the block is abandoned. Every thread suspended at a barrier
// is resumed to unwind (sim_sync throws block_abort), and every thread not yet started is started
// to return at once without running the body, so each fiber ends on its own stack before its
// stack is reused (a fiber left suspended would be unwound by Boost.Context's forced_unwind from
// its destructor, which the body's catch clauses must not swallow).
#include <sys/mman.h>
#include <unistd.h>

#include "asan.hpp"
#include "runtime_common.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ufx/detail/raw/blocks.hpp"
#include "ufx/detail/cpu/executor.hpp"
#include "ufx/errors.hpp"

#if defined(__SANITIZE_ADDRESS__)
#  include <sanitizer/common_interface_defs.h>
#  define UFX_ASAN_FIBERS 1
#else
#  define UFX_ASAN_FIBERS 0
#endif

#if UFX_WITH_BOOST_CONTEXT
#  include <boost/context/fiber.hpp>

namespace ufx::detail {
namespace {

namespace bctx = boost::context;

// strings are built with append: GCC 12's -Wrestrict misfires on "(" + std::string
std::string dim3_text(const dim3& d) {
  std::string s("(");
  s.append(std::to_string(d.x)).append(", ").append(std::to_string(d.y)).append(", ").append(std::to_string(d.z));
  return s.append(")");
}

dim3 unflatten(index_t i, const dim3& extent) {
  const index_t x = extent.x, y = extent.y;
  return dim3(static_cast<unsigned>(i % x), static_cast<unsigned>((i / x) % y), static_cast<unsigned>(i / (x * y)));
}

/// Raised inside a fiber to unwind it when its block is abandoned (never reaches the user).
struct block_abort {};

/// Fiber stacks of one worker: one mapping, a guard page below each stack.
class stack_pool {
public:
  ~stack_pool() { release(); }
  /// Room for n stacks of `bytes` each.
  void reserve(unsigned n, std::size_t bytes) {
    if (n <= count_ && bytes == bytes_) return;
    release();
    page_ = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    bytes_ = (bytes + page_ - 1) / page_ * page_;
    count_ = std::max(n, count_);
    size_ = count_ * (bytes_ + page_);
    void* p = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
      size_ = count_ = 0;
      throw device_error("ufx::kernel: cannot map " + std::to_string(n) + " fiber stacks for the sim's block threads");
    }
    base_ = static_cast<unsigned char*>(p);
    UFX_ASAN_UNPOISON(p, size_);
    for (unsigned i = 0; i < count_; ++i) mprotect(base_ + i * (bytes_ + page_), page_, PROT_NONE);
  }
  /// The usable bottom of stack i (its guard page lies below).
  unsigned char* bottom(unsigned i) const { return base_ + i * (bytes_ + page_) + page_; }
  std::size_t bytes() const { return bytes_; }

private:
  void release() {
    if (base_) {
      UFX_ASAN_UNPOISON(base_, size_); // frames left on the stacks (asan.hpp)
      munmap(base_, size_);
    }
    base_ = nullptr;
  }
  unsigned char* base_ = nullptr;
  std::size_t size_ = 0, bytes_ = 0, page_ = 4096;
  unsigned count_ = 0;
};

/// Boost.Context's StackAllocator over one stack of the pool.
struct pooled_stack {
  unsigned char* bottom;
  std::size_t bytes;
  bctx::stack_context allocate() {
    bctx::stack_context sc;
    sc.size = bytes;
    sc.sp = bottom + bytes;
    return sc;
  }
  void deallocate(bctx::stack_context&) noexcept {}
};

/// Threads of a block (by index, x fastest) that accessed an element in the current barrier
/// interval: lanes of one warp, or threads of several warps (then any thread outside one of those
/// warps is unordered with some of them). The lanes' warp epochs at their latest access are in the
/// worker's epoch pool once one is not 0 (a warp that has passed a syncwarp in the interval).
struct lane_set {
  std::int32_t warp = -1; // -1: none; -2: threads of more than one warp
  std::uint32_t lanes = 0;
  std::int32_t first = -1, other = -1; // the first thread; the first of a warp other than first's
  std::uint32_t epochs = 0;            // 1 + the index of the lanes' 32 epochs in the pool, or 0: all 0
  void clear() {
    warp = -1;
    lanes = 0;
    first = other = -1;
    epochs = 0;
  }
};

/// The accesses of one shared element in the current barrier interval.
struct shadow {
  std::uint32_t epoch = 0;        // the interval (worker epoch) the rest belongs to
  std::int32_t writer = -1;       // the last thread that wrote the element plainly
  std::uint32_t writer_epoch = 0; // its warp epoch then
  lane_set readers, atomics;      // plain reads and atomic updates since that write
};

struct log_entry {
  std::uint32_t offset, bytes;
  std::uint64_t old;         // the element's bytes before the thread's turn (elements up to 8 bytes), or
                             // where they are in the worker's `old` buffer (larger elements); after an
                             // atomic update by the thread, the bytes that update left
  bool atomic = false;       // the thread updated the element through ufx's atomic functions
  bool plain_write = false;  // and changed it otherwise before one of those updates
  bool init_checked = false; // an unchanged value was read (shared<A>::init_checked)
  bool atomic_reads = false; // an atomic update read the old value (all but atomic_exch)
};

/// A thread's first access in its turn of an element of a tracked array (global memory).
struct global_entry {
  std::uintptr_t addr;
  std::uint32_t bytes;
  std::uint64_t old;         // as log_entry::old (the worker's global_old for larger elements)
  bool read_only = false;    // through an ndview<const T>
  bool init_checked = false; // an unchanged value was read
  bool atomic = false, plain_write = false, atomic_reads = false;
  bool held_fill = false; // at the first touch it held the fill of memory nothing has written
};

/// An access of a global element: the block (linear index), thread, barrier interval and warp epoch.
struct global_ref {
  std::int32_t block = -1, thread = -1;
  std::uint32_t interval = 0, warp_epoch = 0;
};
/// The plain reads or atomic updates of a global element since its last plain write: by threads of
/// one block (those of its latest interval as a lane_set), or of several.
struct global_set {
  std::int32_t block = -1; // -1: none; -2: threads of more than one block
  std::uint32_t interval = 0;
  lane_set lanes;
  global_ref first, other; // the first access; the first of another block than first's
  void clear() {
    block = -1;
    lanes.clear();
  }
};
/// The accesses of one global element in the current launch (or since the last grid_sync).
struct global_record {
  std::uint32_t grid_epoch = 0;
  global_ref writer;
  global_set readers, atomics;
};

/// A launch's global-memory checks: the records of every element its threads wrote or updated, or
/// read through a view that another argument may write (the blocks of a checked launch run in turn
/// on one host thread).
struct global_checks {
  std::unordered_map<std::uintptr_t, global_record> records;
  // per location updated atomically: the latest release of each block that fenced before updating
  // it (threadfence(), then the atomic): its accesses before the fence are ordered before the
  // accesses of a block that updates the location atomically afterwards
  std::unordered_map<std::uintptr_t, std::vector<global_ref>> releases;
  std::uint32_t grid_epoch = 0; // grid_syncs passed (a cooperative launch)
  bool reads_race_free = true;  // no read-only argument overlaps an argument that may be written
};

enum class slot_state : unsigned char { ready, barrier, warp, done };

struct thread_slot {
  bctx::fiber fiber; // the thread's fiber while it is suspended
  bctx::fiber main;  // the scheduler, while the thread runs
  slot_state state = slot_state::ready;
  int line = 0;                              // the barrier it waits at
  barrier_kind barrier = barrier_kind::sync; // and its kind
  bool pred = false;                         // its predicate (sync_count and the like)
  int barrier_result = 0;                    // what the barrier returns to it
  warp_call* call = nullptr;                 // the warp operation it waits at
  bool fenced = false;                       // it has called threadfence() in this launch
  std::uint32_t fence_interval = 0;          // the barrier interval of its latest fence
  std::exception_ptr error;
#  if UFX_ASAN_FIBERS
  void* fake_stack = nullptr;
#  endif
};

/// What one worker keeps between blocks (and between launches on the same host thread).
struct worker {
  stack_pool stacks;
  std::vector<unsigned char> shared_storage;
  std::vector<std::uint32_t> stamp;
  std::vector<std::uint32_t> entry_of; // per byte offset: its entry in `log` while its stamp is current
  std::vector<shadow> shadows;
  std::vector<unsigned char> init; // per byte offset: a thread of this block has written it
  std::vector<log_entry> log;
  std::vector<unsigned char> old;
  // warp clocks of the current barrier interval: know[(warp * 32 + a) * 32 + b] is the epoch of lane
  // b (the number of syncwarps it has passed) that lane a has synchronised with; know[.. a .. a] is
  // lane a's own. All zero in a warp that has not synchronised (dirty 0).
  std::vector<std::uint32_t> know;
  std::vector<unsigned char> dirty;
  std::vector<std::uint32_t> epoch_pool; // lane_set::epochs, 32 a set, emptied with each interval
  // the current turn's accesses of tracked arrays (global memory): an open-addressing table from
  // address to entry, whose slots are current while their segment is the turn's
  struct global_slot {
    std::uintptr_t key = 0;
    std::uint32_t segment = 0, entry = 0;
  };
  std::vector<global_slot> global_table = std::vector<global_slot>(1024);
  std::vector<global_entry> global_log;
  std::vector<unsigned char> global_old;
  std::uint32_t segment = 0, epoch = 0;

  /// The entry of `addr` in this turn's global log, or none (~0u).
  std::uint32_t& global_slot_of(std::uintptr_t addr) {
    const std::size_t mask = global_table.size() - 1;
    for (std::size_t h = ((addr >> 2) * 0x9e3779b97f4a7c15ull) >> 20 & mask;; h = (h + 1) & mask) {
      global_slot& g = global_table[h];
      if (g.segment != segment) {
        g.key = addr;
        g.segment = segment;
        g.entry = ~0u;
        return g.entry;
      }
      if (g.key == addr) return g.entry;
    }
  }
  /// Keeps the table at most half full: twice the size, this turn's entries put back.
  void grow_global_table() {
    global_table.assign(global_table.size() * 2, global_slot{});
    for (std::uint32_t i = 0; i < global_log.size(); ++i) global_slot_of(global_log[i].addr) = i;
  }

  void prepare(std::size_t bytes, unsigned threads) {
    if (shared_storage.size() < bytes + 16) shared_storage.resize(bytes + 16);
    if (stamp.size() < bytes + 1) {
      stamp.assign(bytes + 1, 0);
      entry_of.assign(bytes + 1, 0);
      shadows.assign(bytes + 1, shadow{});
      init.assign(bytes + 1, 0);
      segment = epoch = 0;
    }
    const std::size_t warps = (threads + 31) / 32;
    if (dirty.size() < warps) {
      know.assign(warps * 1024, 0);
      dirty.assign(warps, 0);
    }
  }
  unsigned char* shared_base() {
    auto p = reinterpret_cast<std::uintptr_t>(shared_storage.data());
    return shared_storage.data() + ((16 - p % 16) % 16);
  }
  std::uint32_t next_segment() {
    if (++segment == 0) { // wrapped: no stamp may look current
      std::fill(stamp.begin(), stamp.end(), 0);
      segment = 1;
    }
    return segment;
  }
  /// A new barrier interval: every earlier access is ordered before the ones to come.
  std::uint32_t next_epoch() {
    if (++epoch == 0) {
      std::fill(shadows.begin(), shadows.end(), shadow{});
      epoch = 1;
    }
    for (std::size_t w = 0; w < dirty.size(); ++w)
      if (dirty[w]) {
        std::fill_n(know.begin() + static_cast<std::ptrdiff_t>(w * 1024), 1024, 0u);
        dirty[w] = 0;
      }
    epoch_pool.clear();
    return epoch;
  }
};

worker& this_worker() {
  thread_local worker w;
  return w;
}

// ---- seeded thread order (UFX_SIM_SEED, ufx::set_sim_seed)

std::atomic<std::uint64_t>& seed_value() {
  static std::atomic<std::uint64_t> seed{[] {
    const char* env = std::getenv("UFX_SIM_SEED");
    return env && *env ? std::strtoull(env, nullptr, 0) : std::uint64_t{0};
  }()};
  return seed;
}
std::atomic<std::uint64_t> launch_count{0};

/// splitmix64: a small, good generator for orders.
struct order_rng {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// A random permutation of 0 .. n-1 (Fisher-Yates).
  void permute(std::vector<unsigned>& order, unsigned n) {
    order.resize(n);
    for (unsigned i = 0; i < n; ++i) order[i] = i;
    for (unsigned i = n; i > 1; --i) std::swap(order[i - 1], order[static_cast<unsigned>(next() % i)]);
  }
};

const char* warp_kind_name(warp_kind k) {
  switch (k) {
  case warp_kind::syncwarp: return "syncwarp";
  case warp_kind::shfl_idx: return "shfl_sync";
  case warp_kind::shfl_up: return "shfl_up_sync";
  case warp_kind::shfl_down: return "shfl_down_sync";
  case warp_kind::shfl_xor: return "shfl_xor_sync";
  case warp_kind::all: return "all_sync";
  case warp_kind::any: return "any_sync";
  case warp_kind::eq: return "eq_sync";
  case warp_kind::ballot: return "ballot_sync";
  case warp_kind::match_any: return "match_any_sync";
  case warp_kind::match_all: return "match_all_sync";
  case warp_kind::activemask: return "activemask";
  }
  return "a warp operation";
}

const char* barrier_kind_name(barrier_kind k) {
  switch (k) {
  case barrier_kind::sync: return "t.sync()";
  case barrier_kind::count: return "t.sync_count()";
  case barrier_kind::all: return "t.sync_and()";
  case barrier_kind::any: return "t.sync_or()";
  case barrier_kind::grid: return "t.grid_sync()";
  }
  return "a barrier";
}

std::string hex_mask(unsigned m) {
  static const char digits[] = "0123456789abcdef";
  std::string s("0x");
  for (int k = 28; k >= 0; k -= 4) s.push_back(digits[(m >> k) & 15u]);
  return s;
}

} // namespace

/// One block being run on a worker.
struct sim_block {
  sim_block_state state; // read inline by ufx::shared
  const block_launch* launch = nullptr;
  worker* w = nullptr;
  dim3 block_idx;
  std::vector<thread_slot> slots;
  unsigned current = 0;
  unsigned at_warp = 0;                            // lanes waiting at a warp operation
  unsigned stack_base = 0;                         // the first of the worker's stacks this block's threads run on
  unsigned char* init = nullptr;                   // per shared byte: a thread of this block has written it
  std::vector<unsigned char> own_shared, own_init; // a cooperative launch's blocks: their own
  global_checks* global = nullptr;                 // the launch's global-memory checks, or none
  std::int32_t block_linear = 0;
  std::unordered_map<std::int32_t, global_ref> acquired; // other blocks' releases this block acquired
  std::uint64_t seed = 0;                                // the order's seed (0: threads in index order)
  order_rng rng{0};                                      // this block's seeded order
  std::vector<unsigned> order;                           // the current pass's order of threads
  bool aborting = false;
  /// The interval's first read of a shared element no thread of the block had written (check_log).
  struct uninit_read {
    std::uint32_t offset = 0;
    unsigned thread = 0;
    bool atomic = false, pending = false;
  } uninit;
#  if UFX_ASAN_FIBERS
  const void* main_bottom = nullptr;
  std::size_t main_size = 0;
#  endif

  unsigned thread_count() const { return static_cast<unsigned>(slots.size()); }
  /// The lanes warp `wi` has (all 32 but in a block's last, partial warp).
  unsigned lanes_of(unsigned wi) const {
    const unsigned n = thread_count() - wi * 32;
    return n >= 32 ? 0xffffffffu : (1u << n) - 1u;
  }

  std::string thread_text(unsigned i) const { return dim3_text(unflatten(i, launch->config.block)); }

  /// " (thread order: UFX_SIM_SEED=5)" when the order is seeded, else "".
  std::string seed_text() const {
    return seed ? " (thread order: UFX_SIM_SEED=" + std::to_string(seed) + ")" : std::string();
  }

  /// "kernel 'k' on ufx::sim device 0, block (0, 0, 0), thread (1, 0, 0): " + what
  [[noreturn]] void fail(unsigned thread, const std::string& what) const {
    throw kernel_error(std::string(launch->label) + " on " + launch->where + ", block " + dim3_text(block_idx) +
                       ", thread " + thread_text(thread) + ": " + what + seed_text());
  }
  /// The same with the thread's warp and lane: "..., thread (33, 0, 0) (warp 1, lane 1): " + what
  [[noreturn]] void fail_lane(unsigned thread, const std::string& what) const {
    throw kernel_error(std::string(launch->label) + " on " + launch->where + ", block " + dim3_text(block_idx) +
                       ", thread " + thread_text(thread) + " (warp " + std::to_string(thread / 32) + ", lane " +
                       std::to_string(thread % 32) + "): " + what + seed_text());
  }

  /// Names the shared element at byte `offset`: "shared array 1 (parameter 2) element (3, 4)".
  std::string element_text(std::size_t offset) const {
    for (int r = 0; r < launch->region_count; ++r) {
      const shared_region& g = launch->regions[r];
      index_t count = 1;
      for (int k = 0; k < g.rank; ++k) count *= g.extents[k];
      if (offset < g.offset || offset >= g.offset + static_cast<std::size_t>(count) * g.elem_size) continue;
      auto flat = static_cast<index_t>((offset - g.offset) / g.elem_size);
      index_t idx[3] = {0, 0, 0};
      for (int k = g.rank - 1; k >= 0; --k) {
        idx[k] = flat % g.extents[k];
        flat /= g.extents[k];
      }
      std::string s("element (");
      for (int k = 0; k < g.rank; ++k) s.append(k ? ", " : "").append(std::to_string(idx[k]));
      return s + ") of shared array " + std::to_string(r) + " (parameter " + std::to_string(g.parameter) + ")";
    }
    return "shared memory byte " + std::to_string(offset);
  }

  // ---- happens-before within a barrier interval: a thread's own accesses are ordered, and lanes
  // of one warp are ordered by the syncwarps they pass together (warp clocks, worker::know)

  const std::uint32_t* know_row(unsigned t) const { return &w->know[(t / 32) * 1024 + (t % 32) * 32]; }
  std::uint32_t epoch_of(unsigned t) const { return w->dirty[t / 32] ? know_row(t)[t % 32] : 0; }
  /// Whether an access by thread `prev` at its warp epoch `prev_epoch` is ordered before thread `me`'s now.
  bool ordered(std::int32_t prev, std::uint32_t prev_epoch, unsigned me) const {
    if (prev == static_cast<std::int32_t>(me)) return true;
    if (static_cast<unsigned>(prev) / 32 != me / 32 || !w->dirty[me / 32]) return false;
    return know_row(me)[prev % 32] > prev_epoch;
  }
  /// A thread of `s` whose access is not ordered before `me`'s now, or -1.
  std::int32_t unordered(const lane_set& s, unsigned me) const {
    if (s.warp == -1) return -1;
    const auto mw = static_cast<std::int32_t>(me / 32);
    if (s.warp == -2) return s.first / 32 != mw ? s.first : s.other;
    if (s.warp != mw) return s.first;
    const bool synced = w->dirty[me / 32] != 0;
    const std::uint32_t* epoch = s.epochs ? &w->epoch_pool[s.epochs - 1] : nullptr;
    for (std::uint32_t bits = s.lanes; bits; bits &= bits - 1) {
      const auto l = static_cast<unsigned>(__builtin_ctz(bits));
      const auto t = static_cast<std::int32_t>(me / 32 * 32 + l);
      if (t != static_cast<std::int32_t>(me) && !(synced && know_row(me)[l] > (epoch ? epoch[l] : 0u))) return t;
    }
    return -1;
  }
  void add(lane_set& s, unsigned t, std::uint32_t epoch) const {
    const auto tw = static_cast<std::int32_t>(t / 32);
    if (s.warp == -1) {
      s.warp = tw;
      s.lanes = 0;
      s.first = static_cast<std::int32_t>(t);
    } else if (s.warp >= 0 && s.warp != tw) {
      s.warp = -2;
      s.other = static_cast<std::int32_t>(t);
    }
    if (s.warp < 0) return;
    s.lanes |= 1u << (t % 32);
    if (epoch == 0 && s.epochs == 0) return; // every epoch of the set still 0
    if (s.epochs == 0) {
      s.epochs = static_cast<std::uint32_t>(w->epoch_pool.size()) + 1;
      w->epoch_pool.resize(w->epoch_pool.size() + 32, 0u);
    }
    w->epoch_pool[s.epochs - 1 + t % 32] = epoch;
  }

  /// After thread `me`'s turn: its writes and reads against the other threads' in this interval,
  /// and its reads of elements no thread of the block has written.
  void check_log(unsigned me) {
    worker& wk = *w;
    if (wk.log.empty()) return; // no shared access this turn (old is empty too)
    const std::uint32_t em = epoch_of(me);
    for (const log_entry& e : wk.log) {
      bool wrote;
      const unsigned char* p = state.shared + e.offset;
      if (e.bytes == 4) {
        std::uint32_t now;
        std::memcpy(&now, p, 4);
        wrote = now != e.old;
      } else if (e.bytes == 8) {
        std::uint64_t now;
        std::memcpy(&now, p, 8);
        wrote = now != e.old;
      } else if (e.bytes < 8) {
        std::uint64_t now = 0;
        std::memcpy(&now, p, e.bytes);
        wrote = now != e.old;
      } else {
        wrote = std::memcmp(wk.old.data() + e.old, state.shared + e.offset, e.bytes) != 0;
      }
      wrote = wrote || e.plain_write;
      if (!init[e.offset]) {
        if (!wrote && e.init_checked && (!e.atomic || e.atomic_reads) && !uninit.pending) [[unlikely]]
          uninit = {e.offset, me, e.atomic, true}; // reported at the interval's end, or just below
        if ((wrote || e.atomic) && uninit.pending && uninit.thread != me && uninit.offset >= e.offset &&
            uninit.offset < e.offset + e.bytes) [[unlikely]] {
          uninit.pending = false;
          fail(uninit.thread, uninitialised_read_text() + ", which thread " + thread_text(me) +
                                  (wrote ? " writes" : " updates") +
                                  " later in the same barrier interval: a barrier (t.sync()) is probably missing "
                                  "between the write and the read (between barriers a block's threads run in no set "
                                  "order, and shared memory starts undefined, as on a GPU)");
        }
        if (wrote || e.atomic) std::fill_n(init + e.offset, e.bytes, static_cast<unsigned char>(1));
      }
      shadow& s = wk.shadows[e.offset];
      if (s.epoch != wk.epoch) {
        s.epoch = wk.epoch;
        s.writer = -1;
        s.readers.clear();
        s.atomics.clear();
      }
      // a plain write conflicts with another thread's access of any kind, an atomic update with
      // plain ones, a plain read with writes and atomic updates; unless ordered by a syncwarp
      std::int32_t with = -1;
      const char* did = "";
      if (s.writer >= 0 && !ordered(s.writer, s.writer_epoch, me)) with = s.writer, did = " wrote";
      else if ((wrote || e.atomic) && (with = unordered(s.readers, me)) >= 0) did = " read";
      else if ((wrote || !e.atomic) && (with = unordered(s.atomics, me)) >= 0) did = " updated atomically";
      if (with >= 0) [[unlikely]]
        fail(me, std::string("shared-memory race: this thread ") +
                     (wrote      ? "writes "
                      : e.atomic ? "updates "
                                 : "reads ") +
                     element_text(e.offset) + (!wrote && e.atomic ? " atomically" : "") + ", which thread " +
                     thread_text(static_cast<unsigned>(with)) + did +
                     " since the last sync() (put a t.sync() between the two accesses, or a t.syncwarp() naming "
                     "both lanes when they are of one warp)");
      if (wrote) {
        s.writer = static_cast<std::int32_t>(me);
        s.writer_epoch = em;
        s.readers.clear();
        s.atomics.clear();
      } else if (e.atomic) {
        add(s.atomics, me, em);
      } else {
        add(s.readers, me, em);
      }
    }
    wk.log.clear();
    wk.old.clear();
  }
  /// "uninitialised shared-memory read: this thread reads element (3) of shared array 0 (parameter 1)"
  std::string uninitialised_read_text() const {
    return std::string("uninitialised shared-memory read: this thread ") + (uninit.atomic ? "updates " : "reads ") +
           element_text(uninit.offset);
  }
  /// The interval's pending read of unwritten shared memory, as its error.
  [[noreturn]] void fail_uninitialised_read() {
    uninit.pending = false;
    fail(uninit.thread,
         uninitialised_read_text() +
             ", which no thread of this block has written (shared memory starts undefined, as on a GPU)");
  }

  // ---- global memory (tracked arrays: ufx::sim)

  /// Names the global element at `addr`: "element (3, 4) of argument 1 (parameter 2)".
  std::string global_element_text(std::uintptr_t addr) const {
    for (int r = 0; r < launch->global_count; ++r) {
      const global_region& g = launch->globals[r];
      const auto base = reinterpret_cast<std::uintptr_t>(g.data);
      if (addr < base || (addr - base) % g.elem_size != 0) continue;
      // the index whose offset is this one, dimension by dimension from the largest stride
      auto off = static_cast<index_t>((addr - base) / g.elem_size);
      index_t idx[max_rank] = {};
      int order[max_rank];
      for (int k = 0; k < g.rank; ++k) order[k] = k;
      std::sort(order, order + g.rank, [&](int a, int b) { return g.strides[a] > g.strides[b]; });
      bool ok = true;
      for (int o = 0; o < g.rank; ++o) {
        const int k = order[o];
        if (g.strides[k] <= 0) {
          ok = false;
          break;
        }
        idx[k] = off / g.strides[k];
        off -= idx[k] * g.strides[k];
        ok = ok && idx[k] < g.extents[k];
      }
      if (!ok || off != 0) continue;
      std::string s("element (");
      for (int k = 0; k < g.rank; ++k) s.append(k ? ", " : "").append(std::to_string(idx[k]));
      return s + ") of argument " + std::to_string(g.argument) + " (parameter " + std::to_string(g.parameter) + ")";
    }
    return "device memory at " + std::to_string(addr);
  }

  /// Whether another block's access `a` is ordered before this block's accesses by a release it
  /// made (threadfence, then an atomic) that this block acquired (an atomic on the same location
  /// afterwards). `a.thread` -1: any thread of its interval (a set of readers).
  bool released_to_us(const global_ref& a) const {
    const auto it = acquired.find(a.block);
    if (it == acquired.end()) return false;
    const global_ref& r = it->second;
    return a.interval < r.interval || (a.interval == r.interval && a.thread == r.thread);
  }

  std::string block_text(std::int32_t linear) const {
    return dim3_text(unflatten(static_cast<index_t>(linear), launch->config.grid));
  }

  /// Whether the `bytes` at p hold the fill of memory nothing has written (as laid from 4-byte boundaries).
  static bool holds_fill(const void* p, std::size_t bytes) {
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    for (std::size_t j = 0; j < bytes; ++j)
      if (static_cast<const unsigned char*>(p)[j] != undefined_fill_byte(a + j)) return false;
    return true;
  }
  [[noreturn]] void uninitialised_read(unsigned me, std::uintptr_t addr, bool atomic) const {
    fail(me, std::string("uninitialised device-memory read: this thread ") + (atomic ? "updates " : "reads ") +
                 global_element_text(addr) +
                 ", which nothing has written since it was allocated (a new device_array, empty_like or "
                 "device_array_like holds undefined values, as cudaMalloc's memory does)");
  }

  /// After thread `me`'s turn: its accesses of tracked arrays against the launch's other accesses,
  /// and its reads of device memory nothing has written.
  void check_global(unsigned me) {
    worker& wk = *w;
    if (wk.global_log.empty()) return;
    const std::uint32_t em = epoch_of(me), interval = wk.epoch;
    const global_ref mine{block_linear, static_cast<std::int32_t>(me), interval, em};
    for (const global_entry& e : wk.global_log) {
      const auto* p = reinterpret_cast<const unsigned char*>(e.addr);
      bool wrote;
      if (e.bytes <= 8) {
        std::uint64_t now = 0;
        std::memcpy(&now, p, e.bytes);
        wrote = now != e.old;
      } else {
        wrote = std::memcmp(wk.global_old.data() + e.old, p, e.bytes) != 0;
      }
      wrote = wrote || e.plain_write;
      // device memory that held the fill and was never written since its allocation
      if (e.held_fill && sim_memory_undefined(p, e.bytes)) {
        if (!wrote && e.init_checked && (!e.atomic || e.atomic_reads)) [[unlikely]]
          uninitialised_read(me, e.addr, e.atomic);
        if (wrote || e.atomic) sim_memory_defined(p, e.bytes);
      }
      global_record& r = global->records[e.addr];
      if (r.grid_epoch != global->grid_epoch) r = global_record{global->grid_epoch, {}, {}, {}};
      const auto ordered_ref = [&](const global_ref& a) {
        if (a.block != block_linear) return released_to_us(a);
        return a.interval < interval || (a.interval == interval && ordered(a.thread, a.warp_epoch, me));
      };
      global_ref inner; // an unordered thread of this block's interval
      const auto set_conflict = [&](const global_set& g) -> const global_ref* {
        if (g.block == -1) return nullptr;
        if (g.block == -2) { // several blocks: ordered when the two it names were released to this one
          const bool first_ok = g.first.block == block_linear || released_to_us(g.first);
          const bool other_ok = g.other.block == block_linear || released_to_us(g.other);
          if (first_ok && other_ok) return nullptr;
          return !first_ok ? &g.first : &g.other;
        }
        if (g.block != block_linear) return released_to_us(global_ref{g.block, -1, g.interval, 0}) ? nullptr : &g.first;
        if (g.interval < interval) return nullptr;
        const std::int32_t t = unordered(g.lanes, me);
        if (t < 0) return nullptr;
        inner = global_ref{block_linear, t, interval, 0};
        return &inner;
      };
      const global_ref* with = nullptr;
      const char* did = "";
      if (r.writer.block >= 0 && !ordered_ref(r.writer)) with = &r.writer, did = " wrote";
      else if ((wrote || e.atomic) && (with = set_conflict(r.readers))) did = " read";
      else if ((wrote || !e.atomic) && (with = set_conflict(r.atomics))) did = " updated atomically";
      if (with) [[unlikely]] {
        const bool same_block = with->block == block_linear;
        fail(me, std::string("global-memory race: this thread ") +
                     (wrote      ? "writes "
                      : e.atomic ? "updates "
                                 : "reads ") +
                     global_element_text(e.addr) + (!wrote && e.atomic ? " atomically" : "") + ", which thread " +
                     thread_text(static_cast<unsigned>(with->thread)) +
                     (same_block ? std::string() : " of block " + block_text(with->block)) + did +
                     (same_block ? " since the last sync() (put a t.sync() between the two accesses, or a "
                                   "t.syncwarp() naming both lanes when they are of one warp)"
                                 : std::string(launch->config.cooperative
                                                   ? " since the last t.grid_sync() (threads of different blocks are "
                                                     "ordered by a grid_sync between the accesses)"
                                                   : " in this launch (threads of different blocks are not ordered "
                                                     "within a launch: split the kernel into two launches, or launch "
                                                     "it cooperatively and put a t.grid_sync() between)")));
      }
      const auto add_to = [&](global_set& g) {
        if (g.block == -1) {
          g.block = block_linear;
          g.interval = interval;
          g.lanes.clear();
          g.first = mine;
        } else if (g.block >= 0 && g.block != block_linear) {
          g.block = -2;
          g.other = mine;
        } else if (g.block == block_linear && g.interval < interval) {
          g.interval = interval;
          g.lanes.clear();
        }
        if (g.block >= 0) add(g.lanes, me, em);
      };
      if (wrote) {
        r.writer = mine;
        r.readers.clear();
        r.atomics.clear();
      } else if (e.atomic) {
        add_to(r.atomics);
      } else {
        add_to(r.readers);
      }
    }
    wk.global_log.clear();
    wk.global_old.clear();
  }

  /// Runs thread i until it waits at a barrier or a warp operation, or returns.
  void turn(unsigned i) {
    thread_slot& s = slots[i];
    s.state = slot_state::ready;
    current = i;
    state.segment = w->next_segment();
#  if UFX_ASAN_FIBERS
    void* fake = nullptr;
    __sanitizer_start_switch_fiber(&fake, w->stacks.bottom(stack_base + i), w->stacks.bytes());
#  endif
    s.fiber = std::move(s.fiber).resume();
#  if UFX_ASAN_FIBERS
    __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#  endif
  }

  /// Ends every thread that has not finished, whatever it is doing: one waiting at a barrier or a
  /// warp operation is resumed and unwinds (sim_sync throws block_abort), one not yet started
  /// starts and returns without running the body. Afterwards every fiber has returned and the
  /// worker's log is empty.
  void abandon() {
    aborting = true;
    for (unsigned i = 0; i < slots.size(); ++i)
      if (slots[i].fiber && slots[i].state != slot_state::done) turn(i);
    w->log.clear();
    w->old.clear();
    w->global_log.clear();
    w->global_old.clear();
  }

  /// Runs the block to its end (a launch that is not cooperative).
  void run() {
    start();
    advance();
  }

  /// Makes the block's threads, each a fiber not yet started.
  void start() {
    const unsigned n = static_cast<unsigned>(launch->config.block.count());
    slots.clear();
    slots.resize(n);
    at_warp = 0;
    thread_pos p;
    p.block_idx = block_idx;
    p.block_dim = launch->config.block;
    p.grid_dim = launch->config.grid;
    unsigned char* dynamic = state.shared + launch->static_bytes;
    for (unsigned i = 0; i < n; ++i) {
      p.thread_idx = unflatten(i, launch->config.block);
      const thread t = thread_access::make(p, this, &state, state.shared, dynamic, launch->config.shared_bytes);
      slots[i].fiber =
          bctx::fiber(std::allocator_arg, pooled_stack{w->stacks.bottom(stack_base + i), w->stacks.bytes()},
                      [this, i, t](bctx::fiber&& main) {
#  if UFX_ASAN_FIBERS
                        __sanitizer_finish_switch_fiber(nullptr, &main_bottom, &main_size);
#  endif
                        thread_slot& s = slots[i];
                        s.main = std::move(main);
                        try {
                          // a thread first started by abandon() returns at once
                          if (!aborting) launch->run_thread(launch->body, t);
                        } catch (const block_abort&) {
                        } catch (const bctx::detail::forced_unwind&) {
                          throw; // Boost.Context unwinding the fiber: let it through
                        } catch (...) {
                          s.error = std::current_exception();
                        }
                        s.state = slot_state::done;
#  if UFX_ASAN_FIBERS
                        __sanitizer_start_switch_fiber(nullptr, main_bottom, main_size);
#  endif
                        return std::move(s.main);
                      });
    }
  }

  /// Runs the block until every thread has returned (false) or waits at a grid_sync (true). A
  /// failure abandons the block and throws its kernel_error.
  bool advance() {
    const auto n = thread_count();
    try {
      for (;;) {
        // every ready thread runs until it waits or returns; then the warps' meetings that are
        // complete take place, and their lanes run on; when none is left, the barrier opens
        try {
          for (;;) {
            if (seed) rng.permute(order, n);
            for (unsigned o = 0; o < n; ++o) {
              const unsigned i = seed ? order[o] : o;
              if (slots[i].state != slot_state::ready) continue;
              turn(i);
              check_log(i);
              if (global) check_global(i);
              if (slots[i].error) std::rethrow_exception(slots[i].error);
            }
            if (at_warp == 0 || !meet_warps()) break;
          }
        } catch (...) {
          if (uninit.pending) fail_uninitialised_read(); // it came first, and may be the cause
          throw;
        }
        if (uninit.pending) fail_uninitialised_read();
        const int opened = barrier();
        w->next_epoch(); // the barrier interval ends (at a grid_sync too)
        if (opened == 0) return false;
        if (opened == 2) return true;
      }
    } catch (const kernel_error&) {
      abandon();
      throw;
    } catch (const std::exception& e) {
      const unsigned failing = current;
      const std::string what = e.what();
      abandon();
      fail(failing, what);
    } catch (...) {
      const unsigned failing = current;
      abandon();
      fail(failing, "an exception that is not a std::exception");
    }
  }

  /// The grid's threads all reached a grid_sync: this block's run on.
  void release_grid() {
    for (thread_slot& s : slots) s.state = slot_state::ready;
  }

  /// The grid_sync line the block's threads wait at.
  int grid_line() const { return slots.empty() ? 0 : slots.front().line; }

  /// No thread is ready: every thread still running waits at a barrier, or none does. Checks they
  /// agree and gives each its barrier's result. Returns 0 when none waits (the block is done), 1
  /// when a block barrier opened, 2 when every thread waits at a grid_sync.
  int barrier() {
    const auto first_waiting =
        std::find_if(slots.begin(), slots.end(), [](const thread_slot& s) { return s.state == slot_state::barrier; });
    if (first_waiting == slots.end()) return 0;
    const auto w_i = static_cast<unsigned>(first_waiting - slots.begin());
    const auto where = [&] {
      return std::string(barrier_kind_name(first_waiting->barrier)) + " on line " + std::to_string(first_waiting->line);
    };
    int count = 0;
    const barrier_kind k = first_waiting->barrier;
    for (unsigned i = 0; i < slots.size(); ++i) {
      thread_slot& s = slots[i];
      if (s.state == slot_state::done)
        fail(i, "barrier divergence: this thread returned while thread " + thread_text(w_i) + " waits at " + where() +
                    " (every thread of a block must reach each sync(); return after it, or guard the work "
                    "instead of returning early)");
      if (s.line != first_waiting->line || s.barrier != k)
        fail(i, std::string("barrier divergence: this thread waits at ") + barrier_kind_name(s.barrier) + " on line " +
                    std::to_string(s.line) + " while thread " + thread_text(w_i) + " waits at " + where() +
                    " (every thread of a block must reach the same sync() calls)");
      count += s.pred ? 1 : 0;
      if (k != barrier_kind::grid) s.state = slot_state::ready;
    }
    if (k == barrier_kind::grid) return 2;
    if (k != barrier_kind::sync) {
      const auto threads = static_cast<int>(slots.size());
      const int result = k == barrier_kind::count ? count
                         : k == barrier_kind::all ? (count == threads ? 1 : 0)
                                                  : (count > 0 ? 1 : 0);
      for (thread_slot& s : slots) s.barrier_result = result;
    }
    return 1;
  }

  // ---- warps

  /// Lets the lanes of each warp that have all reached their meeting go on (syncwarp, shuffles,
  /// votes, matches; then activemask calls, grouped by where they are); returns whether any did.
  /// When none can, some lane waits for a lane that will never come: reported.
  bool meet_warps() {
    const unsigned n = thread_count();
    bool progress = false, waiting = false;
    for (unsigned wi = 0; wi * 32 < n; ++wi) {
      const unsigned base = wi * 32, have = lanes_of(wi);
      unsigned at_op = 0, at_mask = 0;
      for (unsigned l = 0; l < 32 && base + l < n; ++l) {
        const thread_slot& s = slots[base + l];
        if (s.state != slot_state::warp) continue;
        (s.call->kind == warp_kind::activemask ? at_mask : at_op) |= 1u << l;
      }
      if (!(at_op | at_mask)) continue;
      waiting = true;
      bool met = false;
      for (unsigned todo = at_op; todo;) {
        const auto l = static_cast<unsigned>(__builtin_ctz(todo));
        const warp_call& c = *slots[base + l].call;
        const unsigned group = c.mask & have;
        for (unsigned bits = group; bits; bits &= bits - 1) {
          const auto k = static_cast<unsigned>(__builtin_ctz(bits));
          if (slots[base + k].state == slot_state::done)
            fail_lane(base + l, std::string(warp_kind_name(c.kind)) + " on line " + std::to_string(c.line) +
                                    ": its mask " + hex_mask(c.mask) + " names lane " + std::to_string(k) +
                                    ", which has returned (name only the lanes that take part: on a GPU the "
                                    "result is undefined)");
        }
        bool complete = true;
        for (unsigned bits = group; bits; bits &= bits - 1) {
          const auto k = static_cast<unsigned>(__builtin_ctz(bits));
          const thread_slot& o = slots[base + k];
          if (o.state != slot_state::warp || o.call->kind == warp_kind::activemask || o.call->mask != c.mask) {
            complete = false;
            break;
          }
          if (o.call->kind != c.kind)
            fail_lane(base + l, std::string(warp_kind_name(c.kind)) + " on line " + std::to_string(c.line) +
                                    " with mask " + hex_mask(c.mask) + " meets lane " + std::to_string(k) + " at " +
                                    warp_kind_name(o.call->kind) + " on line " + std::to_string(o.call->line) +
                                    " (every lane of a mask must reach the same kind of operation)");
        }
        todo &= ~(1u << l);
        if (!complete) continue;
        todo &= ~group;
        perform(wi, group);
        met = true;
      }
      if (!met && at_mask) { // the warp's other lanes wait elsewhere: each activemask call's lanes are active
        for (unsigned todo = at_mask; todo;) {
          const auto l = static_cast<unsigned>(__builtin_ctz(todo));
          const warp_call& c = *slots[base + l].call;
          unsigned group = 0;
          for (unsigned bits = todo; bits; bits &= bits - 1) {
            const auto k = static_cast<unsigned>(__builtin_ctz(bits));
            const warp_call& o = *slots[base + k].call;
            if (o.line == c.line) group |= 1u << k;
          }
          for (unsigned bits = group; bits; bits &= bits - 1) {
            const auto k = static_cast<unsigned>(__builtin_ctz(bits));
            slots[base + k].call->result_mask = group;
            slots[base + k].state = slot_state::ready;
          }
          at_warp -= static_cast<unsigned>(__builtin_popcount(group));
          todo &= ~group;
        }
        met = true;
      }
      progress = progress || met;
    }
    if (!progress && waiting) stuck();
    return progress;
  }

  /// Carries out the operation that the lanes `group` of warp `wi` have all reached.
  void perform(unsigned wi, unsigned group) {
    const unsigned base = wi * 32, have = lanes_of(wi);
    const auto lowest = static_cast<unsigned>(__builtin_ctz(group));
    const warp_call& first = *slots[base + lowest].call;
    const warp_kind k = first.kind;
    unsigned ballot = 0;
    for (unsigned bits = group; bits; bits &= bits - 1) {
      const auto l = static_cast<unsigned>(__builtin_ctz(bits));
      const warp_call& c = *slots[base + l].call;
      if (c.pred) ballot |= 1u << l;
      if (c.bytes != first.bytes)
        fail_lane(base + l, std::string(warp_kind_name(k)) + " on line " + std::to_string(c.line) +
                                ": this lane's value has " + std::to_string(c.bytes) + " bytes, lane " +
                                std::to_string(lowest) + "'s " + std::to_string(first.bytes) +
                                " (every lane must pass the same type)");
    }
    switch (k) {
    case warp_kind::syncwarp: {
      // the lanes' accesses before it are ordered before each lane's after it: advance each lane's
      // epoch, then each knows what any of them knew
      w->dirty[wi] = 1;
      std::uint32_t* kw = &w->know[wi * 1024];
      std::uint32_t joined[32] = {};
      for (unsigned bits = group; bits; bits &= bits - 1) {
        const auto l = static_cast<unsigned>(__builtin_ctz(bits));
        ++kw[l * 32 + l];
        for (unsigned b = 0; b < 32; ++b) joined[b] = std::max(joined[b], kw[l * 32 + b]);
      }
      for (unsigned bits = group; bits; bits &= bits - 1)
        std::copy(joined, joined + 32, kw + static_cast<unsigned>(__builtin_ctz(bits)) * 32);
      break;
    }
    case warp_kind::shfl_idx:
    case warp_kind::shfl_up:
    case warp_kind::shfl_down:
    case warp_kind::shfl_xor:
      for (unsigned bits = group; bits; bits &= bits - 1) {
        const auto l = static_cast<unsigned>(__builtin_ctz(bits));
        warp_call& c = *slots[base + l].call;
        const unsigned width = c.width;
        if (width == 0 || width > 32 || (width & (width - 1)) != 0)
          fail_lane(base + l, std::string(warp_kind_name(k)) + " on line " + std::to_string(c.line) + ": width " +
                                  std::to_string(static_cast<int>(width)) + " is not a power of two from 1 to 32");
        const unsigned seg = l & ~(width - 1), pos = l & (width - 1);
        unsigned src = l;
        if (k == warp_kind::shfl_idx) src = seg + c.arg % width;
        else if (k == warp_kind::shfl_up) src = c.arg <= pos ? l - c.arg : l;
        else if (k == warp_kind::shfl_down) src = c.arg < width - pos ? l + c.arg : l;
        else src = (l ^ c.arg) < seg + width ? (l ^ c.arg) & 31u : l;
        if (src != l) {
          if (!(have >> src & 1u))
            fail_lane(base + l, std::string(warp_kind_name(k)) + " on line " + std::to_string(c.line) + " reads lane " +
                                    std::to_string(src) + ", which this block does not have (warp " +
                                    std::to_string(wi) + " has " + std::to_string(__builtin_popcount(have)) +
                                    " lanes): on a GPU the value is undefined");
          if (!(group >> src & 1u))
            fail_lane(base + l, std::string(warp_kind_name(k)) + " on line " + std::to_string(c.line) + " reads lane " +
                                    std::to_string(src) + ", which is not in its mask " + hex_mask(c.mask) +
                                    ": on a GPU the value is undefined");
        }
        std::memcpy(c.result, slots[base + src].call->value, sizeof c.result);
      }
      break;
    default: {
      const bool all = ballot == group, any = ballot != 0;
      for (unsigned bits = group; bits; bits &= bits - 1) {
        const auto l = static_cast<unsigned>(__builtin_ctz(bits));
        warp_call& c = *slots[base + l].call;
        if (k == warp_kind::all) c.result_pred = all;
        else if (k == warp_kind::any) c.result_pred = any;
        else if (k == warp_kind::eq) c.result_pred = all || !any;
        else if (k == warp_kind::ballot) c.result_mask = ballot;
        else { // matches: lanes whose value has the same bits
          unsigned same = 0;
          for (unsigned o = group; o; o &= o - 1) {
            const auto m = static_cast<unsigned>(__builtin_ctz(o));
            if (std::memcmp(slots[base + m].call->value, c.value, static_cast<std::size_t>(c.bytes)) == 0)
              same |= 1u << m;
          }
          if (k == warp_kind::match_any) {
            c.result_mask = same;
          } else {
            c.result_pred = same == group;
            c.result_mask = same == group ? group : 0u;
          }
        }
      }
    }
    }
    for (unsigned bits = group; bits; bits &= bits - 1)
      slots[base + static_cast<unsigned>(__builtin_ctz(bits))].state = slot_state::ready;
    at_warp -= static_cast<unsigned>(__builtin_popcount(group));
  }

  /// No lane waiting at a warp operation can go on: names one and the lane it waits for.
  [[noreturn]] void stuck() const {
    const unsigned n = thread_count();
    for (unsigned i = 0; i < n; ++i) {
      const thread_slot& s = slots[i];
      if (s.state != slot_state::warp || s.call->kind == warp_kind::activemask) continue;
      const warp_call& c = *s.call;
      const unsigned base = i / 32 * 32, group = c.mask & lanes_of(i / 32);
      for (unsigned bits = group; bits; bits &= bits - 1) {
        const auto k = static_cast<unsigned>(__builtin_ctz(bits));
        const thread_slot& o = slots[base + k];
        const std::string head = std::string(warp_kind_name(c.kind)) + " on line " + std::to_string(c.line) +
                                 " with mask " + hex_mask(c.mask) + " waits for lane " + std::to_string(k);
        if (o.state == slot_state::barrier)
          fail_lane(i, head + ", which waits at " + barrier_kind_name(o.barrier) + " on line " +
                           std::to_string(o.line) + " (the lanes of a mask must all reach the warp operation)");
        if (o.state == slot_state::warp && o.call->mask != c.mask)
          fail_lane(i, head + ", which waits at " + warp_kind_name(o.call->kind) + " on line " +
                           std::to_string(o.call->line) + " with mask " + hex_mask(o.call->mask) +
                           " (every lane must pass the same mask)");
      }
    }
    fail(0, "the block's threads wait for each other at warp operations that cannot meet");
  }
};

namespace {
/// Suspends the running thread of `b` until the scheduler resumes it (a barrier opened, its warp
/// operation met); unwinds it when the block is abandoned meanwhile.
[[gnu::always_inline]] inline void suspend(sim_block* b, thread_slot& s) {
#  if UFX_ASAN_FIBERS
  __sanitizer_start_switch_fiber(&s.fake_stack, b->main_bottom, b->main_size);
#  endif
  s.main = std::move(s.main).resume();
#  if UFX_ASAN_FIBERS
  __sanitizer_finish_switch_fiber(s.fake_stack, &b->main_bottom, &b->main_size);
#  endif
  if (b->aborting) throw block_abort{};
}
} // namespace

namespace {
/// The running thread of `b` waits at a barrier of kind `kind` on `line`.
[[gnu::always_inline]] inline thread_slot& wait_at_barrier(sim_block* b, int line, barrier_kind kind, bool pred) {
  if (!b) throw device_error("ufx::thread::sync(): this thread is not running in a kernel launch");
  if (b->aborting) throw block_abort{}; // a body that caught block_abort and waits again
  if (kind == barrier_kind::grid && !b->launch->config.cooperative)
    b->fail(b->current, "t.grid_sync() on line " + std::to_string(line) +
                            " in a launch that is not cooperative (launch with k[ufx::cooperative(config)], whose "
                            "blocks are all resident at once, as CUDA's cudaLaunchCooperativeKernel)");
  thread_slot& s = b->slots[b->current];
  s.state = slot_state::barrier;
  s.line = line;
  s.barrier = kind;
  s.pred = pred;
  suspend(b, s);
  return s;
}
} // namespace

int sim_sync_predicate(sim_block* b, int line, barrier_kind kind, bool pred) {
  return wait_at_barrier(b, line, kind, pred).barrier_result;
}

void sim_sync(sim_block* b, int line) { wait_at_barrier(b, line, barrier_kind::sync, false); }

void sim_warp(sim_block* b, warp_call& c) {
  if (!b)
    throw device_error(std::string("ufx::thread::") + warp_kind_name(c.kind) +
                       ": this thread is not running in a kernel launch");
  if (b->aborting) throw block_abort{};
  const unsigned me = b->current, lane = me % 32;
  if (!(c.mask >> lane & 1u))
    b->fail_lane(me, std::string(warp_kind_name(c.kind)) + " on line " + std::to_string(c.line) + ": its mask " +
                         hex_mask(c.mask) + " does not name this thread's lane " + std::to_string(lane) +
                         " (a lane calling a *_sync operation must be in its mask)");
  thread_slot& s = b->slots[me];
  s.state = slot_state::warp;
  s.call = &c;
  ++b->at_warp;
  suspend(b, s);
}

void host_fence(int scope) {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  sim_block_state* const st = sim_current_block;
  if (!st || scope < 1) return; // a block-scope fence orders nothing between blocks
  auto* b = reinterpret_cast<sim_block*>(st);
  if (!b->global || b->slots.empty()) return;
  thread_slot& s = b->slots[b->current];
  s.fenced = true;
  s.fence_interval = b->w->epoch;
}

void sim_shared_log(sim_block_state* state, std::size_t offset, std::size_t bytes, bool init_checked) {
  auto* b = reinterpret_cast<sim_block*>(state); // state is sim_block's first member
  worker& w = *b->w;
  state->stamp[offset] = state->segment;
  w.entry_of[offset] = static_cast<std::uint32_t>(w.log.size());
  const unsigned char* p = state->shared + offset;
  std::uint64_t old = 0;
  if (bytes == 4) { // fixed sizes: no call to memcpy
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    old = v;
  } else if (bytes == 8) {
    std::memcpy(&old, p, 8);
  } else if (bytes < 8) {
    std::memcpy(&old, p, bytes);
  } else {
    old = w.old.size();
    w.old.insert(w.old.end(), p, p + bytes);
  }
  // the entry built in place (a temporary copied in stalled on its partly written bytes)
  log_entry& e = w.log.emplace_back();
  e.offset = static_cast<std::uint32_t>(offset);
  e.bytes = static_cast<std::uint32_t>(bytes);
  e.old = old;
  e.init_checked = init_checked;
}

namespace {
constexpr std::uint32_t no_entry = ~std::uint32_t{0};
std::uint64_t bytes_at(const unsigned char* p, std::size_t bytes) {
  std::uint64_t v = 0;
  std::memcpy(&v, p, bytes);
  return v;
}
} // namespace

std::uint32_t sim_shared_atomic_begin(sim_block_state* state, std::size_t offset, std::size_t bytes, bool reads) {
  auto* b = reinterpret_cast<sim_block*>(state);
  worker& w = *b->w;
  if (bytes > 8) return no_entry;
  // reached through data(), or first touched here: an atomic's element type is 4 or 8 bytes
  if (state->stamp[offset] != state->segment) sim_shared_log(state, offset, bytes, true);
  const std::uint32_t i = w.entry_of[offset];
  log_entry& e = w.log[i];
  // a member of a larger element (a struct) is logged as the element: its change is a write of it
  if (e.bytes != bytes) return no_entry;
  if (bytes_at(state->shared + offset, bytes) != e.old) e.plain_write = true; // changed since its last atomic
  if (!e.atomic) e.atomic_reads = reads;
  e.atomic = true;
  return i;
}

void sim_shared_atomic_end(sim_block_state* state, std::uint32_t entry) {
  if (entry == no_entry) return;
  auto* b = reinterpret_cast<sim_block*>(state);
  log_entry& e = b->w->log[entry];
  e.old = bytes_at(state->shared + e.offset, e.bytes);
}

void sim_global_touch(const void* p, std::size_t bytes, bool read_only, bool init_checked) {
  sim_block_state* const st = sim_current_block;
  if (!st) return;
  auto* b = reinterpret_cast<sim_block*>(st); // state is sim_block's first member
  if (!b->global) return;
  if (read_only && b->global->reads_race_free) { // a read nothing in this launch can race with
    if (init_checked && bytes <= 8 && b->holds_fill(p, bytes) && sim_memory_undefined(p, bytes))
      b->uninitialised_read(b->current, reinterpret_cast<std::uintptr_t>(p), false);
    return;
  }
  worker& w = *b->w;
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  std::uint32_t& entry = w.global_slot_of(addr);
  if (entry != ~0u) return; // touched before in this turn
  entry = static_cast<std::uint32_t>(w.global_log.size());
  std::uint64_t old = 0;
  if (bytes <= 8) {
    std::memcpy(&old, p, bytes);
  } else {
    old = w.global_old.size();
    w.global_old.insert(w.global_old.end(), static_cast<const unsigned char*>(p),
                        static_cast<const unsigned char*>(p) + bytes);
  }
  global_entry& e = w.global_log.emplace_back(); // built in place, as sim_shared_log's
  e.addr = addr;
  e.bytes = static_cast<std::uint32_t>(bytes);
  e.old = old;
  e.read_only = read_only;
  e.init_checked = init_checked;
  e.held_fill = bytes <= 8 && sim_block::holds_fill(p, bytes);
  if (w.global_log.size() * 2 > w.global_table.size()) w.grow_global_table();
}

std::uint32_t sim_global_atomic_begin(sim_block_state* state, const void* p, std::size_t bytes, bool reads) {
  auto* b = reinterpret_cast<sim_block*>(state);
  if (!b->global || bytes > 8) return no_entry;
  worker& w = *b->w;
  const std::uint32_t i = w.global_slot_of(reinterpret_cast<std::uintptr_t>(p));
  if (i == ~0u) return no_entry; // not through a tracked array (a pointer argument)
  global_entry& e = w.global_log[i];
  if (e.bytes != bytes) return no_entry;
  if (bytes_at(static_cast<const unsigned char*>(p), bytes) != e.old) e.plain_write = true;
  if (!e.atomic) e.atomic_reads = reads;
  e.atomic = true;
  // release (after a fence of this thread) and acquire through the location
  auto& rel = b->global->releases[reinterpret_cast<std::uintptr_t>(p)];
  for (const global_ref& r : rel)
    if (r.block != b->block_linear) {
      auto [it, fresh] = b->acquired.emplace(r.block, r);
      if (!fresh && r.interval > it->second.interval) it->second = r;
    }
  const thread_slot& slot = b->slots[b->current];
  if (slot.fenced) {
    const global_ref mine{b->block_linear, static_cast<std::int32_t>(b->current), slot.fence_interval, 0};
    auto same = std::find_if(rel.begin(), rel.end(), [&](const global_ref& r) { return r.block == mine.block; });
    if (same == rel.end()) rel.push_back(mine);
    else if (same->interval <= mine.interval) *same = mine;
  }
  return i;
}

void sim_global_atomic_end(sim_block_state* state, std::uint32_t entry) {
  if (entry == no_entry) return;
  auto* b = reinterpret_cast<sim_block*>(state);
  global_entry& e = b->w->global_log[entry];
  e.old = bytes_at(reinterpret_cast<const unsigned char*>(e.addr), e.bytes);
}

namespace {
/// True when no read-only argument's bytes overlap those of an argument the kernel may write: then
/// no read through a read-only argument races with anything in the launch.
bool reads_race_free(const block_launch& l) {
  for (int a = 0; a < l.global_count; ++a) {
    if (!l.globals[a].read_only) continue;
    const global_region& r = l.globals[a];
    for (int b = 0; b < l.global_count; ++b) {
      const global_region& w = l.globals[b];
      if (!w.read_only && r.lo < w.hi && w.lo < r.hi) return false;
    }
  }
  return true;
}

/// What the body's atomics on this host thread read (sim_current_block), restored when done.
struct current_block_scope {
  sim_block_state* saved = sim_current_block;
  ~current_block_scope() { sim_current_block = saved; }
};

/// A cooperative launch: every block resident at once, as on a GPU. The blocks run in turn on the
/// calling thread, each until all its threads wait at a grid_sync (or have returned); when every
/// thread of the grid waits at the same grid_sync, it opens. Each block has its own shared memory
/// and fiber stacks, so a block keeps its state while the others run.
void run_cooperative(const block_launch& l, std::size_t shared_bytes, unsigned threads, global_checks* checks) {
  const dim3 g = l.config.grid;
  const auto blocks = static_cast<unsigned>(g.count());
  const std::uint64_t seed = seed_value().load(std::memory_order_relaxed);
  const std::uint64_t launch_seed = seed ? seed ^ (launch_count.fetch_add(1) * 0xd1b54a32d192ed03ull) : 0;
  order_rng block_rng{launch_seed};
  std::vector<unsigned> block_order;
  worker& w = this_worker();
  w.stacks.reserve(blocks * threads, sim_fiber_stack_bytes());
  w.prepare(shared_bytes, threads);
  const current_block_scope restore;
  std::vector<std::unique_ptr<sim_block>> grid(blocks);
  for (unsigned k = 0; k < blocks; ++k) {
    auto& b = grid[k];
    b = std::make_unique<sim_block>();
    b->launch = &l;
    b->w = &w;
    b->block_idx = unflatten(k, g);
    b->block_linear = static_cast<std::int32_t>(k);
    b->global = checks;
    b->seed = seed;
    b->rng = order_rng{launch_seed ^ (static_cast<std::uint64_t>(k) * 0x9e3779b97f4a7c15ull)};
    b->stack_base = k * threads;
    b->own_shared.resize(shared_bytes + 16);
    const auto p = reinterpret_cast<std::uintptr_t>(b->own_shared.data());
    b->state.shared = b->own_shared.data() + ((16 - p % 16) % 16);
    b->state.stamp = w.stamp.data();
    b->state.bytes = shared_bytes;
    b->own_init.assign(shared_bytes + 1, 0);
    b->init = b->own_init.data();
    fill_undefined(b->state.shared, shared_bytes);
    b->start();
  }
  w.next_epoch();
  // a failure: every block's fibers end on their own stacks before the error leaves
  const auto abandon_all = [&] {
    for (auto& b : grid)
      if (!b->slots.empty()) b->abandon();
  };
  try {
    for (;;) {
      int waiting = -1, done = -1; // a block at the grid_sync, one that has returned
      if (seed) block_rng.permute(block_order, blocks);
      for (unsigned o = 0; o < blocks; ++o) {
        const unsigned k = seed ? block_order[o] : o;
        sim_block& b = *grid[k];
        sim_current_block = &b.state;
        const bool at_grid = std::any_of(b.slots.begin(), b.slots.end(),
                                         [](const thread_slot& s) { return s.state != slot_state::done; }) &&
                             b.advance();
        if (at_grid && (waiting < 0 || k < static_cast<unsigned>(waiting))) waiting = static_cast<int>(k);
        if (!at_grid && (done < 0 || k < static_cast<unsigned>(done))) done = static_cast<int>(k);
      }
      if (waiting < 0) return; // every thread has returned
      const sim_block& first = *grid[static_cast<unsigned>(waiting)];
      if (done >= 0)
        grid[static_cast<unsigned>(done)]->fail(
            0, "grid barrier divergence: the threads of this block returned while those of block " +
                   dim3_text(first.block_idx) + " wait at t.grid_sync() on line " + std::to_string(first.grid_line()) +
                   " (every thread of the grid must reach each grid_sync)");
      for (unsigned k = 0; k < blocks; ++k)
        if (grid[k]->grid_line() != first.grid_line())
          grid[k]->fail(0, "grid barrier divergence: this block's threads wait at t.grid_sync() on line " +
                               std::to_string(grid[k]->grid_line()) + " while those of block " +
                               dim3_text(first.block_idx) + " wait at t.grid_sync() on line " +
                               std::to_string(first.grid_line()) +
                               " (every thread of the grid must reach the same "
                               "grid_sync calls)");
      for (auto& b : grid) b->release_grid();
      if (checks) ++checks->grid_epoch; // every access so far is ordered before those to come
    }
  } catch (...) {
    abandon_all();
    throw;
  }
}
} // namespace

void run_blocks(const block_launch& l) {
  const dim3 g = l.config.grid;
  const auto blocks = static_cast<index_t>(g.count());
  if (blocks == 0 || l.config.block.count() == 0) return;
  const std::size_t shared_bytes = l.static_bytes + l.config.shared_bytes;
  const auto threads = static_cast<unsigned>(l.config.block.count());
  std::unique_ptr<global_checks> checks;
  if (l.track_global) {
    checks = std::make_unique<global_checks>();
    checks->reads_race_free = reads_race_free(l);
  }
  if (l.config.cooperative) {
    run_cooperative(l, shared_bytes, threads, checks.get());
    return;
  }

  const std::uint64_t seed = seed_value().load(std::memory_order_relaxed);
  const std::uint64_t launch_seed = seed ? seed ^ (launch_count.fetch_add(1) * 0xd1b54a32d192ed03ull) : 0;
  std::vector<unsigned> block_order; // seeded: the order blocks are taken in
  if (seed) order_rng{launch_seed}.permute(block_order, static_cast<unsigned>(blocks));

  std::atomic<index_t> next{0};
  std::atomic<index_t> failed_at{blocks}; // the lowest failing position in the blocks' order so far
  std::mutex m;
  std::exception_ptr first_error;

  auto work = [&](index_t, index_t) {
    worker& w = this_worker();
    w.stacks.reserve(threads, sim_fiber_stack_bytes());
    w.prepare(shared_bytes, threads);
    sim_block b;
    b.launch = &l;
    b.w = &w;
    b.state.shared = w.shared_base();
    b.state.stamp = w.stamp.data();
    b.state.bytes = shared_bytes;
    b.init = w.init.data();
    b.global = checks.get();
    const current_block_scope restore;
    sim_current_block = &b.state;
    for (index_t pos; (pos = next.fetch_add(1)) < failed_at.load();) {
      const index_t k = seed ? static_cast<index_t>(block_order[static_cast<std::size_t>(pos)]) : pos;
      b.block_idx = unflatten(k, g);
      b.block_linear = static_cast<std::int32_t>(k);
      b.seed = seed;
      b.rng = order_rng{launch_seed ^ (static_cast<std::uint64_t>(k) * 0x9e3779b97f4a7c15ull)};
      b.acquired.clear();
      b.aborting = false;
      fill_undefined(b.state.shared, shared_bytes); // undefined contents
      std::fill_n(w.init.begin(), shared_bytes, static_cast<unsigned char>(0));
      w.next_epoch();
      try {
        b.run();
      } catch (...) {
        const std::lock_guard lock(m);
        if (pos < failed_at.load()) {
          failed_at = pos;
          first_error = std::current_exception();
        }
      }
    }
  };
  // the global-memory checks tell a write from a read by the change a thread's turn makes, which
  // holds only while no other block runs meanwhile: a checked launch runs its blocks in turn
  const int workers = checks ? 1 : static_cast<int>(std::min<index_t>(std::max(l.workers, 1), blocks));
  if (workers == 1) work(0, 1);
  else cpu_executor(host_t{}.threads(workers))(workers, work);
  if (first_error) std::rethrow_exception(first_error);
}

} // namespace ufx::detail

namespace ufx {
bool host_kernels_available() noexcept { return true; }
std::uint64_t sim_seed() noexcept { return detail::seed_value().load(std::memory_order_relaxed); }
void set_sim_seed(std::uint64_t seed) noexcept {
  detail::seed_value().store(seed, std::memory_order_relaxed);
  detail::launch_count.store(0, std::memory_order_relaxed); // the seed's sequence of orders starts again
}
} // namespace ufx

#else // no Boost.Context: raw kernels cannot run on the host

namespace ufx {
bool host_kernels_available() noexcept { return false; }
std::uint64_t sim_seed() noexcept { return 0; }
void set_sim_seed(std::uint64_t) noexcept {}
} // namespace ufx

namespace ufx::detail {

struct sim_block {};

void sim_sync(sim_block*, int) {
  throw device_error("ufx::thread::sync(): this thread is not running in a kernel launch");
}
int sim_sync_predicate(sim_block*, int, barrier_kind, bool) {
  throw device_error("ufx::thread::sync_count(): this thread is not running in a kernel launch");
}
void sim_warp(sim_block*, warp_call&) { throw device_error("ufx::thread: a warp operation outside a kernel launch"); }
void host_fence(int) { std::atomic_thread_fence(std::memory_order_seq_cst); }
void sim_shared_log(sim_block_state*, std::size_t, std::size_t, bool) {}
std::uint32_t sim_shared_atomic_begin(sim_block_state*, std::size_t, std::size_t, bool) { return 0; }
std::uint32_t sim_global_atomic_begin(sim_block_state*, const void*, std::size_t, bool) { return 0; }
void sim_global_atomic_end(sim_block_state*, std::uint32_t) {}
void sim_global_touch(const void*, std::size_t, bool, bool) {}
void sim_shared_atomic_end(sim_block_state*, std::uint32_t) {}
void run_blocks(const block_launch& l) {
  throw device_error(std::string(l.label) + " on " + l.where +
                     ": ufx was built without Boost.Context (Debian's libboost-context-dev), which runs a raw "
                     "kernel's block threads on the host; install it and rebuild ufx");
}

} // namespace ufx::detail
#endif

namespace ufx::detail {

namespace {
std::string index_text(int rank, const index_t* index, const index_t* extents, const char* what) {
  std::string i("("), e("(");
  for (int k = 0; k < rank; ++k) {
    i.append(k ? ", " : "").append(std::to_string(index[k]));
    e.append(k ? ", " : "").append(std::to_string(extents[k]));
  }
  std::string msg(what);
  msg.append(": index ").append(i).append(") out of range for shape ").append(e).append(")");
  return msg;
}
} // namespace

void ndview_out_of_range(int rank, const index_t* index, const index_t* extents) {
  throw shape_error(index_text(rank, index, extents, "ufx::ndview"));
}

void sim_shared_out_of_range(int rank, const index_t* index, const index_t* extents) {
  throw shape_error(index_text(rank, index, extents, "ufx::shared"));
}

std::size_t sim_fiber_stack_bytes() {
  static const std::size_t bytes = [] {
    const char* env = std::getenv("UFX_SIM_STACK");
    const long long v = env ? std::atoll(env) : 0;
    return v >= 16384 ? static_cast<std::size_t>(v) : std::size_t{64} << 10;
  }();
  return bytes;
}

} // namespace ufx::detail
