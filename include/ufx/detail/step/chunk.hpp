#pragma once
// Data larger than the device (docs/streams.md): a call on a device target whose host operands would not fit its free
// memory (or an explicit budget, `ufx::chunked(t, bytes)`) runs in chunks along its outermost loop dimension, two in
// flight on two streams through pinned staging (chunk_ring); operands broadcast along it are staged once.
#include <algorithm>
#include <type_traits>
#include <vector>
#include <stdexcept>
#include <functional>
#include <cstddef>
#include <cstring>
#include <limits>
#include <string>
#include <tuple>

#include "ufx/detail/core/tuple.hpp"
#include "ufx/detail/step/adapt.hpp"
#include "ufx/detail/core/broadcast.hpp"
#include "ufx/detail/lib/host_memory.hpp"
#include "ufx/detail/core/fail.hpp"
#include "ufx/detail/step/place.hpp"
#include "ufx/detail/lib/runtime.hpp"
#include "ufx/detail/step/transfer.hpp"
#include "ufx/errors.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// Whether an operand with `lead` loop dimensions (its rank, less its core rank for a gufunc) runs along loop dimension
/// 0 of a loop of rank `loop_rank`: not when it broadcasts along it (fewer loop dimensions, or extent 1 there).
template <class Op>
bool along_rows(const Op& op, int lead, int loop_rank) {
  if constexpr (is_scalar_operand<Op>::value) return false;
  else return lead == loop_rank && lead > 0 && op.view.extent(0) != 1;
}

/// Rows [b, e) of loop dimension 0 of an operand with `lead` loop dimensions; whole where it broadcasts along it. By
/// default all of its dimensions are the loop's (a kept dimension 0 of a reduction's output, a scan's rows).
template <class Op>
Op slice_rows(const Op& op, index_t b, index_t e, int lead = Op::rank, int loop_rank = Op::rank) {
  if constexpr (is_scalar_operand<Op>::value) {
    return op;
  } else {
    if (!along_rows(op, lead, loop_rank)) return op;
    auto shape = op.view.shape();
    const auto strides = op.view.strides();
    shape[0] = e - b;
    Op s = op;
    s.view = decltype(op.view)(op.view.data() + b * strides[0], shape, strides);
    return s;
  }
}

/// f(op, along) for each array operand (not a scalar) of the tuples `tuples` refers to (std::tie), with `along`:
/// whether it runs along loop dimension 0 (along_rows, with lead(k) loop dimensions, k counting on across the tuples).
template <class Lead, class Tuples, class F>
void each_array_operand(const Lead& lead, int loop_rank, const Tuples& tuples, F&& f) {
  int k = 0;
  auto one = [&]<class Op>(Op& op) {
    if constexpr (!is_scalar_operand<std::remove_const_t<Op>>::value) f(op, along_rows(op, lead(k), loop_rank));
    ++k;
  };
  std::apply([&](auto&... ops) { (std::apply([&](auto&... op) { (one(op), ...); }, ops), ...); }, tuples);
}

/// Rows of loop dimension 0 per chunk for a call staging the operands of the tuples `ops` (lead(k) loop dimensions
/// each, k counting on across the tuples) to `tag`'s device, plus `extra_per_row` bytes a row and `extra_fixed`: the
/// whole loop when the call fits, or when nothing in `ops` is staged along the rows. An operand staged takes bytes per
/// row (sliced) or per chunk (broadcast along dimension 0). Throws value_error when one row does not fit the budget.
template <class Tag, class Lead, class... Ops>
index_t rows_per_chunk(const Tag& tag, const dims& loop, const Lead& lead, std::size_t extra_per_row,
                       std::size_t extra_fixed, const Ops&... ops) {
  const index_t rows = loop[0];
  std::size_t per_row = 0, fixed = 0;
  each_array_operand(lead, loop.rank, std::tie(ops...), [&]<class Op>(const Op& op, bool along) {
    if (op.space == tag.space() || op.view.size() == 0) return;
    const auto bytes = static_cast<std::size_t>(op.view.size()) * sizeof(typename Op::value_type);
    if (along) per_row += bytes / static_cast<std::size_t>(rows);
    else fixed += bytes;
  });
  if (per_row == 0) return rows;
  per_row += extra_per_row;
  fixed += extra_fixed;
  const std::size_t need = per_row * static_cast<std::size_t>(rows) + fixed;
  std::size_t budget = tag.chunk_bytes;
  const bool automatic = budget == 0;
  if (automatic) {
    const device_info d = tag.space().runtime->info(tag.ordinal());
    budget = d.free_memory - d.free_memory / 8; // a margin for the call's other allocations
    if (need <= budget) return rows;
  }
  if (per_row + fixed > budget)
    fail<value_error>("one chunk of the outermost loop dimension needs " + std::to_string(per_row + fixed) +
                      " bytes of device memory (" + std::to_string(per_row) + " per row, " + std::to_string(fixed) +
                      " for operands that broadcast along it), more than the " +
                      (automatic ? "device's free memory (" + std::to_string(budget) + " bytes usable)"
                                 : "chunk budget of " + std::to_string(budget) + " bytes"));
  return std::min<index_t>(rows, static_cast<index_t>((budget - fixed) / per_row));
}

