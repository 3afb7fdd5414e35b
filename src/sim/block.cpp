// Raw kernels on the host: the block runner behind ufx::sim (and ufx::serial / ufx::host).
//
// A block's threads run as fibers, one at a time: thread 0 until it reaches sync() or returns, then thread 1, ... (a
// seeded order with UFX_SIM_SEED / ufx::set_sim_seed). When every thread still running waits at a barrier, the barrier
// opens and the next interval starts; lanes waiting at a warp operation go on once their mask's lanes have all arrived
// (warp.cpp). Blocks run in parallel, one worker per host thread with its own stacks and shared memory; a launch with
// global-memory checks runs its blocks in turn on one thread, a cooperative launch every block at once on the calling
// thread. Here, one file for scheduling blocks: the scheduler (barriers, thread and block order, seeds), the fibers and
// their stacks, cooperative launches and run_blocks; block.hpp: the pieces.
//
// Each check reports a ufx::kernel_error naming the kernel, the block and the thread (a lane's warp and lane too),
// and the seed when the order is seeded. Each check, what it catches [file: function]:
// - barrier divergence: a thread returned while others of its block wait at a barrier (sync, sync_count, _and, _or), or
//   threads of a block wait at different barriers (told apart by kind and source line) [block.cpp: sim_block::barrier]
// - grid_sync not cooperative: t.grid_sync() in a launch not made with ufx::cooperative [block.cpp: wait_at_barrier]
// - grid barrier divergence: a block's threads all returned while other blocks wait at a grid_sync, or blocks wait at
//   grid_syncs on different lines [block.cpp: check_grid_barrier]
// - shared-memory race: in one barrier interval two threads touch a shared element and one writes it (plain writes,
//   plain reads, atomic updates; lanes ordered by a syncwarp do not race) [memory_checks.cpp: check_race]
// - uninitialised shared read: a read of a shared element no thread of the block has written (reported at the
//   interval's end) [memory_checks.cpp: check_initialised, fail_uninitialised_read]
// - missing barrier: that read, and another thread writes the element later in the same interval [memory_checks.cpp:
//   check_initialised]
// - global race in a block: two threads of a block touch an element of a tracked array since the last sync(), one
//   writes it [memory_checks.cpp: global_access::check_race]
// - global race between blocks: threads of two blocks touch an element, one writes it, not ordered by a grid_sync nor
//   by a threadfence + atomic release the other block acquired [memory_checks.cpp: check_race, acquire_and_release]
// - uninitialised device read: a read of device memory nothing has written since its allocation (through a read-only
//   view: at the access) [memory_checks.cpp: check_turn, sim_global_touch]
// - lane not in its mask: a *_sync call whose mask does not name the calling lane [warp.cpp: sim_warp]
// - mask names a returned lane: a warp operation's mask names a lane that has returned [warp.cpp: check_none_returned]
// - warp operations differ: the lanes of one mask meet at different operations (shfl_sync and ballot_sync, ...)
//   [warp.cpp: all_arrived]
// - value sizes differ: the lanes of a shuffle or match pass values of different sizes [warp.cpp: check_sizes]
// - shuffle width: a width that is not a power of two from 1 to 32 [warp.cpp: warp_room::shuffle]
// - shuffle source lane: a shuffle reads a lane the block lacks, or one not in its mask [warp.cpp: warp_room::shuffle]
// - warp operations cannot meet: a lane waits for one at a barrier, or at an operation with another mask; or no lane of
//   any warp can go on [warp.cpp: stuck]
// - index out of range: an ndview or ufx::shared index outside the shape (a shape_error from the body) [messages.cpp:
//   ndview_out_of_range, sim_shared_out_of_range]
// - an exception from the body: any other exception the body throws; one that is not a std::exception is named so
//   [block.cpp: sim_block::advance]
// - a call outside a kernel: sync(), sync_count() or a warp operation by a thread that runs no launch (a device_error)
//   [block.cpp: wait_at_barrier; warp.cpp: sim_warp]
// - fiber stacks: the stacks of a launch's threads cannot be mapped (a device_error) [block.cpp: stack_pool::reserve]
//
// Elsewhere: a host pointer argument of a sim launch is refused before any block runs (detail/raw/args.hpp); the
// sim's device memory and streams are runtime.cpp's. How the checks see: memory_checks.cpp says how a write is told
// from a read (the bytes a thread's turn changed) and how atomics are told apart; block.hpp's warp_clocks order the
// lanes of a warp by the syncwarps they pass together.
//
// Whichever check fails, and whenever, the block is abandoned: every thread suspended at a barrier is resumed to unwind
// (sim_sync throws block_abort), and every thread not yet started starts and returns without running the body, so
// each fiber ends on its own stack before that stack is reused (a fiber left suspended would be unwound by
// Boost.Context's forced_unwind from its destructor, which the body's catch clauses must not swallow).
#include "sim/block.hpp"
#include "sim/profile.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "ufx/detail/cpu/executor.hpp"

