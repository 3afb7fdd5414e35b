// The global-memory checks of ufx::sim's launches whose arguments are tracked arrays: races between threads of a block
// (ordered by barriers and syncwarps) and between blocks (ordered only by a cooperative launch's grid_sync, or a
// threadfence then an atomic on the same location that the other block's atomic acquires), and reads of device memory
// unwritten since its allocation. A thread's first access of an element in its turn is logged (sim_global_touch); when
// the turn ends, check_turn tells writes from reads by the bytes that changed and checks each against the launch's
// record. Such a launch runs its blocks in turn on one host thread (run_blocks), so a change is the running thread's.
#include "sim/block.hpp"

#include <string>

namespace ufx::detail {

#if UFX_WITH_BOOST_CONTEXT
namespace sim_impl {

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

namespace {

[[noreturn, gnu::cold, gnu::noinline]] void uninitialised_read(const block_context& ctx, unsigned me,
                                                               std::uintptr_t addr, bool atomic) {
  ctx.fail(me, std::string("uninitialised device-memory read: this thread ") + (atomic ? "updates " : "reads ") +
                   ctx.global_element_text(addr) +
                   ", which nothing has written since it was allocated (a new device_array, empty_like or "
                   "device_array_like holds undefined values, as cudaMalloc's memory does)");
}

/// One logged access of thread `me` of block `b` at the end of its turn, against the launch's record.
struct global_access {
  const sim_block& b;
  const global_checker& g;
  const global_entry& e;
  unsigned me;
  std::uint32_t interval, em; // the barrier interval, the thread's warp epoch
  bool wrote;

  /// Whether access `a` (of any block) is ordered before this one.
  bool ordered_before(const global_ref& a) const {
    if (a.block != b.ctx.block_linear) return g.released_to_us(a);
    return a.interval < interval || (a.interval == interval && b.w->clocks.ordered(a.thread, a.warp_epoch, me));
  }

  /// An access of `set` not ordered before this one, or null; `inner` holds it if a thread of this block's interval.
  const global_ref* set_conflict(const global_set& set, global_ref& inner) const {
    if (set.block.empty()) return nullptr;
    if (set.block.several()) { // ordered when the two it names were released to this block
      const bool first_ok = set.first.block == b.ctx.block_linear || g.released_to_us(set.first);
      const bool other_ok = set.other.block == b.ctx.block_linear || g.released_to_us(set.other);
      if (first_ok && other_ok) return nullptr;
      return !first_ok ? &set.first : &set.other;
    }
    if (!set.block.is(b.ctx.block_linear))
      return g.released_to_us(global_ref{set.block.index(), any_thread, set.interval, 0}) ? nullptr : &set.first;
    if (set.interval < interval) return nullptr;
    const thread_id t = b.w->clocks.unordered(set.lanes, me);
    if (t == no_thread) return nullptr;
    inner = global_ref{b.ctx.block_linear, t, interval, 0};
    return &inner;
  }

  /// The conflicts of shared_checks.cpp's check_race (a plain write with any access, ...), reported unless ordered.
  [[gnu::always_inline]] void check_race(const global_record& r) const {
    global_ref inner;
    const global_ref* with = nullptr;
    const char* did = "";
    if (r.written && !ordered_before(r.writer)) with = &r.writer, did = " wrote";
    else if ((wrote || e.atomic) && (with = set_conflict(r.readers, inner))) did = " read";
    else if ((wrote || !e.atomic) && (with = set_conflict(r.atomics, inner))) did = " updated atomically";
    if (with) [[unlikely]]
      report_race(*with, did);
  }

  [[noreturn, gnu::cold, gnu::noinline]] void report_race(const global_ref& with, const char* did) const {
    const bool same_block = with.block == b.ctx.block_linear;
    b.ctx.fail(me, std::string("global-memory race: this thread ") + access_verb(wrote, e.atomic) +
                       b.ctx.global_element_text(e.addr) + (!wrote && e.atomic ? " atomically" : "") +
                       ", which thread " + b.ctx.thread_text(static_cast<unsigned>(with.thread)) +
                       (same_block ? std::string() : " of block " + b.ctx.block_text(with.block)) + did +
                       (same_block ? " since the last sync() (put a t.sync() between the two accesses, or a "
                                     "t.syncwarp() naming both lanes when they are of one warp)"
                                   : std::string(b.ctx.launch->config.cooperative
                                                     ? " since the last t.grid_sync() (threads of different blocks "
                                                       "are ordered by a grid_sync between the accesses)"
                                                     : " in this launch (threads of different blocks are not "
                                                       "ordered within a launch: split the kernel into two "
                                                       "launches, or launch it cooperatively and put a "
                                                       "t.grid_sync() between)")));
  }

  void add_to(global_set& set) const {
    const global_ref mine{b.ctx.block_linear, static_cast<thread_id>(me), interval, em};
    if (set.block.empty()) {
      set.block.set(b.ctx.block_linear);
      set.interval = interval;
      set.lanes.clear();
      set.first = mine;
    } else if (set.block.one() && !set.block.is(b.ctx.block_linear)) {
      set.block.set_several();
      set.other = mine;
    } else if (set.block.is(b.ctx.block_linear) && set.interval < interval) {
      set.interval = interval;
      set.lanes.clear();
    }
    if (set.block.one()) b.w->clocks.add(set.lanes, me, em);
  }

