// The memory checks (block.cpp's table lists every check of the sim). A thread's first access of an element in its turn
// is logged (a sim_access: the element's bytes then), from ufx::shared inline when the byte's stamp is not current
// (sim_shared_log) and from a ufx::sim kernel's tracked arrays (sim_global_touch); when the turn ends, an element whose
// bytes changed was written by it (check_turn). As a block's threads run one at a time between barriers, and a launch
// with global checks runs its blocks in turn on one host thread (run_blocks), that is exact for every write that
// changes a value (one that writes the value already there is not seen, and harmless). Updates through ufx's atomic
// functions (atomic.hpp) call sim_atomic_begin / _end, which mark the entry atomic and keep as its "old" bytes the
// value its last atomic left, so a change after that (or before it, seen at the next atomic) is still a plain write.
// Atomic updates by two threads do not race; an atomic update and another thread's plain read or write do. A thread's
// own plain reads of an element it also updates atomically in the interval are not told apart from its atomics (only
// the first touch is logged). What the checks catch:
// - shared-memory races: in one barrier interval two threads touch an element of a ufx::shared array and one writes
//   it. Lanes of a warp are ordered by the syncwarps they pass together (block.hpp's warp_clocks);
// - reads of shared memory no thread of the block has written: the interval's first is reported when the interval
//   ends, unless another thread writes the element later in it: then a barrier is probably missing between the write
//   and the read (the sim ran the reader first), and the error says so. Any other failure in the interval gives way
//   to the read, which came first and is the likelier cause (sim_block::advance);
// - global-memory races between threads of a block (ordered by barriers and syncwarps) and between blocks (ordered
//   only by a cooperative launch's grid_sync, or a threadfence then an atomic on the same location that the other
//   block's atomic acquires), against the launch's record of each element;
// - reads of device memory unwritten since its allocation.
#include "sim/block.hpp"
#include "sim/profile.hpp"

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

// the reports: out of line and cold, so that the checks' loops stay small

/// "uninitialised shared-memory read: this thread reads element (3) of shared array 0 (parameter 1)", of the shared
/// byte or the global address `at`.
std::string uninitialised_read_text(const block_context& ctx, bool shared, std::uintptr_t at, bool atomic) {
  return std::string("uninitialised ") + (shared ? "shared" : "device") + "-memory read: this thread " +
         (atomic ? "updates " : "reads ") + (shared ? ctx.shared_element_text(at) : ctx.global_element_text(at));
}

/// Thread me's access `e` of the shared byte or global address `at`, which `wrote`, races with `with`'s, which `did`
/// (" wrote", " read", ...).
[[noreturn, gnu::cold, gnu::noinline]] void report_race(const block_context& ctx, bool shared, std::uintptr_t at,
                                                        const sim_access& e, bool wrote, unsigned me,
                                                        const global_ref& with, const char* did) {
  const bool same_block = with.block == ctx.block_linear;
  const char* verb = wrote ? "writes " : e.atomic ? "updates " : "reads ";
  ctx.fail(me, std::string(shared ? "shared" : "global") + "-memory race: this thread " + verb +
                   (shared ? ctx.shared_element_text(at) : ctx.global_element_text(at)) +
                   (!wrote && e.atomic ? " atomically" : "") + ", which thread " +
                   ctx.thread_text(static_cast<unsigned>(with.thread)) +
                   (same_block ? std::string() : " of block " + ctx.block_text(with.block)) + did +
                   (same_block ? " since the last sync() (put a t.sync() between the two accesses, or a "
                                 "t.syncwarp() naming both lanes when they are of one warp)"
                               : std::string(ctx.launch->config.cooperative
                                                 ? " since the last t.grid_sync() (threads of different blocks "
                                                   "are ordered by a grid_sync between the accesses)"
                                                 : " in this launch (threads of different blocks are not "
                                                   "ordered within a launch: split the kernel into two "
                                                   "launches, or launch it cooperatively and put a "
                                                   "t.grid_sync() between)")));
}

/// The interval's first read `u` of an unwritten element, which thread me writes (or updates) later.
[[noreturn, gnu::cold, gnu::noinline]] void
report_missing_barrier(const block_context& ctx, const shared_checks::uninit_read& u, bool wrote, unsigned me) {
  ctx.fail(u.thread, uninitialised_read_text(ctx, true, u.offset, u.atomic) + ", which thread " + ctx.thread_text(me) +
                         (wrote ? " writes" : " updates") +
                         " later in the same barrier interval: a barrier (t.sync()) is probably missing "
                         "between the write and the read (between barriers a block's threads run in no set "
                         "order, and shared memory starts undefined, as on a GPU)");
}

