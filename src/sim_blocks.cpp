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

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "ufx/detail/blocks.hpp"
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

struct shadow {
  std::uint32_t epoch = 0;
  std::int32_t writer = -1;  // thread that wrote the element plainly in this interval
  std::int32_t toucher = -1; // first thread that read or wrote it plainly in this interval
  std::int32_t atomic = -1;  // first thread that updated it through ufx's atomic functions
};

struct log_entry {
  std::uint32_t offset, bytes;
  std::uint64_t old;        // the element's bytes before the thread's turn (elements up to 8 bytes), or
                            // where they are in the worker's `old` buffer (larger elements); after an
                            // atomic update by the thread, the bytes that update left
  bool atomic = false;      // the thread updated the element through ufx's atomic functions
  bool plain_write = false; // and changed it otherwise before one of those updates
};

struct thread_slot {
  bctx::fiber fiber; // the thread's fiber while it is suspended
  bctx::fiber main;  // the scheduler, while the thread runs
  bool waiting = false, finished = false;
  int line = 0;
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
  std::vector<log_entry> log;
  std::vector<unsigned char> old;
  std::uint32_t segment = 0, epoch = 0;

  void prepare(std::size_t bytes) {
    if (shared_storage.size() < bytes + 16) shared_storage.resize(bytes + 16);
    if (stamp.size() < bytes + 1) {
      stamp.assign(bytes + 1, 0);
      entry_of.assign(bytes + 1, 0);
      shadows.assign(bytes + 1, shadow{});
      segment = epoch = 0;
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
  std::uint32_t next_epoch() {
    if (++epoch == 0) {
      std::fill(shadows.begin(), shadows.end(), shadow{});
      epoch = 1;
    }
    return epoch;
  }
};

worker& this_worker() {
  thread_local worker w;
  return w;
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
  bool aborting = false;
#  if UFX_ASAN_FIBERS
  const void* main_bottom = nullptr;
  std::size_t main_size = 0;
#  endif

  std::string thread_text(unsigned i) const { return dim3_text(unflatten(i, launch->config.block)); }

  /// "kernel 'k' on ufx::sim device 0, block (0, 0, 0), thread (1, 0, 0): " + what
  [[noreturn]] void fail(unsigned thread, const std::string& what) const {
    throw kernel_error(std::string(launch->label) + " on " + launch->where + ", block " + dim3_text(block_idx) +
                       ", thread " + thread_text(thread) + ": " + what);
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

  /// Reports thread `me`'s access `e` of an element against the first conflicting one in `s`.
  [[noreturn]] void race(unsigned me, const log_entry& e, bool wrote, const shadow& s) const {
    const auto id = static_cast<std::int32_t>(me);
    const auto other = [&](std::int32_t t) { return t >= 0 && t != id; };
    std::int32_t with = s.toucher;
    const char* did = " read";
    if (other(s.writer)) with = s.writer, did = " wrote";
    else if ((wrote || !e.atomic) && other(s.atomic)) with = s.atomic, did = " updated atomically";
    fail(me, std::string("shared-memory race: this thread ") +
                 (wrote      ? "writes "
                  : e.atomic ? "updates "
                             : "reads ") +
                 element_text(e.offset) + (!wrote && e.atomic ? " atomically" : "") + ", which thread " +
                 thread_text(static_cast<unsigned>(with)) + did +
                 " since the last sync() (put a t.sync() between the two accesses)");
  }

  /// After thread `me`'s turn: its writes and reads against the other threads' in this interval.
  void check_log(unsigned me) {
    worker& wk = *w;
    const auto id = static_cast<std::int32_t>(me);
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
      shadow& s = wk.shadows[e.offset];
      if (s.epoch != wk.epoch) s = shadow{wk.epoch, -1, -1, -1};
      // a plain write conflicts with another thread's access of any kind, an atomic update with
      // plain ones, a plain read with writes and atomic updates
      const auto other = [&](std::int32_t t) { return t >= 0 && t != id; };
      if (other(s.writer) || ((wrote || !e.atomic) && other(s.atomic)) || ((wrote || e.atomic) && other(s.toucher)))
          [[unlikely]]
        race(me, e, wrote, s);
      if (wrote || !e.atomic) {
        if (s.toucher < 0) s.toucher = id;
        if (wrote) s.writer = id;
      }
      if (e.atomic && s.atomic < 0) s.atomic = id;
    }
    wk.log.clear();
    wk.old.clear();
  }

  /// Runs thread i until it waits at a barrier or returns.
  void turn(unsigned i) {
    thread_slot& s = slots[i];
    s.waiting = false;
    current = i;
    state.segment = w->next_segment();
#  if UFX_ASAN_FIBERS
    void* fake = nullptr;
    __sanitizer_start_switch_fiber(&fake, w->stacks.bottom(i), w->stacks.bytes());
#  endif
    s.fiber = std::move(s.fiber).resume();
#  if UFX_ASAN_FIBERS
    __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#  endif
  }

  /// Ends every thread that has not finished, whatever it is doing: one waiting at a barrier is
  /// resumed and unwinds (sim_sync throws block_abort), one not yet started starts and returns
  /// without running the body. Afterwards every fiber has returned and the worker's log is empty.
  void abandon() {
    aborting = true;
    for (unsigned i = 0; i < slots.size(); ++i)
      if (slots[i].fiber && !slots[i].finished) turn(i);
    w->log.clear();
    w->old.clear();
  }

  void run() {
    const unsigned n = static_cast<unsigned>(launch->config.block.count());
    slots.clear();
    slots.resize(n);
    thread_pos p;
    p.block_idx = block_idx;
    p.block_dim = launch->config.block;
    p.grid_dim = launch->config.grid;
    unsigned char* dynamic = state.shared + launch->static_bytes;
    for (unsigned i = 0; i < n; ++i) {
      p.thread_idx = unflatten(i, launch->config.block);
      const thread t = thread_access::make(p, this, &state, state.shared, dynamic, launch->config.shared_bytes);
      slots[i].fiber = bctx::fiber(std::allocator_arg, pooled_stack{w->stacks.bottom(i), w->stacks.bytes()},
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
                                     s.finished = true;
#  if UFX_ASAN_FIBERS
                                     __sanitizer_start_switch_fiber(nullptr, main_bottom, main_size);
#  endif
                                     return std::move(s.main);
                                   });
    }
    try {
      for (;;) {
        for (unsigned i = 0; i < n; ++i) {
          if (slots[i].finished) continue;
          turn(i);
          check_log(i);
          if (slots[i].error) std::rethrow_exception(slots[i].error);
        }
        barrier();
        if (std::none_of(slots.begin(), slots.end(), [](const thread_slot& s) { return s.waiting; })) break;
        w->next_epoch();
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

  /// Every thread still running waits at a barrier, or none does: checks they agree.
  void barrier() const {
    const auto first_waiting = std::find_if(slots.begin(), slots.end(), [](const thread_slot& s) { return s.waiting; });
    if (first_waiting == slots.end()) return;
    const auto w_i = static_cast<unsigned>(first_waiting - slots.begin());
    for (unsigned i = 0; i < slots.size(); ++i) {
      if (slots[i].finished)
        fail(i, "barrier divergence: this thread returned while thread " + thread_text(w_i) +
                    " waits at t.sync() on line " + std::to_string(first_waiting->line) +
                    " (every thread of a block must reach each sync(); return after it, or guard the work "
                    "instead of returning early)");
      if (slots[i].line != first_waiting->line)
        fail(i, "barrier divergence: this thread waits at t.sync() on line " + std::to_string(slots[i].line) +
                    " while thread " + thread_text(w_i) + " waits at t.sync() on line " +
                    std::to_string(first_waiting->line) +
                    " (every thread of a block must reach the same sync() calls)");
    }
  }
};

void sim_sync(sim_block* b, int line) {
  if (!b) throw device_error("ufx::thread::sync(): this thread is not running in a kernel launch");
  if (b->aborting) throw block_abort{}; // a body that caught block_abort and waits again
  thread_slot& s = b->slots[b->current];
  s.waiting = true;
  s.line = line;
#  if UFX_ASAN_FIBERS
  __sanitizer_start_switch_fiber(&s.fake_stack, b->main_bottom, b->main_size);
#  endif
  s.main = std::move(s.main).resume();
#  if UFX_ASAN_FIBERS
  __sanitizer_finish_switch_fiber(s.fake_stack, &b->main_bottom, &b->main_size);
#  endif
  if (b->aborting) throw block_abort{};
}

void sim_shared_log(sim_block_state* state, std::size_t offset, std::size_t bytes) {
  auto* b = reinterpret_cast<sim_block*>(state); // state is sim_block's first member
  worker& w = *b->w;
  state->stamp[offset] = state->segment;
  w.entry_of[offset] = static_cast<std::uint32_t>(w.log.size());
  log_entry e{static_cast<std::uint32_t>(offset), static_cast<std::uint32_t>(bytes), 0};
  const unsigned char* p = state->shared + offset;
  if (bytes == 4) { // fixed sizes: no call to memcpy
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    e.old = v;
  } else if (bytes == 8) {
    std::memcpy(&e.old, p, 8);
  } else if (bytes < 8) {
    std::memcpy(&e.old, p, bytes);
  } else {
    e.old = w.old.size();
    w.old.insert(w.old.end(), state->shared + offset, state->shared + offset + bytes);
  }
  w.log.push_back(e);
}

namespace {
constexpr std::uint32_t no_entry = ~std::uint32_t{0};
std::uint64_t bytes_at(const unsigned char* p, std::size_t bytes) {
  std::uint64_t v = 0;
  std::memcpy(&v, p, bytes);
  return v;
}
} // namespace

std::uint32_t sim_shared_atomic_begin(sim_block_state* state, std::size_t offset, std::size_t bytes) {
  auto* b = reinterpret_cast<sim_block*>(state);
  worker& w = *b->w;
  if (bytes > 8) return no_entry;
  if (state->stamp[offset] != state->segment) sim_shared_log(state, offset, bytes); // reached through data()
  const std::uint32_t i = w.entry_of[offset];
  log_entry& e = w.log[i];
  // a member of a larger element (a struct) is logged as the element: its change is a write of it
  if (e.bytes != bytes) return no_entry;
  if (bytes_at(state->shared + offset, bytes) != e.old) e.plain_write = true; // changed since its last atomic
  e.atomic = true;
  return i;
}

void sim_shared_atomic_end(sim_block_state* state, std::uint32_t entry) {
  if (entry == no_entry) return;
  auto* b = reinterpret_cast<sim_block*>(state);
  log_entry& e = b->w->log[entry];
  e.old = bytes_at(state->shared + e.offset, e.bytes);
}

void run_blocks(const block_launch& l) {
  const dim3 g = l.config.grid;
  const auto blocks = static_cast<index_t>(g.count());
  if (blocks == 0 || l.config.block.count() == 0) return;
  const std::size_t shared_bytes = l.static_bytes + l.config.shared_bytes;
  const auto threads = static_cast<unsigned>(l.config.block.count());

  std::atomic<index_t> next{0};
  std::atomic<index_t> failed_at{blocks}; // the lowest failing block so far
  std::mutex m;
  std::exception_ptr first_error;

  auto work = [&](index_t, index_t) {
    worker& w = this_worker();
    w.stacks.reserve(threads, sim_fiber_stack_bytes());
    w.prepare(shared_bytes);
    sim_block b;
    b.launch = &l;
    b.w = &w;
    b.state.shared = w.shared_base();
    b.state.stamp = w.stamp.data();
    b.state.bytes = shared_bytes;
    // what the body's atomics on this thread read (restored when done)
    struct restore_current_block {
      sim_block_state* block = sim_current_block;
      ~restore_current_block() { sim_current_block = block; }
    } const restore;
    sim_current_block = &b.state;
    for (index_t k; (k = next.fetch_add(1)) < failed_at.load();) {
      b.block_idx = unflatten(k, g);
      b.aborting = false;
      std::memset(b.state.shared, 0xff, shared_bytes); // undefined contents: NaN / -1 make stale reads show
      w.next_epoch();
      try {
        b.run();
      } catch (...) {
        const std::lock_guard lock(m);
        if (k < failed_at.load()) {
          failed_at = k;
          first_error = std::current_exception();
        }
      }
    }
  };
  const int workers = static_cast<int>(std::min<index_t>(std::max(l.workers, 1), blocks));
  if (workers == 1) work(0, 1);
  else cpu_executor(host_t{}.threads(workers))(workers, work);
  if (first_error) std::rethrow_exception(first_error);
}

} // namespace ufx::detail

namespace ufx {
bool host_kernels_available() noexcept { return true; }
} // namespace ufx

#else // no Boost.Context: raw kernels cannot run on the host

namespace ufx {
bool host_kernels_available() noexcept { return false; }
} // namespace ufx

namespace ufx::detail {

struct sim_block {};

void sim_sync(sim_block*, int) {
  throw device_error("ufx::thread::sync(): this thread is not running in a kernel launch");
}
void sim_shared_log(sim_block_state*, std::size_t, std::size_t) {}
std::uint32_t sim_shared_atomic_begin(sim_block_state*, std::size_t, std::size_t) { return 0; }
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
