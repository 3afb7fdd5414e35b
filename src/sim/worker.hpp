#pragma once
// What the sim's block runner keeps per worker (one per host thread running blocks) and the records its checks keep:
// fiber stacks, the turn's logs of shared and global accesses, the warp clocks, the shadows of shared elements and the
// records of global ones, the threads' slots, the seeded order (private to libufx; block.hpp builds on them).
#include "asan.hpp"
#include "runtime_common.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <exception>
#include <string>
#include <unordered_map>
#include <vector>

#include "ufx/detail/raw/blocks.hpp"
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
namespace sim_impl {

namespace bctx = boost::context;

// ---- texts shared by the checks (messages.cpp)

/// "(1, 2, 3)"
std::string dim3_text(const dim3& d);
/// "0x0000ffff"
std::string hex_mask(unsigned m);
/// "shfl_sync", "ballot_sync", ...
const char* warp_kind_name(warp_kind k);
/// "t.sync()", "t.grid_sync()", ...
const char* barrier_kind_name(barrier_kind k);

/// The position of linear index i (x fastest) in `extent`.
inline dim3 unflatten(index_t i, const dim3& extent) {
  const index_t x = extent.x, y = extent.y;
  return dim3(static_cast<unsigned>(i % x), static_cast<unsigned>((i / x) % y), static_cast<unsigned>(i / (x * y)));
}

/// Raised inside a fiber to unwind it when its block is abandoned (never reaches the user).
struct block_abort {};

// ---- fiber stacks (fibers.cpp)

/// Fiber stacks of one worker: one mapping, a guard page below each stack.
class stack_pool {
public:
  stack_pool() = default;
  stack_pool(const stack_pool&) = delete;
  stack_pool& operator=(const stack_pool&) = delete;
  ~stack_pool() { release(); }
  void reserve(unsigned n, std::size_t bytes);
  /// The usable bottom of stack i (its guard page lies below).
  unsigned char* bottom(unsigned i) const { return base_ + i * (bytes_ + page_) + page_; }
  std::size_t bytes() const { return bytes_; }

private:
  void release();
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

// ---- who accessed an element

/// A thread of a block (by index, x fastest), where there may be none.
using thread_id = std::int32_t;
inline constexpr thread_id no_thread = -1;

/// The one group (a warp of a block, or a block of a grid) whose threads make up a set, or none
/// yet, or several. One int32 wide: a lane_set lies in the shadow of every shared byte.
class group_id {
public:
  bool empty() const noexcept { return g_ == none_; }
  bool several() const noexcept { return g_ == several_; }
  bool one() const noexcept { return g_ >= 0; }
  /// Whether the set's threads are all of group g.
  bool is(std::int32_t g) const noexcept { return g_ == g; }
  /// The group, when one().
  std::int32_t index() const noexcept { return g_; }
  void clear() noexcept { g_ = none_; }
  void set(std::int32_t g) noexcept { g_ = g; }
  void set_several() noexcept { g_ = several_; }

private:
  static constexpr std::int32_t none_ = -1, several_ = -2;
  std::int32_t g_ = none_;
};

/// Threads of a block that accessed an element in the current barrier interval: lanes of one warp, or threads of
/// several warps (then any thread outside one of them is unordered with some). The lanes' warp epochs at their latest
/// access are in the worker's epoch pool once one is not 0 (the warp passed a syncwarp in the interval).
struct lane_set {
  group_id warp;
  std::uint32_t lanes = 0;
  thread_id first = no_thread, other = no_thread; // the first thread; the first of a warp other than first's
  std::uint32_t epochs = 0;                       // 1 + the index of the lanes' 32 epochs in the pool, or 0: all 0
  void clear() {
    warp.clear();
    lanes = 0;
    first = other = no_thread;
    epochs = 0;
  }
};

// ---- warp clocks: happens-before within a barrier interval (warp.cpp advances them)

/// Lanes of one warp are ordered by the syncwarps they pass together (a thread's own accesses always are):
/// know[(warp * 32 + a) * 32 + b] is the epoch (syncwarps passed) of lane b that lane a has synchronised with,
/// know[.. a .. a] lane a's own; all zero in a warp not synchronised (dirty 0). Inline: the checks ask at every access.
struct warp_clocks {
  std::vector<std::uint32_t> know;
  std::vector<unsigned char> dirty;
  std::vector<std::uint32_t> epoch_pool; // lane_set::epochs, 32 a set, emptied with each interval