[[noreturn, gnu::cold, gnu::noinline]] void uninitialised_read(const block_context& ctx, unsigned me,
                                                               std::uintptr_t addr, bool atomic) {
  ctx.fail(me, uninitialised_read_text(ctx, false, addr, atomic) +
                   ", which nothing has written since it was allocated (a new device_array, empty_like or "
                   "device_array_like holds undefined values, as cudaMalloc's memory does)");
}

/// Thread me's access `e` (which `wrote`) of an element no thread of the block had written: notes the interval's first
/// read of one, reports the missing barrier when me writes an element another thread read before, and marks it written.
[[gnu::always_inline]] inline void check_initialised(shared_checks& sc, const block_context& ctx, const log_entry& e,
                                                     bool wrote, unsigned me) {
  shared_checks::uninit_read& u = sc.uninit;
  if (e.checked_read(wrote) && !u.pending) [[unlikely]]
    u = {e.offset, me, e.atomic, true}; // reported at the interval's end, or just below
  if ((wrote || e.atomic) && u.pending && u.thread != me && u.offset >= e.offset && u.offset < e.offset + e.bytes)
      [[unlikely]] {
    u.pending = false;
    report_missing_barrier(ctx, u, wrote, me);
  }
  if (wrote || e.atomic) std::fill_n(sc.init + e.offset, e.bytes, static_cast<unsigned char>(1));
}

