#pragma once
// The sim's block runner, shared by src/sim/ (private to libufx); block.cpp's head says how a block runs and lists
// every check. A `sim_block` is composed (no virtual calls), over its worker (worker.hpp), of pieces that each name
// the file implementing them: what the errors name (block_context), the threads as fibers (block_threads), the lanes
// waiting at warp operations (warp_meetings), the shared- and global-memory checks (shared_checks, global_checker).
#include "sim/worker.hpp"

#include <string>
#include <unordered_map>
#include <vector>

#if UFX_WITH_BOOST_CONTEXT

namespace ufx::detail {
namespace sim_impl {

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
  /// "kernel 'k' on ufx::sim device 0, block (0, 0, 0), thread (1, 0, 0): " + what
  [[noreturn]] void fail(unsigned thread, const std::string& what) const;
  /// The same with the thread's warp and lane: "..., thread (33, 0, 0) (warp 1, lane 1): " + what
  [[noreturn]] void fail_lane(unsigned thread, const std::string& what) const;
  /// Names the shared element at byte `offset`: "element (3, 4) of shared array 1 (parameter 2)".
  std::string shared_element_text(std::size_t offset) const;
  /// Names the global element at `addr`: "element (3, 4) of argument 1 (parameter 2)".
  std::string global_element_text(std::uintptr_t addr) const;
};

/// The block's threads, each a fiber on a stack of the worker's pool (fibers.cpp).
struct block_threads {
  std::vector<thread_slot> slots;
  unsigned current = 0;    // the thread running, or that ran last
  unsigned stack_base = 0; // the first of the worker's stacks this block's threads run on
  bool aborting = false;   // the block is being abandoned
#  if UFX_ASAN_FIBERS
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
#  if UFX_ASAN_FIBERS
    void* fake = nullptr;
    __sanitizer_start_switch_fiber(&fake, w.stacks.bottom(stack_base + i), w.stacks.bytes());
#  endif
    s.fiber = std::move(s.fiber).resume();
#  if UFX_ASAN_FIBERS
    __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#  endif
  }
  /// Ends every thread that has not finished, whatever it is doing (block.cpp's head says how); afterwards every
  /// fiber has returned and the worker's logs are empty.
  void abandon(worker& w, sim_block_state& state);
  /// Suspends the running thread until resumed (a barrier opened, its warp operation met); unwinds it if abandoned.
  [[gnu::always_inline]] inline void suspend(thread_slot& s) {
#  if UFX_ASAN_FIBERS
    __sanitizer_start_switch_fiber(&s.fake_stack, main_bottom, main_size);
#  endif
    s.main = std::move(s.main).resume();
#  if UFX_ASAN_FIBERS
    __sanitizer_finish_switch_fiber(s.fake_stack, &main_bottom, &main_size);
#  endif
    if (aborting) throw block_abort{};
  }
};

/// The lanes waiting at warp operations, and their meetings: syncwarp, shuffles, votes, matches, activemask (warp.cpp).
struct warp_meetings {
  unsigned waiting = 0; // lanes waiting at a warp operation

  /// Lets the lanes of each warp that have all reached their meeting go on; returns whether any did. When none can,
  /// some lane waits for a lane that will never come: reported.
  bool meet(sim_block& b);
};

/// The block's shared-memory checks (shared_checks.cpp).
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

/// The block's part in its launch's global-memory checks (global_checks.cpp).
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
  sim_impl::warp_meetings warps;
  sim_impl::shared_checks shared;
  sim_impl::global_checker global;
  sim_impl::order_rng rng{0};  // this block's seeded order
  std::vector<unsigned> order; // the current pass's order of threads

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

/// Runs a cooperative launch: every block resident at once (cooperative.cpp).
void run_cooperative(const block_launch& l, std::size_t shared_bytes, unsigned threads, global_checks* checks);

/// What the body's atomics on this host thread read (sim_current_block), restored when done.
struct current_block_scope {
  sim_block_state* saved = sim_current_block;
  ~current_block_scope() { sim_current_block = saved; }
};
} // namespace sim_impl

} // namespace ufx::detail

#endif // UFX_WITH_BOOST_CONTEXT