/// Copies host view src into host view dst: dense alike, a memcpy by `threads` host threads (staging_threads: several
/// where copies are DMA, so that packing keeps up with the link), with non-temporal stores where `streaming`
/// (staging_streams), else element by element on the calling thread.
template <class T, int R>
void staging_copy(const ndview<T, R>& dst, const ndview<const T, R>& src, int threads, bool streaming) {
  if (dst.size() == 0) return;
  if (is_dense(dst) && is_dense(src) && strides_like(dst) == strides_like(src)) {
    host_copy(static_cast<void*>(dst.data()), src.data(), sizeof(T) * static_cast<std::size_t>(dst.size()), threads,
              streaming);
    return;
  }
  copy_on(serial, dst, src);
}

/// The pipeline a chunked call runs through (docs/streams.md): `slots` streams of the target's device, each with one
/// pinned host staging area. Chunk c goes to slot c % slots: its host inputs are packed into the slot's staging area (a
/// dense pinned slice is used as it is), and the call queued on the slot's stream copies them in, computes and copies
/// its results back into staging, while the host packs the next chunk for the other slot. Before a slot is reused, and
/// at the end, the host waits for it and unpacks its results into the destinations. Staging areas come from a cache of
/// pinned blocks kept across calls (pinned_staging_take / give); each slot keeps its device memory for the whole loop
/// too (a stream arena, runtime.hpp), so the loop itself allocates nothing.
template <class Tag>
class chunk_ring {
public:
  /// `slots` streams, each with `staging_bytes` of pinned staging and as much device memory, plus `device_extra`.
  chunk_ring(const Tag& tag, int slots, std::size_t staging_bytes, std::size_t device_extra = 0)
      : tag_(tag), slots_(slots), threads_(staging_threads(*tag.space().runtime)),
        streaming_(staging_streams(*tag.space().runtime)) {
    const memory_space space = tag.space();
    try {
      for (int s = 0; s < slots; ++s) {
        slot& sl = slot_[s];
        sl.bytes = staging_bytes;
        sl.base = static_cast<char*>(pinned_staging_take(sl.bytes));
        sl.stream = space.runtime->create_stream(tag.ordinal());
        // the slot's device memory for the whole loop: each chunk's staged operands and small temporaries (a device too
        // full for it leaves the chunks to allocate from the pool)
        const std::size_t arena_bytes = staging_bytes + device_extra + arena_slack;
        try {
          sl.arena = device_malloc_async(space, arena_bytes, sl.stream);
          stream_arena_attach(sl.stream, sl.arena, arena_bytes);
        } catch (const device_error&) {
          sl.arena = nullptr;
        }
      }
    } catch (...) {
      release();
      throw;
    }
  }
  chunk_ring(const chunk_ring&) = delete;
  chunk_ring& operator=(const chunk_ring&) = delete;
  ~chunk_ring() { release(); }

  Tag on(int s) const {
    Tag t = tag_;
    t.stream_handle = slot_[s].stream;
    return t;
  }
  void acquire(int s) {
    slot& sl = slot_[s];
    tag_.space().runtime->stream_synchronize(tag_.ordinal(), sl.stream);
    for (auto& u : sl.unpack) u();
    sl.unpack.clear();
    sl.used = 0;
    if (sl.arena) stream_arena_reset(sl.stream); // its chunk's device memory is free again
  }
  void finish() {
    for (int s = 0; s < slots_; ++s) acquire(s);
  }

