// The shared-memory checks (block.cpp's table lists every check of the sim):
// - races: in one barrier interval two threads touch an element of a ufx::shared array and one writes it. A thread's
//   first access of an element in the interval logs its bytes (sim_shared_log, reached inline from ufx::shared when the
//   byte's stamp is not current); when the turn ends, an element whose bytes changed was written by it (check_turn). As
//   a block's threads run one at a time between barriers, that is exact for every write that changes a value (one that
//   writes the value already there is not seen, and harmless). Updates through ufx's atomic functions (atomic.hpp) call
//   sim_shared_atomic_begin / _end, which mark the entry atomic and keep as its "old" bytes the value its last atomic
//   left, so a change after that (or before it, seen at the next atomic) is still a plain write. Atomic updates by two
//   threads do not race; an atomic update and another thread's plain read or write do. A thread's own plain reads of an
//   element it also updates atomically in the interval are not told apart from its atomics (only the first touch is
//   logged). Lanes of a warp are ordered by the syncwarps they pass together (worker.hpp's warp_clocks);
// - reads of shared memory no thread of the block has written: the interval's first is reported when the interval
//   ends, unless another thread writes the element later in it: then a barrier is probably missing between the write
//   and the read (the sim ran the reader first), and the error says so. Any other failure in the interval gives way
//   to the read, which came first and is the likelier cause (sim_block::advance).
#include "sim/block.hpp"

#include <string>

namespace ufx::detail {

#if UFX_WITH_BOOST_CONTEXT
namespace sim_impl {
namespace {

/// "uninitialised shared-memory read: this thread reads element (3) of shared array 0 (parameter 1)"
std::string uninitialised_read_text(const block_context& ctx, const shared_checks::uninit_read& u) {
  return std::string("uninitialised shared-memory read: this thread ") + (u.atomic ? "updates " : "reads ") +
         ctx.shared_element_text(u.offset);
}

// the reports: out of line and cold, so that the checks' loop stays small

/// The interval's first read `u` of an unwritten element, which thread me writes (or updates) later.
[[noreturn, gnu::cold, gnu::noinline]] void
report_missing_barrier(const block_context& ctx, const shared_checks::uninit_read& u, bool wrote, unsigned me) {
  ctx.fail(u.thread, uninitialised_read_text(ctx, u) + ", which thread " + ctx.thread_text(me) +
                         (wrote ? " writes" : " updates") +
                         " later in the same barrier interval: a barrier (t.sync()) is probably missing "
                         "between the write and the read (between barriers a block's threads run in no set "
                         "order, and shared memory starts undefined, as on a GPU)");
}

/// Thread me's access `e` races with thread `with`'s, which `did` (" wrote", " read", ...).
[[noreturn, gnu::cold, gnu::noinline]] void report_race(const block_context& ctx, const log_entry& e, bool wrote,
                                                        unsigned me, thread_id with, const char* did) {
  ctx.fail(me, std::string("shared-memory race: this thread ") + access_verb(wrote, e.atomic) +
                   ctx.shared_element_text(e.offset) + (!wrote && e.atomic ? " atomically" : "") + ", which thread " +
                   ctx.thread_text(static_cast<unsigned>(with)) + did +
                   " since the last sync() (put a t.sync() between the two accesses, or a t.syncwarp() naming "
                   "both lanes when they are of one warp)");
}

/// Thread me's access `e` (which `wrote`) of an element no thread of the block had written: notes the interval's first
/// read of one, reports the missing barrier when me writes an element another thread read before, and marks it written.
[[gnu::always_inline]] inline void check_initialised(shared_checks& sc, const block_context& ctx, const log_entry& e,
                                                     bool wrote, unsigned me) {
  shared_checks::uninit_read& u = sc.uninit;
  if (!wrote && e.init_checked && (!e.atomic || e.atomic_reads) && !u.pending) [[unlikely]]
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
    report_race(b.ctx, e, wrote, me, with, did);
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

} // namespace

void shared_checks::check_turn(sim_block& b, unsigned me) {
  worker& wk = *b.w;
  if (wk.log.empty()) return; // no shared access this turn (old is empty too)
  const std::uint32_t em = wk.clocks.epoch_of(me);
  for (const log_entry& e : wk.log) {
    const bool wrote = changed_since(b.state.shared + e.offset, e.bytes, e.old, wk.old) || e.plain_write;
    if (!init[e.offset]) check_initialised(*this, b.ctx, e, wrote, me);
    check_race(b, wk, e, wrote, me, em);
  }
  wk.log.clear();
  wk.old.clear();
}

void shared_checks::fail_uninitialised_read(const block_context& ctx) {
  uninit.pending = false;
  ctx.fail(uninit.thread,
           uninitialised_read_text(ctx, uninit) +
               ", which no thread of this block has written (shared memory starts undefined, as on a GPU)");
}

} // namespace sim_impl

void sim_shared_log(sim_block_state* state, std::size_t offset, std::size_t bytes, bool init_checked) {
  sim_impl::worker& w = *sim_impl::block_of(state)->w;
  state->stamp[offset] = state->segment;
  w.entry_of[offset] = static_cast<std::uint32_t>(w.log.size());
  const std::uint64_t old = sim_impl::keep_old(state->shared + offset, bytes, w.old);
  // the entry built in place (a temporary copied in stalled on its partly written bytes)
  sim_impl::log_entry& e = w.log.emplace_back();
  e.offset = static_cast<std::uint32_t>(offset);
  e.bytes = static_cast<std::uint32_t>(bytes);
  e.old = old;
  e.init_checked = init_checked;
}

std::uint32_t sim_shared_atomic_begin(sim_block_state* state, std::size_t offset, std::size_t bytes, bool reads) {
  sim_impl::worker& w = *sim_impl::block_of(state)->w;
  if (bytes > 8) return sim_impl::no_entry;
  // reached through data(), or first touched here: an atomic's element type is 4 or 8 bytes
  if (state->stamp[offset] != state->segment) sim_shared_log(state, offset, bytes, true);
  const std::uint32_t i = w.entry_of[offset];
  sim_impl::log_entry& e = w.log[i];
  // a member of a larger element (a struct) is logged as the element: its change is a write of it
  if (e.bytes != bytes) return sim_impl::no_entry;
  if (sim_impl::bytes_at(state->shared + offset, bytes) != e.old) e.plain_write = true; // changed since its last atomic
  if (!e.atomic) e.atomic_reads = reads;
  e.atomic = true;
  return i;
}

void sim_shared_atomic_end(sim_block_state* state, std::uint32_t entry) {
  if (entry == sim_impl::no_entry) return;
  sim_impl::log_entry& e = sim_impl::block_of(state)->w->log[entry];
  e.old = sim_impl::bytes_at(state->shared + e.offset, e.bytes);
}
#endif // UFX_WITH_BOOST_CONTEXT

} // namespace ufx::detail
