// Warp meetings: a lane calling a warp operation (syncwarp, the shuffles, the votes, the matches, activemask) waits
// until every lane its mask names has reached one; then the operation takes place and each lane gets its result. The
// checks of masks, kinds, value sizes, shuffle widths and source lanes, and of lanes that can never meet, are here; a
// syncwarp advances the warp clocks (block.hpp's warp_clocks) that order the lanes' shared and global accesses.
#include "sim/block.hpp"
#include "sim/profile.hpp"

#include <string>

namespace ufx::detail {

#if UFX_WITH_BOOST_CONTEXT
namespace sim_impl {
namespace {

unsigned lowest_lane(unsigned bits) { return static_cast<unsigned>(__builtin_ctz(bits)); }

/// The meetings of one warp of a block: its lanes, and where they wait.
struct warp_room {
  sim_block& b;
  unsigned wi;   // the warp
  unsigned base; // its first thread
  unsigned have; // its lanes

  thread_slot& slot(unsigned l) const { return b.threads.slots[base + l]; }
  warp_call& call(unsigned l) const { return *slot(l).call; }
  std::string op_text(const warp_call& c) const {
    return std::string(warp_kind_name(c.kind)) + " on line " + std::to_string(c.line);
  }

  /// Lets each group of lanes that have all reached the same operation go on; returns whether any did.
  bool meet_operations(unsigned at_op) {
    bool met = false;
    for (unsigned todo = at_op; todo;) {
      const unsigned l = lowest_lane(todo);
      const warp_call& c = call(l);
      const unsigned group = c.mask & have;
      check_none_returned(l, c, group);
      const bool complete = all_arrived(l, c, group);
      todo &= ~(1u << l);
      if (!complete) continue;
      todo &= ~group;
      perform(group);
      met = true;
    }
    return met;
  }

  void check_none_returned(unsigned l, const warp_call& c, unsigned group) const {
    for (unsigned bits = group; bits; bits &= bits - 1) {
      const unsigned k = lowest_lane(bits);
      if (slot(k).state == slot_state::done)
        b.ctx.fail_lane(base + l, op_text(c) + ": its mask " + hex_mask(c.mask) + " names lane " + std::to_string(k) +
                                      ", which has returned (name only the lanes that take part: on a GPU the "
                                      "result is undefined)");
    }
  }

  /// Whether every lane of lane l's mask waits at an operation with the same mask; one of another kind is reported.
  bool all_arrived(unsigned l, const warp_call& c, unsigned group) const {
    for (unsigned bits = group; bits; bits &= bits - 1) {
      const unsigned k = lowest_lane(bits);
      const thread_slot& o = slot(k);
      if (o.state != slot_state::warp || o.call->kind == warp_kind::activemask || o.call->mask != c.mask) return false;
      if (o.call->kind != c.kind)
        b.ctx.fail_lane(base + l, op_text(c) + " with mask " + hex_mask(c.mask) + " meets lane " + std::to_string(k) +
                                      " at " + warp_kind_name(o.call->kind) + " on line " +
                                      std::to_string(o.call->line) +
                                      " (every lane of a mask must reach the same kind of operation)");
    }
    return true;
  }

  /// The warp's other lanes wait elsewhere: each activemask call's lanes (grouped by line) are active.
  void answer_activemask(unsigned at_mask) {
    for (unsigned todo = at_mask; todo;) {
      const warp_call& c = call(lowest_lane(todo));
      unsigned group = 0;
      for (unsigned bits = todo; bits; bits &= bits - 1)
        if (call(lowest_lane(bits)).line == c.line) group |= 1u << lowest_lane(bits);
      for (unsigned bits = group; bits; bits &= bits - 1) {
        const unsigned k = lowest_lane(bits);
        slot(k).call->result_mask = group;
        slot(k).state = slot_state::ready;
      }
      b.threads.at_warp -= static_cast<unsigned>(__builtin_popcount(group));
      todo &= ~group;
    }
  }