  /// Input `op` as slot s's call reads it: host data as a dense pinned slice (staged unless one), else as it is.
  template <class Op>
  Op input(int s, const Op& op) {
    if constexpr (is_scalar_operand<Op>::value) {
      return op;
    } else {
      if (!needs_staging(op)) return op;
      using V = typename Op::value_type;
      ndview<V, Op::rank> dst(take<V>(s, op.view.size()), op.view.shape());
      staging_copy(dst, op.view, threads_, streaming_);
      Op r = op;
      r.view = ndview<const V, Op::rank>(dst);
      r.keep = nullptr;
      return r;
    }
  }
  /// Output `op` as slot s's call writes it: a dense pinned slice, unpacked into `op` at the slot's next acquire.
  template <class Op>
  Op output(int s, const Op& op) {
    if (!needs_staging(op)) return op;
    using V = typename Op::value_type;
    ndview<V, Op::rank> tmp(take<V>(s, op.view.size()), op.view.shape());
    slot_[s].unpack.push_back([final_view = op.view, tmp, t = threads_, st = streaming_] {
      staging_copy(final_view, ndview<const V, Op::rank>(tmp), t, st);
    });
    Op r = op;
    r.view = tmp;
    return r;
  }

  /// Staging bytes one operand of `elements` elements of V takes (with alignment).
  template <class V>
  static std::size_t staging_size(index_t elements) {
    return (static_cast<std::size_t>(elements) * sizeof(V) + 63) / 64 * 64;
  }

private:
  template <class Op>
  static bool needs_staging(const Op& op) {
    if (!op.space.is_host() || op.view.size() == 0) return false;
    const std::size_t bytes = static_cast<std::size_t>(op.view.size()) * sizeof(typename Op::value_type);
    return !(op.view.is_contiguous() && is_pinned(op.view.data(), bytes));
  }
  template <class V>
  V* take(int s, index_t n) {
    slot& sl = slot_[s];
    const std::size_t b = staging_size<V>(n);
    if (sl.used + b > sl.bytes) throw std::logic_error("ufx: chunk staging area too small"); // sized by the caller
    V* p = reinterpret_cast<V*>(sl.base + sl.used);
    sl.used += b;
    return p;
  }

  void release() noexcept {
    const memory_space space = tag_.space();
    for (int s = 0; s < slots_; ++s) {
      slot& sl = slot_[s];
      if (sl.arena) {
        stream_arena_detach(sl.stream);
        device_free_async(space, sl.arena, sl.stream); // after the stream's work
      }
      if (sl.stream) space.runtime->destroy_stream(tag_.ordinal(), sl.stream); // waits for its work
      if (sl.base) pinned_staging_give(sl.base, sl.bytes);
      sl = slot{};
    }
  }

  /// A slot's device bytes beyond operands and `device_extra`: allocation alignment (256 bytes each, 64 in staging).
  static constexpr std::size_t arena_slack = std::size_t{4} << 10;

  struct slot {
    void* stream = nullptr;
    char* base = nullptr;
    std::size_t bytes = 0, used = 0;
    void* arena = nullptr;
    std::vector<std::function<void()>> unpack;
  };
  Tag tag_;
  int slots_;
  int threads_;    // host threads packing and unpacking staging
  bool streaming_; // ...with non-temporal stores
  slot slot_[2];
};

/// How a chunked call splits loop dimension 0 (`total` rows, at most `rows` a chunk fits): `slots` chunks in flight, of
/// `per` rows each (the last may be shorter), `count` of them.
struct chunk_split {
  index_t total, per, count;
  int slots;
  chunk_split(index_t total_rows, index_t rows)
      : total(total_rows), per(rows >= 2 ? rows / 2 : rows), count((total_rows + per - 1) / per),
        slots(rows >= 2 ? 2 : 1) {}
  index_t begin(index_t c) const { return c * per; }
  index_t end(index_t c) const { return std::min(total, (c + 1) * per); }
};

/// Pinned staging bytes a slot needs for the operands of `ops` that run along loop dimension 0 and live in host memory:
/// `per` rows of each. `lead(k)` is operand k's number of loop dimensions.
template <class Tag, class Ops, class Lead>
std::size_t row_staging_bytes(const Ops& ops, const Lead& lead, const dims& loop, index_t per) {
  std::size_t bytes = 0;
  each_array_operand(lead, loop.rank, std::tie(ops), [&]<class Op>(const Op& op, bool along) {
    if (along && op.space.is_host())
      bytes += chunk_ring<Tag>::template staging_size<typename Op::value_type>(per * (op.view.size() / loop[0]));
  });
  return bytes;
}