  void prepare(std::size_t warps) {
    if (dirty.size() < warps) {
      know.assign(warps * 1024, 0);
      dirty.assign(warps, 0);
    }
  }
  /// A new barrier interval: every warp's clocks back to 0.
  void reset() {
    for (std::size_t w = 0; w < dirty.size(); ++w)
      if (dirty[w]) {
        std::fill_n(know.begin() + static_cast<std::ptrdiff_t>(w * 1024), 1024, 0u);
        dirty[w] = 0;
      }
    epoch_pool.clear();
  }
  const std::uint32_t* know_row(unsigned t) const { return &know[(t / 32) * 1024 + (t % 32) * 32]; }
  std::uint32_t epoch_of(unsigned t) const { return dirty[t / 32] ? know_row(t)[t % 32] : 0; }
  /// Whether an access by thread `prev` at its warp epoch `prev_epoch` is ordered before thread `me`'s now.
  bool ordered(thread_id prev, std::uint32_t prev_epoch, unsigned me) const {
    if (prev == static_cast<thread_id>(me)) return true;
    if (static_cast<unsigned>(prev) / 32 != me / 32 || !dirty[me / 32]) return false;
    return know_row(me)[prev % 32] > prev_epoch;
  }
  /// A thread of `s` whose access is not ordered before `me`'s now, or no_thread.
  thread_id unordered(const lane_set& s, unsigned me) const {
    if (s.warp.empty()) return no_thread;
    const auto mw = static_cast<std::int32_t>(me / 32);
    if (s.warp.several()) return s.first / 32 != mw ? s.first : s.other;
    if (!s.warp.is(mw)) return s.first;
    const bool synced = dirty[me / 32] != 0;
    const std::uint32_t* epoch = s.epochs ? &epoch_pool[s.epochs - 1] : nullptr;
    for (std::uint32_t bits = s.lanes; bits; bits &= bits - 1) {
      const auto l = static_cast<unsigned>(__builtin_ctz(bits));
      const auto t = static_cast<thread_id>(me / 32 * 32 + l);
      if (t != static_cast<thread_id>(me) && !(synced && know_row(me)[l] > (epoch ? epoch[l] : 0u))) return t;
    }
    return no_thread;
  }
  void add(lane_set& s, unsigned t, std::uint32_t epoch) {
    const auto tw = static_cast<std::int32_t>(t / 32);
    if (s.warp.empty()) {
      s.warp.set(tw);
      s.lanes = 0;
      s.first = static_cast<thread_id>(t);
    } else if (s.warp.one() && !s.warp.is(tw)) {
      s.warp.set_several();
      s.other = static_cast<thread_id>(t);
    }
    if (!s.warp.one()) return;
    s.lanes |= 1u << (t % 32);
    if (epoch == 0 && s.epochs == 0) return; // every epoch of the set still 0
    if (s.epochs == 0) {
      s.epochs = static_cast<std::uint32_t>(epoch_pool.size()) + 1;
      epoch_pool.resize(epoch_pool.size() + 32, 0u);
    }
    epoch_pool[s.epochs - 1 + t % 32] = epoch;
  }
};

// ---- shared memory (shared_checks.cpp)

/// The accesses of one shared element in the current barrier interval.
struct shadow {
  std::uint32_t epoch = 0;        // the interval (worker epoch) the rest belongs to
  thread_id writer = no_thread;   // the last thread that wrote the element plainly
  std::uint32_t writer_epoch = 0; // its warp epoch then
  lane_set readers, atomics;      // plain reads and atomic updates since that write
};

struct log_entry {
  std::uint32_t offset, bytes;
  // old: the element's bytes before the thread's turn (up to 8 bytes), or where they are in the worker's `old` buffer
  // (larger elements); after an atomic update by the thread, the bytes that update left
  std::uint64_t old;
  bool atomic = false;       // the thread updated the element through ufx's atomic functions
  bool plain_write = false;  // and changed it otherwise before one of those updates
  bool init_checked = false; // an unchanged value was read (shared<A>::init_checked)
  bool atomic_reads = false; // an atomic update read the old value (all but atomic_exch)
};

// ---- the bytes a thread's turn started from (shared and global logs)

/// What an atomic's begin returns when there is no entry for its end to update.
inline constexpr std::uint32_t no_entry = ~std::uint32_t{0};

/// The `bytes` (at most 8) at p, as one number.
inline std::uint64_t bytes_at(const unsigned char* p, std::size_t bytes) {
  std::uint64_t v = 0;
  std::memcpy(&v, p, bytes);
  return v;
}

/// Keeps the `bytes` at p before a thread changes them: as the returned number (up to 8 bytes), or
/// appended to `buffer` (larger elements; the number is where they start).
[[gnu::always_inline]] inline std::uint64_t keep_old(const unsigned char* p, std::size_t bytes,
                                                     std::vector<unsigned char>& buffer) {
  if (bytes == 4) { // fixed sizes: no call to memcpy
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  std::uint64_t old = 0;
  if (bytes == 8) {
    std::memcpy(&old, p, 8);
  } else if (bytes < 8) {
    std::memcpy(&old, p, bytes);
  } else {
    old = buffer.size();
    buffer.insert(buffer.end(), p, p + bytes);
  }
  return old;
}

/// Whether the `bytes` at p differ from those keep_old kept as `old` (with `buffer`).
inline bool changed_since(const unsigned char* p, std::size_t bytes, std::uint64_t old,
                          const std::vector<unsigned char>& buffer) {
  if (bytes == 4) {
    std::uint32_t now;
    std::memcpy(&now, p, 4);
    return now != old;
  }
  if (bytes == 8) {
    std::uint64_t now;
    std::memcpy(&now, p, 8);
    return now != old;
  }
  if (bytes < 8) return bytes_at(p, bytes) != old;
  return std::memcmp(buffer.data() + old, p, bytes) != 0;
}

/// "writes " / "updates " / "reads ": what a thread's turn did to an element (the race messages).
inline const char* access_verb(bool wrote, bool atomic) { return wrote ? "writes " : atomic ? "updates " : "reads "; }

// ---- global memory (global_checks.cpp)

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

/// `global_ref::thread` of a set of readers: any thread of its interval.
inline constexpr thread_id any_thread = -1;
/// An access of a global element: the block (linear index), thread, barrier interval and warp epoch.
struct global_ref {
  std::int32_t block = 0;
  thread_id thread = any_thread;
  std::uint32_t interval = 0, warp_epoch = 0;
};
/// The plain reads or atomic updates of a global element since its last plain write: by threads of
/// one block (those of its latest interval as a lane_set), or of several.
struct global_set {
  group_id block;
  std::uint32_t interval = 0;
  lane_set lanes;
  global_ref first, other; // the first access; the first of another block than first's
  void clear() {
    block.clear();
    lanes.clear();
  }
};
/// The accesses of one global element in the current launch (or since the last grid_sync).
struct global_record {
  std::uint32_t grid_epoch = 0;
  bool written = false; // writer holds the last plain write
  global_ref writer;
  global_set readers, atomics;
};

/// A launch's global-memory checks: the records of every element its threads wrote or updated, or read through a view
/// that another argument may write (the blocks of a checked launch run in turn on one host thread).
struct global_checks {
  std::unordered_map<std::uintptr_t, global_record> records;
  // per location updated atomically: the latest release of each block that fenced before updating it (threadfence(),
  // then the atomic), which orders its accesses before the fence before those of a block updating it atomically later
  std::unordered_map<std::uintptr_t, std::vector<global_ref>> releases;
  std::uint32_t grid_epoch = 0; // grid_syncs passed (a cooperative launch)
  bool reads_race_free = true;  // no read-only argument overlaps an argument that may be written
};

/// True when no read-only argument's bytes overlap those of an argument the kernel may write: then
/// no read through a read-only argument races with anything in the launch (global_checks.cpp).
bool reads_race_free(const block_launch& l);

// ---- threads

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

// ---- what one worker keeps between blocks (and between launches on the same host thread)

struct worker {
  stack_pool stacks;
  std::vector<unsigned char> shared_storage;
  // the shared-memory checks: per byte offset, the segment that last logged it and its entry in
  // `log` while that stamp is current, its shadow, and whether a thread of this block has written it
  std::vector<std::uint32_t> stamp;
  std::vector<std::uint32_t> entry_of;
  std::vector<shadow> shadows;
  std::vector<unsigned char> init;
  std::vector<log_entry> log;
  std::vector<unsigned char> old;
  warp_clocks clocks;
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
    clocks.prepare((threads + 31) / 32);
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
    clocks.reset();
    return epoch;
  }
  void clear_logs() {
    log.clear();
    old.clear();
    global_log.clear();
    global_old.clear();
  }
};

worker& this_worker();

// ---- seeded thread order (UFX_SIM_SEED, ufx::set_sim_seed; block.cpp)

std::atomic<std::uint64_t>& seed_value();
/// The seed of the next launch's orders (0 when the order is not seeded).
std::uint64_t next_launch_seed(std::uint64_t seed);

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
  /// The order of block k's threads in a launch whose orders come from `launch_seed`.
  static order_rng for_block(std::uint64_t launch_seed, index_t k) {
    return order_rng{launch_seed ^ (static_cast<std::uint64_t>(k) * 0x9e3779b97f4a7c15ull)};
  }
};

} // namespace sim_impl
} // namespace ufx::detail

#endif // UFX_WITH_BOOST_CONTEXT
