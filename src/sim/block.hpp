#pragma once
// The sim's block runner, shared by src/sim/ (private to libufx); block.cpp's head says how a block runs and lists
// every check. What a worker (one per host thread running blocks) keeps: fiber stacks, the turn's logs of shared and
// global accesses, the warp clocks, the shadows of shared elements and the records of global ones, the threads' slots,
// the seeded order. A `sim_block` is composed (no virtual calls), over its worker, of pieces that each name the file
// implementing them: what the errors name (block_context), the threads as fibers (block_threads), the shared- and
// global-memory checks (shared_checks, global_checker).
#include "asan.hpp" // UFX_WITH_ASAN (GCC or clang): the fiber switches are told to ASan
#include "runtime_common.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <exception>
#include <string>
#include <unordered_map>
#include <vector>

#include "ufx/detail/device/thread.hpp"
#include "ufx/detail/raw/blocks.hpp"
#include "ufx/errors.hpp"

#if UFX_WITH_BOOST_CONTEXT
#  include <boost/context/fiber.hpp>

namespace ufx::detail {

/// A thread's first access of an element in its turn (shared memory: log_entry; a tracked array's: global_entry).
struct sim_access {
  // old: the element's bytes before the thread's turn (up to 8 bytes), or where they are in the worker's buffer
  // (larger elements); after an atomic update by the thread, the bytes that update left
  std::uint64_t old;
  std::uint32_t bytes;
  bool atomic = false;       // the thread updated the element through ufx's atomic functions
  bool plain_write = false;  // and changed it otherwise before one of those updates
  bool init_checked = false; // an unchanged value was read (shared<A>::init_checked)
  bool atomic_reads = false; // an atomic update read the old value (all but atomic_exch)