/// Thread me's access `e` against the element's earlier accesses in the interval (a plain write conflicts with another
/// thread's access of any kind, an atomic update with plain ones, a plain read with writes and atomic updates, unless
/// a syncwarp orders them), then records it. Inline, as check_initialised: check_turn's loop is the checks' hot path.
[[gnu::always_inline]] inline void check_race(const sim_block& b, worker& wk, const log_entry& e, bool wrote,
                                              unsigned me, std::uint32_t em) {
  shadow& s = wk.shadows[e.offset];
  if (s.epoch != wk.epoch) {
    s.epoch = wk.epoch;
    s.writer = no_thread;
    s.readers.clear();
    s.atomics.clear();
  }
  const warp_clocks& clocks = wk.clocks;
  thread_id with = no_thread;
  const char* did = "";
  if (s.writer != no_thread && !clocks.ordered(s.writer, s.writer_epoch, me)) with = s.writer, did = " wrote";
  else if ((wrote || e.atomic) && (with = clocks.unordered(s.readers, me)) != no_thread) did = " read";
  else if ((wrote || !e.atomic) && (with = clocks.unordered(s.atomics, me)) != no_thread) did = " updated atomically";
  if (with != no_thread) [[unlikely]]
    report_race(b.ctx, true, e.offset, e, wrote, me, global_ref{b.ctx.block_linear, with}, did);
  if (wrote) {
    s.writer = static_cast<thread_id>(me);
    s.writer_epoch = em;
    s.readers.clear();
    s.atomics.clear();
  } else if (e.atomic) {
    wk.clocks.add(s.atomics, me, em);
  } else {
    wk.clocks.add(s.readers, me, em);
  }
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

  /// The conflicts of the shared check_race (a plain write with any access, ...), reported unless ordered.
  [[gnu::always_inline]] void check_race(const global_record& r) const {
    global_ref inner;
    const global_ref* with = nullptr;
    const char* did = "";
    if (r.written && !ordered_before(r.writer)) with = &r.writer, did = " wrote";
    else if ((wrote || e.atomic) && (with = set_conflict(r.readers, inner))) did = " read";
    else if ((wrote || !e.atomic) && (with = set_conflict(r.atomics, inner))) did = " updated atomically";
    if (with) [[unlikely]]
      report_race(b.ctx, false, e.addr, e, wrote, me, *with, did);
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

/// Logs the turn's first access of the `bytes` at p: its entry, built in place (a temporary copied in stalled on its
/// partly written bytes).
template <class Entry>
[[gnu::always_inline]] inline Entry& log_access(std::vector<Entry>& log, std::vector<unsigned char>& buffer,
                                                const unsigned char* p, std::size_t bytes, bool init_checked) {
  const std::uint64_t old = bytes <= 8 ? sim_access::number(p, bytes) : buffer.size(); // as sim_access::old says
  if (bytes > 8) buffer.insert(buffer.end(), p, p + bytes);
  Entry& e = log.emplace_back();
  e.old = old;
  e.bytes = static_cast<std::uint32_t>(bytes);
  e.init_checked = init_checked;
  return e;
}

} // namespace

void shared_checks::check_turn(sim_block& b, unsigned me) {
  worker& wk = *b.w;
  if (wk.log.empty()) return; // no shared access this turn (old is empty too)
  const std::uint32_t em = wk.clocks.epoch_of(me);
  for (const log_entry& e : wk.log) {
    const bool wrote = e.wrote(b.state.shared + e.offset, wk.old);
    if (!init[e.offset]) check_initialised(*this, b.ctx, e, wrote, me);
    check_race(b, wk, e, wrote, me, em);
  }
  wk.log.clear();
  wk.old.clear();
}

void shared_checks::fail_uninitialised_read(const block_context& ctx) {
  uninit.pending = false;
  ctx.fail(uninit.thread,
           uninitialised_read_text(ctx, true, uninit.offset, uninit.atomic) +
               ", which no thread of this block has written (shared memory starts undefined, as on a GPU)");
}

void global_checker::check_turn(sim_block& b, unsigned me) {
  worker& wk = *b.w;
  if (wk.global_log.empty()) return;
  const std::uint32_t em = wk.clocks.epoch_of(me), interval = wk.epoch;
  for (const global_entry& e : wk.global_log) {
    const auto* p = reinterpret_cast<const unsigned char*>(e.addr);
    const bool wrote = e.wrote(p, wk.global_old);
    // device memory that held the fill and was never written since its allocation
    if (e.held_fill && sim_memory_undefined(p, e.bytes)) {
      if (e.checked_read(wrote)) [[unlikely]]
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

} // namespace sim_impl

namespace sim_impl {
namespace {
/// Logs the running thread's first access in its turn of the shared element at `offset`.
void log_shared_access(sim_block_state* state, worker& w, std::size_t offset, std::size_t bytes, bool init_checked) {
  state->stamp[offset] = w.segment;
  w.entry_of[offset] = static_cast<std::uint32_t>(w.log.size());
  log_access(w.log, w.old, state->shared + offset, bytes, init_checked).offset = static_cast<std::uint32_t>(offset);
}
} // namespace
} // namespace sim_impl

void sim_shared_log(sim_block_state* state, std::size_t offset, std::size_t bytes, bool init_checked) {
  sim_block* const b = sim_impl::block_of(state);
  sim_impl::worker& w = *b->w;
  if (b->trace) [[unlikely]] { // every access comes here while traced (sim_block_state::segment)
    b->trace->shared(*b, offset, bytes, UFX_ACCESS_SITE());
    if (state->stamp[offset] == w.segment) return;
  }
  sim_impl::log_shared_access(state, w, offset, bytes, init_checked);
}

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

void sim_global_touch(const void* p, std::size_t bytes, bool read_only, bool init_checked, const void* site) {
  using namespace sim_impl;
  sim_block_state* const st = sim_current_block;
  if (!st) return;
  sim_block* const b = block_of(st);
  if (b->trace) [[unlikely]]
    b->trace->global(*b, p, bytes, read_only, site);
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
  global_entry& e = log_access(w.global_log, w.global_old, static_cast<const unsigned char*>(p), bytes, init_checked);
  e.addr = addr;
  e.held_fill = bytes <= 8 && global_checker::holds_fill(p, bytes);
  if (w.global_log.size() * 2 > w.global_table.size()) w.grow_global_table();
}

sim_access* sim_atomic_begin(sim_block_state* state, const void* ref, std::size_t bytes, bool reads) {
  using namespace sim_impl;
  sim_block* const b = block_of(state);
  worker& w = *b->w;
  const auto* p = static_cast<const unsigned char*>(ref);
  if (b->trace) b->trace->atomic(ref);
  if (bytes > 8) return nullptr;
  if (p >= state->shared && p < state->shared + state->bytes) { // the block's shared memory
    const auto offset = static_cast<std::size_t>(p - state->shared);
    // reached through data(), or first touched here: an atomic (of 2, 4 or 8 bytes) reads the element unless it is
    // atomic_exch, which begin_atomic tells apart
    if (state->stamp[offset] != w.segment) log_shared_access(state, w, offset, bytes, true);
    log_entry& e = w.log[w.entry_of[offset]];
    return e.begin_atomic(p, bytes, reads) ? &e : nullptr;
  }
  if (!b->global.launch) return nullptr;
  const std::uint32_t i = w.global_slot_of(reinterpret_cast<std::uintptr_t>(p));
  if (i == ~0u || !w.global_log[i].begin_atomic(p, bytes, reads)) return nullptr; // ~0u: not through a tracked array
  acquire_and_release(*b, reinterpret_cast<std::uintptr_t>(p));                   // release (after a fence) and acquire
  return &w.global_log[i];
}

void sim_atomic_end(sim_access* entry, const void* p) {
  if (entry) entry->old = sim_access::number(static_cast<const unsigned char*>(p), entry->bytes);
}
#endif // UFX_WITH_BOOST_CONTEXT

} // namespace ufx::detail