namespace ufx::detail {
std::size_t sim_fiber_stack_bytes() {
  static const std::size_t bytes = [] {
    const char* env = std::getenv("UFX_SIM_STACK");
    const long long v = env ? std::atoll(env) : 0;
    return v >= 16384 ? static_cast<std::size_t>(v) : std::size_t{64} << 10;
  }();
  return bytes;
}
} // namespace ufx::detail

#if UFX_WITH_BOOST_CONTEXT

namespace ufx::detail {
namespace sim_impl {
namespace {

// ---- seeded thread order (UFX_SIM_SEED, ufx::set_sim_seed)

std::atomic<std::uint64_t>& seed_value() {
  static std::atomic<std::uint64_t> seed{[] {
    const char* env = std::getenv("UFX_SIM_SEED");
    return env && *env ? std::strtoull(env, nullptr, 0) : std::uint64_t{0};
  }()};
  return seed;
}
std::atomic<std::uint64_t> launch_count{0};

/// The seed of the next launch's orders (0 when the order is not seeded).
std::uint64_t next_launch_seed(std::uint64_t seed) {
  return seed ? seed ^ (launch_count.fetch_add(1) * 0xd1b54a32d192ed03ull) : 0;
}

worker& this_worker() {
  thread_local worker w;
  return w;
}

[[gnu::always_inline]] inline thread_slot& wait_at_barrier(sim_block* b, int line, barrier_kind kind, bool pred) {
  if (!b) throw device_error("ufx::thread::sync(): this thread is not running in a kernel launch");
  if (b->threads.aborting) throw block_abort{}; // a body that caught block_abort and waits again
  if (kind == barrier_kind::grid && !b->ctx.launch->config.cooperative)
    b->ctx.fail(b->threads.current,
                "t.grid_sync() on line " + std::to_string(line) +
                    " in a launch that is not cooperative (launch with k[ufx::cooperative(config)], whose "
                    "blocks are all resident at once, as CUDA's cudaLaunchCooperativeKernel)");
  thread_slot& s = b->threads.slots[b->threads.current];
  s.state = slot_state::barrier;
  s.line = line;
  s.barrier = kind;
  s.pred = pred;
  b->threads.suspend(s);
  return s;
}
} // namespace

// ---- the threads as fibers (Boost.Context: about 18 ns to create, run and switch a fiber on this machine class,
// against 3.3 us for a ucontext swapcontext pair, which makes a system call): each worker's pool of fiber stacks, the
// fibers' start and abandonment (turn and suspend, the switches, are inline in block.hpp)

void stack_pool::reserve(unsigned n, std::size_t bytes) {
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

void stack_pool::release() {
  if (base_) {
    UFX_ASAN_UNPOISON(base_, size_); // frames left on the stacks (asan.hpp)
    munmap(base_, size_);
  }
  base_ = nullptr;
}

void block_threads::start(sim_block& b) {
  const block_launch& l = *b.ctx.launch;
  worker& w = *b.w;
  const unsigned n = static_cast<unsigned>(l.config.block.count());
  slots.clear();
  slots.resize(n);
  at_warp = 0;
  thread_pos p;
  p.block_idx = b.ctx.block_idx;
  p.block_dim = l.config.block;
  p.grid_dim = l.config.grid;
  unsigned char* dynamic = b.state.shared + l.static_bytes;
  for (unsigned i = 0; i < n; ++i) {
    p.thread_idx = unflatten(i, l.config.block);
    const thread t = thread_access::make(b.state.shared, dynamic, l.config.shared_bytes, p, &b, &b.state);
    slots[i].fiber = bctx::fiber(std::allocator_arg, pooled_stack{w.stacks.bottom(stack_base + i), w.stacks.bytes()},
                                 [this, &l, i, t](bctx::fiber&& main) {
#  if defined(UFX_WITH_ASAN)
                                   __sanitizer_finish_switch_fiber(nullptr, &main_bottom, &main_size);
#  endif
                                   thread_slot& s = slots[i];
                                   s.main = std::move(main);
                                   try {
                                     // a thread first started by abandon() returns at once
                                     if (!aborting) l.run_thread(l.body, t);
                                   } catch (const block_abort&) {
                                   } catch (const bctx::detail::forced_unwind&) {
                                     throw; // Boost.Context unwinding the fiber: let it through
                                   } catch (...) {
                                     s.error = std::current_exception();
                                   }
                                   s.state = slot_state::done;
#  if defined(UFX_WITH_ASAN)
                                   __sanitizer_start_switch_fiber(nullptr, main_bottom, main_size);
#  endif
                                   return std::move(s.main);
                                 });
  }
}

void block_threads::abandon(worker& w, sim_block_state& state) {
  aborting = true;
  for (unsigned i = 0; i < slots.size(); ++i)
    if (slots[i].fiber && slots[i].state != slot_state::done) turn(w, state, i);
  w.clear_logs();
}

} // namespace sim_impl

using namespace sim_impl;

void sim_block::run_ready_threads() {
  const unsigned n = threads.count();
  for (;;) {
    if (ctx.seed) rng.permute(order, n);
    for (unsigned o = 0; o < n; ++o) {
      const unsigned i = ctx.seed ? order[o] : o;
      if (threads.slots[i].state != slot_state::ready) continue;
      threads.turn(*w, state, i);
      if (trace) trace->end_turn();
      shared.check_turn(*this, i);
      if (global.launch) global.check_turn(*this, i);
      if (threads.slots[i].error) std::rethrow_exception(threads.slots[i].error);
    }
    if (threads.at_warp == 0 || !meet_warps(*this)) break;
  }
}

bool sim_block::advance() {
  try {
    for (;;) {
      // every ready thread runs until it waits or returns; then the warps' meetings that are
      // complete take place, and their lanes run on; when none is left, the barrier opens
      try {
        run_ready_threads();
      } catch (...) {
        if (shared.uninit.pending) shared.fail_uninitialised_read(ctx); // it came first, and may be the cause
        throw;
      }
      if (shared.uninit.pending) shared.fail_uninitialised_read(ctx);
      const int opened = barrier();
      w->next_epoch(); // the barrier interval ends (at a grid_sync too)
      if (opened == 0) return false;
      if (opened == 2) return true;
    }
  } catch (const kernel_error&) {
    abandon();
    throw;
  } catch (const std::exception& e) {
    const unsigned failing = threads.current;
    const std::string what = e.what();
    abandon();
    ctx.fail(failing, what);
  } catch (...) {
    const unsigned failing = threads.current;
    abandon();
    ctx.fail(failing, "an exception that is not a std::exception");
  }
}

/// No thread is ready: all still running wait at a barrier, or none do. Checks they agree and gives each its barrier's
/// result. Returns 0 when none waits (the block is done), 1 when a block barrier opened, 2 when all wait at grid_sync.
int sim_block::barrier() {
  auto& slots = threads.slots;
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
      ctx.fail(i, "barrier divergence: this thread returned while thread " + ctx.thread_text(w_i) + " waits at " +
                      where() +
                      " (every thread of a block must reach each sync(); return after it, or guard the work "
                      "instead of returning early)");
    if (s.line != first_waiting->line || s.barrier != k)
      ctx.fail(i, std::string("barrier divergence: this thread waits at ") + barrier_kind_name(s.barrier) +
                      " on line " + std::to_string(s.line) + " while thread " + ctx.thread_text(w_i) + " waits at " +
                      where() + " (every thread of a block must reach the same sync() calls)");
    count += s.pred ? 1 : 0;
    if (k != barrier_kind::grid) s.state = slot_state::ready;
  }
  if (k == barrier_kind::grid) return 2;
  if (k != barrier_kind::sync) {
    const auto n = static_cast<int>(slots.size());
    const int result = k == barrier_kind::count ? count
                       : k == barrier_kind::all ? (count == n ? 1 : 0)
                                                : (count > 0 ? 1 : 0);
    for (thread_slot& s : slots) s.barrier_result = result;
  }
  return 1;
}

int sim_sync_predicate(sim_block* b, int line, barrier_kind kind, bool pred) {
  return wait_at_barrier(b, line, kind, pred).barrier_result;
}

void sim_sync(sim_block* b, int line) { wait_at_barrier(b, line, barrier_kind::sync, false); }

void sim_block::bind(worker& on, const launch_run& r, index_t k, unsigned char* memory, unsigned char* init) {
  w = &on;
  ctx = block_context{&r.l, unflatten(k, r.l.config.grid), static_cast<std::int32_t>(k), r.seed};
  rng = order_rng::for_block(r.launch_seed, k);
  state.shared = memory;
  state.stamp = on.stamp.data();
  state.bytes = r.shared_bytes;
  shared.init = init;
  global.launch = r.checks;
  global.acquired.clear();
  trace = r.trace;
  on.segment_flag = r.trace ? 0x80000000u : 0u;
  threads.aborting = false;
  fill_undefined(memory, r.shared_bytes);
  std::fill_n(init, r.shared_bytes, static_cast<unsigned char>(0));
}

namespace {

/// The blocks of a launch that is not cooperative, taken in turn by the workers; the first failure in block order wins.
struct block_queue {
  const launch_run& r;
  std::vector<unsigned> block_order; // seeded: the order blocks are taken in
  std::atomic<index_t> next{0};
  std::atomic<index_t> failed_at; // the lowest failing position in the blocks' order so far
  std::mutex m;
  std::exception_ptr first_error;

