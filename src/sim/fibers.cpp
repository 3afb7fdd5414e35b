// A block's threads as fibers (Boost.Context: about 18 ns to create, run and switch a fiber on this machine class,
// against 3.3 us for a ucontext swapcontext pair, which makes a system call): each worker's pool of fiber stacks, the
// fibers' start and abandonment (block_threads; turn and suspend, the switches, are inline in block.hpp), stack size.
#include "sim/block.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <string>

namespace ufx::detail {

#if UFX_WITH_BOOST_CONTEXT
namespace sim_impl {

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

worker& this_worker() {
  thread_local worker w;
  return w;
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
#  if UFX_ASAN_FIBERS
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
#  if UFX_ASAN_FIBERS
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
#endif // UFX_WITH_BOOST_CONTEXT

std::size_t sim_fiber_stack_bytes() {
  static const std::size_t bytes = [] {
    const char* env = std::getenv("UFX_SIM_STACK");
    const long long v = env ? std::atoll(env) : 0;
    return v >= 16384 ? static_cast<std::size_t>(v) : std::size_t{64} << 10;
  }();
  return bytes;
}

} // namespace ufx::detail