  /// The `n` bytes (at most 8) at p as one number (fixed sizes: no call to memcpy).
  [[gnu::always_inline]] static std::uint64_t number(const unsigned char* p, std::size_t n) {
    std::uint64_t v = 0;
    if (n == 4) std::memcpy(&v, p, 4);
    else if (n == 8) std::memcpy(&v, p, 8);
    else std::memcpy(&v, p, n);
    return v;
  }
  /// Whether the turn wrote the element, now at p: its bytes differ from `old` (kept with `buffer`), or it changed
  /// before one of the thread's atomics.
  bool wrote(const unsigned char* p, const std::vector<unsigned char>& buffer) const {
    return (bytes > 8 ? std::memcmp(buffer.data() + old, p, bytes) != 0 : number(p, bytes) != old) || plain_write;
  }
  /// Whether the turn read the element's value and did not write it: an uninitialised read if nothing had written it.
  bool checked_read(bool wrote) const { return !wrote && init_checked && (!atomic || atomic_reads); }
  /// An atomic update of the element at p begins: a change since the thread's last atomic was a plain write. False
  /// when the update is of a member of a larger element (a struct, logged as the element: its change is a write of it).
  /// One that reads the element makes an unchanged value a read whatever its size (a plain access of a 2-byte float16
  /// is not init_checked).
  bool begin_atomic(const unsigned char* p, std::size_t n, bool reads) {
    if (bytes != n) return false;
    if (number(p, n) != old) plain_write = true;
    if (!atomic) atomic_reads = reads;
    init_checked = init_checked || reads;
    atomic = true;
    return true;
  }
};

namespace sim_impl {

namespace bctx = boost::context;
class launch_trace; // profile.hpp

// ---- texts shared by the checks (messages.cpp; "(1, 2, 3)" is format_dim3's, src/messages.cpp)

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

/// The lanes warp `wi` of a block of n threads has (all 32 but in a block's last, partial warp).
inline unsigned lanes_of(unsigned n, unsigned wi) {
  const unsigned rest = n - wi * 32;
  return rest >= 32 ? 0xffffffffu : (1u << rest) - 1u;
}

/// Raised inside a fiber to unwind it when its block is abandoned (never reaches the user).
struct block_abort {};

// ---- fiber stacks (block.cpp)

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

// ---- the logs of a thread's turn (memory_checks.cpp)

/// The accesses of one shared element in the current barrier interval.
struct shadow {
  std::uint32_t epoch = 0;        // the interval (worker epoch) the rest belongs to
  thread_id writer = no_thread;   // the last thread that wrote the element plainly
  std::uint32_t writer_epoch = 0; // its warp epoch then
  lane_set readers, atomics;      // plain reads and atomic updates since that write
};

/// A shared element's entry: its byte offset. (24 bytes, as global_entry's 32: `old` leads.)
struct log_entry : sim_access {
  std::uint32_t offset;
};
/// A tracked array's element's: its address, and whether at the first touch it held the fill of memory nothing has
/// written.
struct global_entry : sim_access {
  std::uintptr_t addr;
  bool held_fill = false;
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
/// no read through a read-only argument races with anything in the launch (memory_checks.cpp).
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
#  if defined(UFX_WITH_ASAN)
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
  std::uint32_t segment_flag = 0; // while a launch is traced, the top bit: sim_block_state::segment's, no stamp's

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
  /// A new turn: its segment, with segment_flag (what sim_block_state::segment holds).
  std::uint32_t next_segment() {
    if (++segment == 0x80000000u) { // wrapped: no stamp may look current
      std::fill(stamp.begin(), stamp.end(), 0);
      segment = 1;
    }
    return segment | segment_flag;
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

// ---- seeded thread order (UFX_SIM_SEED, ufx::set_sim_seed; block.cpp)

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

/// What every block of a launch runs with (run_blocks).
struct launch_run {
  const block_launch& l;
  std::size_t shared_bytes;
  unsigned threads;
  global_checks* checks;
  std::uint64_t seed, launch_seed; // the order's seeds (0: threads in index order)
  launch_trace* trace = nullptr;   // ufx::profile's, or none
};

// ---- the pieces of a sim_block

/// Which launch and block run, and the wording of the errors that name them (messages.cpp).
struct block_context {
  const block_launch* launch = nullptr;
  dim3 block_idx;
  std::int32_t block_linear = 0;
  std::uint64_t seed = 0; // the order's seed (0: threads in index order)

  std::string thread_text(unsigned i) const;
  std::string block_text(std::int32_t linear) const;
  /// " (thread order: UFX_SIM_SEED=5)" when the order is seeded, else "".
  std::string seed_text() const;
  /// "kernel 'k' on ufx::sim device 0, block (0, 0, 0), thread (1, 0, 0): " + what; with `lane`, the thread's warp
  /// and lane after it: "..., thread (33, 0, 0) (warp 1, lane 1): " + what
  [[noreturn]] void fail(unsigned thread, const std::string& what, bool lane = false) const;
  [[noreturn]] void fail_lane(unsigned thread, const std::string& what) const { fail(thread, what, true); }
  /// Names the shared element at byte `offset`: "element (3, 4) of shared array 1 (parameter 2)".
  std::string shared_element_text(std::size_t offset) const;
  /// Names the global element at `addr`: "element (3, 4) of argument 1 (parameter 2)".
  std::string global_element_text(std::uintptr_t addr) const;
};

/// The block's threads, each a fiber on a stack of the worker's pool (block.cpp).
struct block_threads {
  std::vector<thread_slot> slots;
  unsigned current = 0;    // the thread running, or that ran last
  unsigned stack_base = 0; // the first of the worker's stacks this block's threads run on
  unsigned at_warp = 0;    // threads waiting at a warp operation (warp.cpp's meet_warps lets them meet)
  bool aborting = false;   // the block is being abandoned
#  if defined(UFX_WITH_ASAN)
  const void* main_bottom = nullptr;
  std::size_t main_size = 0;
#  endif

  unsigned count() const { return static_cast<unsigned>(slots.size()); }
  /// Makes the block's threads, each a fiber not yet started.
  void start(sim_block& b);
  /// Runs thread i until it waits at a barrier or a warp operation, or returns (inline: the fiber switch is hot).
  void turn(worker& w, sim_block_state& state, unsigned i) {
    thread_slot& s = slots[i];
    s.state = slot_state::ready;
    current = i;
    state.segment = w.next_segment();
#  if defined(UFX_WITH_ASAN)
    void* fake = nullptr;
    __sanitizer_start_switch_fiber(&fake, w.stacks.bottom(stack_base + i), w.stacks.bytes());
#  endif
    s.fiber = std::move(s.fiber).resume();
#  if defined(UFX_WITH_ASAN)
    __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#  endif
  }
  /// Ends every thread that has not finished, whatever it is doing (block.cpp's head says how); afterwards every
  /// fiber has returned and the worker's logs are empty.
  void abandon(worker& w, sim_block_state& state);
  /// Suspends the running thread until resumed (a barrier opened, its warp operation met); unwinds it if abandoned.
  [[gnu::always_inline]] inline void suspend(thread_slot& s) {
#  if defined(UFX_WITH_ASAN)
    __sanitizer_start_switch_fiber(&s.fake_stack, main_bottom, main_size);
#  endif
    s.main = std::move(s.main).resume();
#  if defined(UFX_WITH_ASAN)
    __sanitizer_finish_switch_fiber(s.fake_stack, &main_bottom, &main_size);
#  endif
    if (aborting) throw block_abort{};
  }
};

/// Lets the lanes of each warp that have all reached their meeting (syncwarp, shuffles, votes, matches, activemask) go
/// on; returns whether any did. When none can, some lane waits for a lane that will never come: reported (warp.cpp).
bool meet_warps(sim_block& b);

/// The block's shared-memory checks (memory_checks.cpp).
struct shared_checks {
  unsigned char* init = nullptr;                   // per shared byte: a thread of this block has written it
  std::vector<unsigned char> own_shared, own_init; // a cooperative launch's blocks: their own
  /// The interval's first read of a shared element no thread of the block had written (check_turn).
  struct uninit_read {
    std::uint32_t offset = 0;
    unsigned thread = 0;
    bool atomic = false, pending = false;
  } uninit;

  /// After thread `me`'s turn: its writes and reads against others' in this interval, and its reads of unwritten ones.
  void check_turn(sim_block& b, unsigned me);
  /// The interval's pending read of unwritten shared memory, as its error.
  [[noreturn]] void fail_uninitialised_read(const block_context& ctx);
};

/// The block's part in its launch's global-memory checks (memory_checks.cpp).
struct global_checker {
  global_checks* launch = nullptr;                       // the launch's checks, or none
  std::unordered_map<std::int32_t, global_ref> acquired; // other blocks' releases this block acquired

  /// After `me`'s turn: its accesses of tracked arrays against the launch's others, its reads of unwritten memory.
  void check_turn(sim_block& b, unsigned me);
  /// Whether another block's access `a` precedes this block's by a release it made (threadfence, then an atomic) that
  /// this block acquired (a later atomic on the same location). `a.thread` any_thread: readers of its whole interval.
  bool released_to_us(const global_ref& a) const {
    const auto it = acquired.find(a.block);
    if (it == acquired.end()) return false;
    const global_ref& r = it->second;
    return a.interval < r.interval || (a.interval == r.interval && a.thread == r.thread);
  }
  /// Whether the `bytes` at p hold the fill of memory nothing has written (as laid from 4-byte boundaries).
  static bool holds_fill(const void* p, std::size_t bytes) {
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    for (std::size_t j = 0; j < bytes; ++j)
      if (static_cast<const unsigned char*>(p)[j] != undefined_fill_byte(a + j)) return false;
    return true;
  }
};

} // namespace sim_impl

/// One block being run on a worker (block.cpp runs it).
struct sim_block {
  sim_block_state state;         // first: read inline by ufx::shared, and cast back by the entry points
  sim_impl::worker* w = nullptr; // the worker's logs and clocks, read on every access
  sim_impl::block_context ctx;
  sim_impl::block_threads threads;
  sim_impl::shared_checks shared;
  sim_impl::global_checker global;
  sim_impl::launch_trace* trace = nullptr; // the launch's ufx::profile tracer, or none
  sim_impl::order_rng rng{0};              // this block's seeded order
  std::vector<unsigned> order;             // the current pass's order of threads