/// The one chunk engine (run_chunked, reduce_chunked and scan_chunked all run here), after the stream's queued work:
/// the inputs `ins` that broadcast along loop dimension 0 are staged once; then chunk c of `split` runs on the ring's
/// slot s (c % slots) as `chunk(ring, s, c, b, e, in)`, `in` holding rows [b, e) of each input as the slot's call reads
/// them. The callback queues the chunk's call on `ring.on(s)` and routes its outputs through `ring.output(s, ...)`.
/// `out_staging`: the staging a slot needs for those outputs; `device_extra`: device memory a chunk needs beyond its
/// operands (a reduction's partials). Returns when every chunk's results are unpacked into their destinations.
template <class Tag, class Ins, class Lead, class Chunk>
void run_pipelined(const Tag& tag, const dims& loop, const chunk_split& split, const Ins& ins, const Lead& lead,
                   std::size_t out_staging, std::size_t device_extra, Chunk&& chunk) {
  const Tag t = after_stream(tag); // a chunked call runs to completion, after the stream's queued work
  Ins whole = ins;
  each_array_operand(lead, loop.rank, std::tie(whole), [&](auto& op, bool along) {
    if (!along) staging<Tag>(t).in(op); // whole, once
  });
  chunk_ring<Tag> ring(t, split.slots, out_staging + row_staging_bytes<Tag>(whole, lead, loop, split.per),
                       device_extra);
  for (index_t c = 0; c < split.count; ++c) {
    const chunk_range range(static_cast<long>(c + 1), static_cast<long>(split.count)); // "chunked add 3/8"
    const int s = static_cast<int>(c % split.slots);
    if (c >= split.slots) ring.acquire(s);
    const index_t b = split.begin(c), e = split.end(c);
    auto in = with_indices<std::tuple_size_v<Ins>>([&]<std::size_t... J>(std::index_sequence<J...>) {
      return std::make_tuple(
          ring.input(s, slice_rows(std::get<J>(whole), b, e, lead(static_cast<int>(J)), loop.rank))...);
    });
    chunk(ring, s, c, b, e, in);
  }
  ring.finish();
}

/// The loop dimensions of one tuple's operands from a call's `lead`: the tuple's operand k is the call's `first + k`.
template <class Lead>
struct lead_from {
  const Lead& lead;
  int first;
  int operator()(int k) const { return lead(first + k); }
};

/// Calls `run(target, loop, outs, ins)` once, or through run_pipelined once per chunk of rows of loop dimension 0 when
/// the operands staged to a device target do not fit its memory (or chunk budget); not when an output overlaps an input
/// other than exactly. `lead(k)`: operand k's loop dimensions (outputs first; a gufunc's cores stay whole).
template <class Tag, class Outs, class Ins, class Lead, class Run>
void run_chunked(const Tag& tag, const dims& loop, Outs& outs, Ins& ins, const Lead& lead, Run&& run) {
  if constexpr (Tag::is_device) {
    constexpr int NOut = static_cast<int>(std::tuple_size_v<Outs>);
    if (loop.rank > 0 && loop[0] > 1) {
      const lead_from<Lead> in_lead{lead, NOut};
      const index_t rows = rows_per_chunk(tag, loop, lead, 0, 0, outs, ins);
      if (rows < loop[0] && !partial_overlap(outs, ins)) {
        const chunk_split split(loop[0], rows);
        run_pipelined(tag, loop, split, ins, in_lead, row_staging_bytes<Tag>(outs, lead, loop, split.per), 0,
                      [&](chunk_ring<Tag>& ring, int s, index_t, index_t b, index_t e, auto& in) {
                        dims sub = loop;
                        sub[0] = e - b;
                        auto out = with_indices<NOut>([&]<std::size_t... J>(std::index_sequence<J...>) {
                          return std::make_tuple(ring.output(
                              s, slice_rows(std::get<J>(outs), b, e, lead(static_cast<int>(J)), loop.rank))...);
                        });
                        run(ring.on(s), sub, out, in);
                      });
        return;
      }
    }
  }
  run(tag, loop, outs, ins);
}

/// The loop dimensions of operands Ops that each run over all of their dimensions (a reduction's inputs, a scan's).
template <class... Ops>
struct full_leads {
  static constexpr int rank[] = {std::remove_cvref_t<Ops>::rank..., 0};
  int operator()(int k) const { return rank[k]; }
};
/// The loop dimensions of each operand of an elementwise call (outputs first): all of its dimensions.
template <class Outs, class Ins>
struct elementwise_leads;
template <class... O, class... I>
struct elementwise_leads<std::tuple<O...>, std::tuple<I...>> : full_leads<O..., I...> {};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