  void perform(unsigned group) {
    const warp_kind k = call(lowest_lane(group)).kind;
    const unsigned ballot = check_sizes(group);
    switch (k) {
    case warp_kind::syncwarp: syncwarp(group); break;
    case warp_kind::shfl_idx:
    case warp_kind::shfl_up:
    case warp_kind::shfl_down:
    case warp_kind::shfl_xor:
      for (unsigned bits = group; bits; bits &= bits - 1) shuffle(lowest_lane(bits), group);
      break;
    default:
      for (unsigned bits = group; bits; bits &= bits - 1) vote_or_match(call(lowest_lane(bits)), group, ballot);
    }
    for (unsigned bits = group; bits; bits &= bits - 1) slot(lowest_lane(bits)).state = slot_state::ready;
    b.threads.at_warp -= static_cast<unsigned>(__builtin_popcount(group));
  }

  /// Every lane of `group` passes a value of the same size; returns the lanes whose predicate is true.
  unsigned check_sizes(unsigned group) const {
    const unsigned lowest = lowest_lane(group);
    const warp_call& first = call(lowest);
    unsigned ballot = 0;
    for (unsigned bits = group; bits; bits &= bits - 1) {
      const unsigned l = lowest_lane(bits);
      const warp_call& c = call(l);
      if (c.pred) ballot |= 1u << l;
      if (c.bytes != first.bytes)
        b.ctx.fail_lane(base + l, std::string(warp_kind_name(first.kind)) + " on line " + std::to_string(c.line) +
                                      ": this lane's value has " + std::to_string(c.bytes) + " bytes, lane " +
                                      std::to_string(lowest) + "'s " + std::to_string(first.bytes) +
                                      " (every lane must pass the same type)");
    }
    return ballot;
  }

  /// The lanes' accesses before the syncwarp are ordered before each lane's after it: advance each
  /// lane's epoch, then each knows what any of them knew.
  void syncwarp(unsigned group) {
    warp_clocks& clocks = b.w->clocks;
    clocks.dirty[wi] = 1;
    std::uint32_t* kw = &clocks.know[wi * 1024];
    std::uint32_t joined[32] = {};
    for (unsigned bits = group; bits; bits &= bits - 1) {
      const unsigned l = lowest_lane(bits);
      ++kw[l * 32 + l];
      for (unsigned m = 0; m < 32; ++m) joined[m] = std::max(joined[m], kw[l * 32 + m]);
    }
    for (unsigned bits = group; bits; bits &= bits - 1) std::copy(joined, joined + 32, kw + lowest_lane(bits) * 32);
  }

  /// Lane l's shuffle: the value of its source lane, which must be in the block and in the mask.
  void shuffle(unsigned l, unsigned group) const {
    warp_call& c = call(l);
    const warp_kind k = c.kind;
    const unsigned width = c.width;
    if (width == 0 || width > 32 || (width & (width - 1)) != 0)
      b.ctx.fail_lane(base + l, op_text(c) + ": width " + std::to_string(static_cast<int>(width)) +
                                    " is not a power of two from 1 to 32");
    const unsigned seg = l & ~(width - 1), pos = l & (width - 1);
    unsigned src = l;
    if (k == warp_kind::shfl_idx) src = seg + c.arg % width;
    else if (k == warp_kind::shfl_up) src = c.arg <= pos ? l - c.arg : l;
    else if (k == warp_kind::shfl_down) src = c.arg < width - pos ? l + c.arg : l;
    else src = (l ^ c.arg) < seg + width ? (l ^ c.arg) & 31u : l;
    if (src != l) {
      if (!(have >> src & 1u))
        b.ctx.fail_lane(base + l, op_text(c) + " reads lane " + std::to_string(src) +
                                      ", which this block does not have (warp " + std::to_string(wi) + " has " +
                                      std::to_string(__builtin_popcount(have)) +
                                      " lanes): on a GPU the value is undefined");
      if (!(group >> src & 1u))
        b.ctx.fail_lane(base + l, op_text(c) + " reads lane " + std::to_string(src) + ", which is not in its mask " +
                                      hex_mask(c.mask) + ": on a GPU the value is undefined");
    }
    std::memcpy(c.result, call(src).value, sizeof c.result);
  }