  /// Becomes block k of launch r on worker w, its shared memory at `memory` (16-byte aligned) filled as unwritten, and
  /// `init` its map of bytes written (all 0).
  void bind(sim_impl::worker& w, const sim_impl::launch_run& r, index_t k, unsigned char* memory, unsigned char* init);
  /// Runs the block to its end (a launch that is not cooperative).
  void run() {
    threads.start(*this);
    advance();
  }
  /// Runs until all threads returned (false) or wait at a grid_sync (true); a failure abandons it, throws kernel_error.
  bool advance();
  /// The grid's threads all reached a grid_sync: this block's run on.
  void release_grid() {
    for (sim_impl::thread_slot& s : threads.slots) s.state = sim_impl::slot_state::ready;
  }
  int grid_line() const { return threads.slots.empty() ? 0 : threads.slots.front().line; }
  void abandon() { threads.abandon(*w, state); }

private:
  void run_ready_threads();
  int barrier();
};

namespace sim_impl {
/// The entry points' block: `state` is sim_block's first member.
inline sim_block* block_of(sim_block_state* state) { return reinterpret_cast<sim_block*>(state); }

/// What the body's atomics on this host thread read (sim_current_block), restored when done.
struct current_block_scope {
  sim_block_state* saved = sim_current_block;
  ~current_block_scope() { sim_current_block = saved; }
};
} // namespace sim_impl

} // namespace ufx::detail

#endif // UFX_WITH_BOOST_CONTEXT