  /// Records this access: a write replaces the element's history, a read or update joins it.
  [[gnu::always_inline]] void record(global_record& r) const {
    if (wrote) {
      r.written = true;
      r.writer = global_ref{b.ctx.block_linear, static_cast<thread_id>(me), interval, em};
      r.readers.clear();
      r.atomics.clear();
    } else if (e.atomic) {
      add_to(r.atomics);
    } else {
      add_to(r.readers);
    }
  }
};

} // namespace

void global_checker::check_turn(sim_block& b, unsigned me) {
  worker& wk = *b.w;
  if (wk.global_log.empty()) return;
  const std::uint32_t em = wk.clocks.epoch_of(me), interval = wk.epoch;
  for (const global_entry& e : wk.global_log) {
    const auto* p = reinterpret_cast<const unsigned char*>(e.addr);
    const bool wrote = changed_since(p, e.bytes, e.old, wk.global_old) || e.plain_write;
    // device memory that held the fill and was never written since its allocation
    if (e.held_fill && sim_memory_undefined(p, e.bytes)) {
      if (!wrote && e.init_checked && (!e.atomic || e.atomic_reads)) [[unlikely]]
        uninitialised_read(b.ctx, me, e.addr, e.atomic);
      if (wrote || e.atomic) sim_memory_defined(p, e.bytes);
    }
    global_record& r = launch->records[e.addr];
    if (r.grid_epoch != launch->grid_epoch) r = global_record{launch->grid_epoch, false, {}, {}, {}};
    const global_access access{b, *this, e, me, interval, em, wrote};
    access.check_race(r);
    access.record(r);
  }
  wk.global_log.clear();
  wk.global_old.clear();
}

namespace {

/// Lets block b acquire the releases made through location `addr`, and release its own when the running thread has
/// fenced: accesses before a threadfence are ordered before those of a block whose atomic there comes later.
void acquire_and_release(sim_block& b, std::uintptr_t addr) {
  auto& rel = b.global.launch->releases[addr];
  for (const global_ref& r : rel)
    if (r.block != b.ctx.block_linear) {
      auto [it, fresh] = b.global.acquired.emplace(r.block, r);
      if (!fresh && r.interval > it->second.interval) it->second = r;
    }
  const thread_slot& slot = b.threads.slots[b.threads.current];
  if (slot.fenced) {
    const global_ref mine{b.ctx.block_linear, static_cast<thread_id>(b.threads.current), slot.fence_interval, 0};
    auto same = std::find_if(rel.begin(), rel.end(), [&](const global_ref& r) { return r.block == mine.block; });
    if (same == rel.end()) rel.push_back(mine);
    else if (same->interval <= mine.interval) *same = mine;
  }
}

} // namespace
} // namespace sim_impl

void host_fence(int scope) {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  sim_block_state* const st = sim_current_block;
  if (!st || scope < 1) return; // a block-scope fence orders nothing between blocks
  sim_block* const b = sim_impl::block_of(st);
  if (!b->global.launch || b->threads.slots.empty()) return;
  sim_impl::thread_slot& s = b->threads.slots[b->threads.current];
  s.fenced = true;
  s.fence_interval = b->w->epoch;
}

void sim_global_touch(const void* p, std::size_t bytes, bool read_only, bool init_checked) {
  using namespace sim_impl;
  sim_block_state* const st = sim_current_block;
  if (!st) return;
  sim_block* const b = block_of(st);
  if (!b->global.launch) return;
  if (read_only && b->global.launch->reads_race_free) { // a read nothing in this launch can race with
    if (init_checked && bytes <= 8 && global_checker::holds_fill(p, bytes) && sim_memory_undefined(p, bytes))
      uninitialised_read(b->ctx, b->threads.current, reinterpret_cast<std::uintptr_t>(p), false);
    return;
  }
  worker& w = *b->w;
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  std::uint32_t& entry = w.global_slot_of(addr);
  if (entry != ~0u) return; // touched before in this turn
  entry = static_cast<std::uint32_t>(w.global_log.size());
  const std::uint64_t old = keep_old(static_cast<const unsigned char*>(p), bytes, w.global_old);
  global_entry& e = w.global_log.emplace_back(); // built in place, as sim_shared_log's
  e.addr = addr;
  e.bytes = static_cast<std::uint32_t>(bytes);
  e.old = old;
  e.read_only = read_only;
  e.init_checked = init_checked;
  e.held_fill = bytes <= 8 && global_checker::holds_fill(p, bytes);
  if (w.global_log.size() * 2 > w.global_table.size()) w.grow_global_table();
}

std::uint32_t sim_global_atomic_begin(sim_block_state* state, const void* p, std::size_t bytes, bool reads) {
  using namespace sim_impl;
  sim_block* const b = block_of(state);
  if (!b->global.launch || bytes > 8) return no_entry;
  worker& w = *b->w;
  const std::uint32_t i = w.global_slot_of(reinterpret_cast<std::uintptr_t>(p));
  if (i == ~0u) return no_entry; // not through a tracked array (a pointer argument)
  global_entry& e = w.global_log[i];
  if (e.bytes != bytes) return no_entry;
  if (bytes_at(static_cast<const unsigned char*>(p), bytes) != e.old) e.plain_write = true;
  if (!e.atomic) e.atomic_reads = reads;
  e.atomic = true;
  acquire_and_release(*b, reinterpret_cast<std::uintptr_t>(p)); // release (after a fence) and acquire
  return i;
}

void sim_global_atomic_end(sim_block_state* state, std::uint32_t entry) {
  if (entry == sim_impl::no_entry) return;
  sim_impl::global_entry& e = sim_impl::block_of(state)->w->global_log[entry];
  e.old = sim_impl::bytes_at(reinterpret_cast<const unsigned char*>(e.addr), e.bytes);
}
#endif // UFX_WITH_BOOST_CONTEXT

} // namespace ufx::detail