  /// A lane's vote (all, any, eq, ballot over `ballot`) or match (lanes whose value has the same bits).
  void vote_or_match(warp_call& c, unsigned group, unsigned ballot) const {
    const warp_kind k = c.kind;
    const bool all = ballot == group, any = ballot != 0;
    if (k == warp_kind::all) c.result_pred = all;
    else if (k == warp_kind::any) c.result_pred = any;
    else if (k == warp_kind::eq) c.result_pred = all || !any;
    else if (k == warp_kind::ballot) c.result_mask = ballot;
    else {
      unsigned same = 0;
      for (unsigned o = group; o; o &= o - 1)
        if (std::memcmp(call(lowest_lane(o)).value, c.value, static_cast<std::size_t>(c.bytes)) == 0)
          same |= 1u << lowest_lane(o);
      if (k == warp_kind::match_any) {
        c.result_mask = same;
      } else {
        c.result_pred = same == group;
        c.result_mask = same == group ? group : 0u;
      }
    }
  }
};

/// No lane waiting at a warp operation can go on: names one and the lane it waits for.
[[noreturn]] void stuck(const sim_block& b) {
  const auto& slots = b.threads.slots;
  const unsigned n = b.threads.count();
  for (unsigned i = 0; i < n; ++i) {
    const thread_slot& s = slots[i];
    if (s.state != slot_state::warp || s.call->kind == warp_kind::activemask) continue;
    const warp_call& c = *s.call;
    const unsigned base = i / 32 * 32, group = c.mask & lanes_of(n, i / 32);
    for (unsigned bits = group; bits; bits &= bits - 1) {
      const unsigned k = lowest_lane(bits);
      const thread_slot& o = slots[base + k];
      const std::string head = std::string(warp_kind_name(c.kind)) + " on line " + std::to_string(c.line) +
                               " with mask " + hex_mask(c.mask) + " waits for lane " + std::to_string(k);
      if (o.state == slot_state::barrier)
        b.ctx.fail_lane(i, head + ", which waits at " + barrier_kind_name(o.barrier) + " on line " +
                               std::to_string(o.line) + " (the lanes of a mask must all reach the warp operation)");
      if (o.state == slot_state::warp && o.call->mask != c.mask)
        b.ctx.fail_lane(i, head + ", which waits at " + warp_kind_name(o.call->kind) + " on line " +
                               std::to_string(o.call->line) + " with mask " + hex_mask(o.call->mask) +
                               " (every lane must pass the same mask)");
    }
  }
  b.ctx.fail(0, "the block's threads wait for each other at warp operations that cannot meet");
}

} // namespace

bool meet_warps(sim_block& b) {
  const unsigned n = b.threads.count();
  bool progress = false, waiting_any = false;
  for (unsigned wi = 0; wi * 32 < n; ++wi) {
    warp_room room{b, wi, wi * 32, lanes_of(n, wi)};
    unsigned at_op = 0, at_mask = 0; // lanes waiting at an operation, at activemask
    for (unsigned l = 0; l < 32 && room.base + l < n; ++l) {
      const thread_slot& s = room.slot(l);
      if (s.state != slot_state::warp) continue;
      (s.call->kind == warp_kind::activemask ? at_mask : at_op) |= 1u << l;
    }
    if (!(at_op | at_mask)) continue;
    waiting_any = true;
    bool met = room.meet_operations(at_op);
    if (!met && at_mask) {
      room.answer_activemask(at_mask);
      met = true;
    }
    progress = progress || met;
  }
  if (!progress && waiting_any) stuck(b);
  return progress;
}

} // namespace sim_impl

void sim_warp(sim_block* b, warp_call& c) {
  using namespace sim_impl;
  if (!b)
    throw device_error(std::string("ufx::thread::") + warp_kind_name(c.kind) +
                       ": this thread is not running in a kernel launch");
  if (b->threads.aborting) throw block_abort{};
  const unsigned me = b->threads.current, lane = me % 32;
  if (!(c.mask >> lane & 1u))
    b->ctx.fail_lane(me, std::string(warp_kind_name(c.kind)) + " on line " + std::to_string(c.line) + ": its mask " +
                             hex_mask(c.mask) + " does not name this thread's lane " + std::to_string(lane) +
                             " (a lane calling a *_sync operation must be in its mask)");
  if (b->trace) b->trace->warp(*b, c);
  thread_slot& s = b->threads.slots[me];
  s.state = slot_state::warp;
  s.call = &c;
  ++b->threads.at_warp;
  b->threads.suspend(s);
}
#endif // UFX_WITH_BOOST_CONTEXT

} // namespace ufx::detail