  /// One worker: takes blocks until none is left, or one before them has failed.
  void work() {
    worker& w = this_worker();
    w.stacks.reserve(r.threads, sim_fiber_stack_bytes());
    w.prepare(r.shared_bytes, r.threads);
    sim_block b;
    const current_block_scope restore;
    sim_current_block = &b.state;
    for (index_t pos; (pos = next.fetch_add(1)) < failed_at.load();) {
      b.bind(w, r, r.seed ? static_cast<index_t>(block_order[static_cast<std::size_t>(pos)]) : pos, w.shared_base(),
             w.init.data());
      w.next_epoch();
      try {
        b.run();
        if (b.trace) b.trace->end_block(b);
      } catch (...) {
        const std::lock_guard lock(m);
        if (pos < failed_at.load()) {
          failed_at = pos;
          first_error = std::current_exception();
        }
      }
    }
  }
};

// ---- a cooperative launch: every block resident at once, as on a GPU. The blocks run in turn on the calling thread,
// each until all its threads wait at a grid_sync (or have returned); when every thread of the grid waits at the same
// grid_sync, it opens (grid barrier divergence otherwise). Each block has its own shared memory and fiber stacks, so a
// block keeps its state while the others run.

using grid_blocks = std::vector<std::unique_ptr<sim_block>>;

/// Block k of the grid with its own shared memory, its threads started.
std::unique_ptr<sim_block> make_block(worker& w, const launch_run& r, unsigned k) {
  auto b = std::make_unique<sim_block>();
  b->shared.own_shared.resize(r.shared_bytes + 16);
  b->shared.own_init.resize(r.shared_bytes + 1);
  const auto p = reinterpret_cast<std::uintptr_t>(b->shared.own_shared.data());
  b->bind(w, r, k, b->shared.own_shared.data() + ((16 - p % 16) % 16), b->shared.own_init.data());
  b->threads.stack_base = k * r.threads;
  b->threads.start(*b);
  return b;
}

/// Where the grid's blocks stopped in a pass: the lowest at a grid_sync and the lowest whose threads all returned.
struct grid_pass {
  std::optional<unsigned> waiting, done;
};

/// Runs each block (in the seeded order) until its threads wait at a grid_sync or have returned.
grid_pass run_pass(grid_blocks& grid, std::uint64_t seed, order_rng& block_rng, std::vector<unsigned>& block_order) {
  const auto blocks = static_cast<unsigned>(grid.size());
  grid_pass pass;
  if (seed) block_rng.permute(block_order, blocks);
  for (unsigned o = 0; o < blocks; ++o) {
    const unsigned k = seed ? block_order[o] : o;
    sim_block& b = *grid[k];
    sim_current_block = &b.state;
    const bool at_grid = std::any_of(b.threads.slots.begin(), b.threads.slots.end(),
                                     [](const thread_slot& s) { return s.state != slot_state::done; }) &&
                         b.advance();
    std::optional<unsigned>& lowest = at_grid ? pass.waiting : pass.done;
    if (!lowest || k < *lowest) lowest = k;
  }
  return pass;
}

/// Every block waits at the same grid_sync (block `waiting` does); else reported.
void check_grid_barrier(const grid_blocks& grid, const grid_pass& pass) {
  const sim_block& first = *grid[*pass.waiting];
  if (pass.done)
    grid[*pass.done]->ctx.fail(0, "grid barrier divergence: the threads of this block returned while those of block " +
                                      format_dim3(first.ctx.block_idx) + " wait at t.grid_sync() on line " +
                                      std::to_string(first.grid_line()) +
                                      " (every thread of the grid must reach each grid_sync)");
  for (const auto& b : grid)
    if (b->grid_line() != first.grid_line())
      b->ctx.fail(0, "grid barrier divergence: this block's threads wait at t.grid_sync() on line " +
                         std::to_string(b->grid_line()) + " while those of block " + format_dim3(first.ctx.block_idx) +
                         " wait at t.grid_sync() on line " + std::to_string(first.grid_line()) +
                         " (every thread of the grid must reach the same "
                         "grid_sync calls)");
}

void run_cooperative(const launch_run& r) {
  const auto blocks = static_cast<unsigned>(r.l.config.grid.count());
  order_rng block_rng{r.launch_seed};
  std::vector<unsigned> block_order;
  worker& w = this_worker();
  w.stacks.reserve(blocks * r.threads, sim_fiber_stack_bytes());
  w.prepare(r.shared_bytes, r.threads);
  const current_block_scope restore;
  grid_blocks grid(blocks);
  for (unsigned k = 0; k < blocks; ++k) grid[k] = make_block(w, r, k);
  w.next_epoch();
  try {
    for (;;) {
      const grid_pass pass = run_pass(grid, r.seed, block_rng, block_order);
      if (!pass.waiting) { // every thread has returned
        if (r.trace)
          for (auto& b : grid) r.trace->end_block(*b);
        return;
      }
      check_grid_barrier(grid, pass);
      for (auto& b : grid) b->release_grid();
      if (r.checks) ++r.checks->grid_epoch; // every access so far is ordered before those to come
    }
  } catch (...) {
    // a failure: every block's fibers end on their own stacks before the error leaves
    for (auto& b : grid)
      if (!b->threads.slots.empty()) b->abandon();
    throw;
  }
}

} // namespace

void run_blocks(const block_launch& l) {
  const auto blocks = static_cast<index_t>(l.config.grid.count());
  if (blocks == 0 || l.config.block.count() == 0) return;
  std::unique_ptr<global_checks> checks;
  if (l.track_global) {
    checks = std::make_unique<global_checks>();
    checks->reads_race_free = reads_race_free(l);
  }
  const std::uint64_t seed = seed_value().load(std::memory_order_relaxed);
  const auto threads = static_cast<unsigned>(l.config.block.count());
  const std::unique_ptr<launch_trace> trace = begin_trace(l); // ufx::profile's, when it collects
  const launch_run r{
      l, l.static_bytes + l.config.shared_bytes, threads, checks.get(), seed, next_launch_seed(seed), trace.get()};
  if (l.config.cooperative) {
    run_cooperative(r);
    if (trace) end_trace(*trace);
    return;
  }
  block_queue q{r, {}, {0}, {blocks}, {}, {}};
  if (seed) order_rng{r.launch_seed}.permute(q.block_order, static_cast<unsigned>(blocks));
  // the global-memory checks tell a write from a read by the change a thread's turn makes, which
  // holds only while no other block runs meanwhile: a checked launch runs its blocks in turn (a traced one too)
  const int workers = checks || trace ? 1 : static_cast<int>(std::min<index_t>(std::max(l.workers, 1), blocks));
  if (workers == 1) q.work();
  else cpu_executor(host_t{}.threads(workers))(workers, [&q](index_t, index_t) { q.work(); });
  if (q.first_error) std::rethrow_exception(q.first_error);
  if (trace) end_trace(*trace);
}

} // namespace ufx::detail

namespace ufx {
bool host_kernels_available() noexcept { return true; }
std::uint64_t sim_seed() noexcept { return detail::sim_impl::seed_value().load(std::memory_order_relaxed); }
void set_sim_seed(std::uint64_t seed) noexcept {
  detail::sim_impl::seed_value().store(seed, std::memory_order_relaxed);
  detail::sim_impl::launch_count.store(0, std::memory_order_relaxed); // the seed's sequence of orders starts again
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
sim_access* sim_atomic_begin(sim_block_state*, const void*, std::size_t, bool) { return nullptr; }
void sim_atomic_end(sim_access*, const void*) {}
void sim_global_touch(const void*, std::size_t, bool, bool, const void*) {}
void run_blocks(const block_launch& l) {
  throw device_error(std::string(l.label) + " on " + l.where +
                     ": ufx was built without Boost.Context (Debian's libboost-context-dev), which runs a raw "
                     "kernel's block threads on the host; install it and rebuild ufx");
}

} // namespace ufx::detail
#endif
