#pragma once
// Step 3 of a call, shared by every front door: put each operand where the target can use it. Inputs in another memory
// space are staged (copied once, packed row-major); outputs in another space get a temporary there and are copied back
// after the run; an input that overlaps an output is read from a copy (NumPy's answer is that of the untouched input).
#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/step/adapt.hpp"
#include "ufx/detail/core/fail.hpp"
#include "ufx/detail/lib/runtime.hpp"
#include "ufx/detail/core/loop.hpp"
#include "ufx/detail/body/map.hpp"
#include "ufx/detail/step/transfer.hpp"
#include "ufx/targets.hpp"

namespace ufx::detail {
UFX_TU_NAMESPACE_BEGIN

/// Makes an array operand read from a fresh row-major copy of itself in the same space, made without a stream (CUDA's
/// legacy stream) and waited for, so that a call on a stream of its own reads it complete.
template <class Op>
void read_from_copy(Op& op) {
  auto buf = std::make_shared<buffer<typename Op::value_type>>(op.space, op.view.size());
  ndview<typename Op::value_type, Op::rank> dst(buf->data(), op.view.shape());
  copy_within(op.space, dst, op.view);
  if (queues_calls(op.space)) synchronize(op.space);
  op.view = dst;
  op.keep = std::move(buf);
}

/// An output as the kernel sees it: the final destination, or a temporary in the target's space.
template <class T, int R>
struct staged_output {
  array_operand<T, R> final_dst;
  ndview<T, R> view;
  std::shared_ptr<buffer<T>> temp;
};

/// Reads input `op` (operand `k` of the layout) from a copy when it overlaps an output without being exactly the same
/// elements in the same order.
template <int N, class Op, class Staged, std::size_t... J>
void resolve_overlap(layout<N>& L, int k, Op& op, const Staged& staged, std::index_sequence<J...>) {
  if constexpr (!is_scalar_operand<Op>::value) {
    auto needs_copy = [&](int j, const auto& out) {
      const auto [ilo, ihi] = byte_range(op.view);
      const auto [olo, ohi] = byte_range(out);
      if (!(ilo < ohi && olo < ihi)) return false;
      if (static_cast<const void*>(op.view.data()) != static_cast<const void*>(out.data()) ||
          sizeof(*op.view.data()) != sizeof(*out.data()))
        return true;
      for (int d = 0; d < L.rank; ++d)
        if (L.stride[j][d] != L.stride[k][d]) return true;
      return false;
    };
    if (!(needs_copy(static_cast<int>(J), std::get<J>(staged).view) || ...)) return;
    read_from_copy(op);
    set_strides(L, k, op.view);
  }
}

// ---- calls on a stream (stream.hpp): what waits, what is queued, what is kept alive

template <class Tag>
bool streamed(const Tag& tag) {
  if constexpr (Tag::is_device) return tag.has_stream();
  else return false;
}

template <class Tag>
void stream_wait(const Tag& tag) {
  if constexpr (Tag::is_device)
    if (tag.has_stream()) {
      if (capture_on(tag.space().runtime)) [[unlikely]]
        refuse_in_capture(current_call,
                          "a call that waits for the stream (a chunked call, or one that copies at the call)",
                          "make it before or after the capture");
      tag.space().runtime->stream_synchronize(tag.ordinal(), tag.stream_handle);
    }
}

/// The target without its stream, run to completion after the stream's work (reductions, scans on a stream, for now).
template <class Tag>
Tag after_stream(const Tag& tag) {
  Tag t = tag;
  if constexpr (Tag::is_device)
    if (tag.has_stream()) {
      stream_wait(tag);
      t.stream_handle = nullptr;
    }
  return t;
}

template <class Tag>
void* stream_of(const Tag& tag) {
  if constexpr (Tag::is_device) return tag.stream_handle;
  else return nullptr;
}

/// True when an input overlaps an output (`exact`: also one that is exactly an output, from the same first element).
/// Without `exact`: the input is read from a copy made at the call (so a call on a stream waits first), and a chunked
/// call would read rows an earlier chunk has written (so such a call is not chunked).
template <class Outs, class Ins>
bool partial_overlap(const Outs& outs, const Ins& ins, bool exact = false) {
  bool any = false;
  std::apply(
      [&](const auto&... o) {
        std::apply(
            [&](const auto&... i) {
              [[maybe_unused]] auto one = [&](const auto& out, const auto& in) {
                if constexpr (requires { in.view; })
                  if (overlaps(out.view, in.view) &&
                      (exact || static_cast<const void*>(out.view.data()) != static_cast<const void*>(in.view.data())))
                    any = true;
              };
              ([&](const auto& out) { (one(out, i), ...); }(o), ...);
            },
            ins);
      },
      outs);
  return any;
}

/// When a call on a stream waits for its queued work because an input overlaps an output (copied at the call): never
/// (raw kernels: their arguments are the kernel's business), when the input overlaps an output without being it
/// (elementwise calls and gufuncs read an input that is the output in place), or on any overlap (reductions and scans).
enum class overlap_wait { never, partial, any };

/// Step 3 of a call on target `tag`, the one route of every front door and of raw kernels' array arguments: `place`
/// stages the inputs into the target's memory and gives each output its place there (itself, or a temporary); `finish`
/// copies the outputs back and releases the temporaries. On a stream (stream.hpp): an operand of another device is an
/// error; dense pinned host data is copied by the stream, other host data at the call after the stream's queued work;
/// temporaries the queued work still reads are kept until it has run (launch_hook::keep_until_run).
template <class Tag>
class staging {
public:
  explicit staging(const Tag& tag) : tag_(tag) {}

  /// Places outputs and inputs (tuples; inputs re-pointed at staged copies); returns the outputs' staged_output tuple.
  template <class Outs, class Ins>
  auto place(const Outs& outs, Ins& ins, overlap_wait rule) const {
    prepare(outs, ins, rule);
    std::apply([&](auto&... op) { (in(op), ...); }, ins);
    return std::apply([&](const auto&... o) { return std::make_tuple(out(o)...); }, outs);
  }

  /// place, then each input that overlaps an output at all, exactly included, is read from a copy: reductions and
  /// gufuncs write outputs while still reading inputs (a core function may read inputs after writing).
  template <class Outs, class Ins>
  auto place_apart(const Outs& outs, Ins& ins, overlap_wait rule) const {
    auto staged = place(outs, ins, rule);
    auto apart = [&](auto& op) {
      if constexpr (!is_scalar_operand<std::remove_reference_t<decltype(op)>>::value)
        if (std::apply([&](const auto&... so) { return (overlaps(op.view, so.view) || ...); }, staged))
          read_from_copy(op);
    };
    std::apply([&](auto&... op) { (apart(op), ...); }, ins);
    return staged;
  }

  /// On a stream, before placing: another device's operands are an error, and the call waits when an input is copied at
  /// the call (not dense pinned host memory, read now as CUDA reads pageable) or overlaps an output as `rule` says.
  template <class Outs, class Ins>
  void prepare(const Outs& outs, const Ins& ins, overlap_wait rule) const {
    if constexpr (Tag::is_device)
      if (capture_state* c = capture_on(space().runtime)) [[unlikely]]
        check_capture(*c, outs, ins, rule);
    if (!streamed(tag_)) return;
    bool wait = false;
    std::apply([&](const auto&... o) { (check_device(o), ...); }, outs);
    std::apply([&](const auto&... i) { ((check_device(i), wait = wait || copied_at_call(i)), ...); }, ins);
    if (rule != overlap_wait::never) wait = wait || partial_overlap(outs, ins, rule == overlap_wait::any);
    if (wait) stream_wait(tag_);
  }

  /// Input `op` in the target's memory: as it is, or a row-major copy there (queued on the stream when the data is
  /// dense pinned host memory). Scalars stay as they are.
  template <class Op>
  void in(Op& op) const {
    if constexpr (!is_scalar_operand<Op>::value) {
      if (op.space == space() || op.view.size() == 0) return;
      using V = typename Op::value_type;
      auto buf = copy_in(op.space, op.view);
      op.view = ndview<const V, Op::rank>(buf->data(), op.view.shape());
      op.space = space();
      op.keep = std::move(buf);
    }
  }

  /// Output `o` as the kernel writes it: `o`, or a temporary in the target's memory (freed in the stream's order) that
  /// `finish` copies back. `read`: the temporary starts as a copy of `o` (a raw kernel may read what it writes).
  template <class T, int R>
  staged_output<T, R> out(const array_operand<T, R>& o, bool read = false) const {
    if (o.space == space() || (read && o.view.size() == 0)) return {o, o.view, nullptr};
    if (read) {
      auto buf = copy_in(o.space, ndview<const T, R>(o.view));
      return {o, ndview<T, R>(buf->data(), o.view.shape()), buf};
    }
    auto buf = std::make_shared<buffer<T>>(space(), o.view.size(), stream_of(tag_));
    return {o, ndview<T, R>(buf->data(), o.view.shape(), strides_like(o.view)), buf};
  }

  /// The call's end: outputs (a staged_output tuple) copied back, temporaries released. On a stream nothing waits
  /// unless a host destination is not pinned; what the queued work still reads (staged inputs, temporaries) is kept
  /// until the stream has run it. `written`: the outputs count as written for ufx::sim's uninitialised-read check (a
  /// front door's results; not a raw kernel's arguments, whose writes the sim follows itself).
  template <class Ins, class Staged>
  void finish(const Ins& ins, const Staged& staged, bool written = true) const {
    if constexpr (Tag::is_device) {
      if (written) std::apply([&](const auto&... so) { (note_written(so), ...); }, staged);
      if (streamed(tag_)) {
        std::vector<std::shared_ptr<void>> keep;
        std::apply([&](const auto&... so) { (copy_back_queued(so, keep), ...); }, staged);
        std::apply([&](const auto&... op) { (keep_operand(op, keep), ...); }, ins);
        launch_hook<Tag>::keep_until_run(tag_, stream_keep{std::move(keep)}); // the target's folder says how
        return;
      }
    }
    // Without a stream nothing waits here: the sim has run the call (errors thrown), and ufx::cuda has queued it on the
    // legacy default stream (ordered_stream), where a result on the device is ready for the next call and temporaries
    // are freed in order. What reads results waits: a copy back to the host, as below (docs/streams.md).
    std::apply([&](const auto&... so) { (copy_back(so), ...); }, staged);
  }

  memory_space space() const { return tag_.space(); }

private:
  /// On a stream, an operand on another device is an error (ufx does not copy between devices behind a stream's back).
  template <class Op>
  void check_device(const Op& op) const {
    if constexpr (requires {
                    op.space;
                    op.view;
                  }) {
      if (op.view.size() > 0 && op.space != space() && op.space.is_device())
        throw device_error(message("a call on a stream of " + to_string(space()) + " cannot use arrays of " +
                                   to_string(op.space) + "; copy them to the stream's device first"));
    }
  }

  /// Inside ufx::capture (this thread records the target's stream into a graph): what the call would do at the call
  /// rather than on the stream is an error, raised before anything of the call is recorded; the arrays it uses are
  /// noted for the sim's check at each replay (graph_launch).
  template <class Outs, class Ins>
  void check_capture(capture_state& c, const Outs& outs, const Ins& ins, overlap_wait rule) const {
    if (stream_of(tag_) != c.stream)
      refuse_in_capture(current_call,
                        "a call on " + to_string(space()) +
                            (stream_of(tag_) ? " on a stream other than the captured one" : " without a stream"),
                        "make the capture's calls on the target its function is given (t, which is ufx::sim.on(s) or "
                        "ufx::cuda.on(s)), or outside the capture");
    int k = 0;
    auto input = [&](const auto& op) {
      ++k;
      if (copied_at_call(op))
        refuse_in_capture(current_call,
                          "operand " + std::to_string(k) +
                              " is host memory that is not dense and pinned, which the call would copy once, now",
                          "copy it to the device before the capture, or hold it in pinned memory (ufx::pinned_vector, "
                          "ufx::pin), which each replay copies");
    };
    std::apply([&](const auto&... i) { (input(i), ...); }, ins);
    auto output = [&](const auto& o) {
      if (copied_at_call(o)) // copied back at the call, as an input would be copied in
        refuse_in_capture(current_call,
                          "a result written to host memory that is not dense and pinned (a value returned to the "
                          "host, a std::vector), which the call would wait for",
                          "write into a device array (ufx::out(d)), a 0-d one for a full reduction, or into pinned "
                          "memory, which each replay copies back");
    };
    std::apply([&](const auto&... o) { (output(o), ...); }, outs);
    if (rule != overlap_wait::never && partial_overlap(outs, ins, rule == overlap_wait::any))
      refuse_in_capture(current_call, "an input that overlaps an output, which the call would copy and wait for",
                        "write into an array the call does not read");
    auto note = [&](const auto& op) {
      if constexpr (requires { op.view; })
        if (op.view.size() > 0 && op.space == space())
          if (const std::uint64_t id = space().runtime->allocation_id(op.view.data()))
            c.operands.push_back({op.view.data(), id, current_call});
    };
    std::apply([&](const auto&... o) { (note(o), ...); }, outs);
    std::apply([&](const auto&... i) { (note(i), ...); }, ins);
  }

  /// True when copying input `op` in reads it at the call: host memory that is not dense and pinned.
  template <class Op>
  static bool copied_at_call(const Op& op) {
    if constexpr (requires {
                    op.space;
                    op.view;
                  }) {
      if (op.view.size() == 0 || !op.space.is_host()) return false;
      const std::size_t bytes = static_cast<std::size_t>(op.view.size()) * sizeof(*op.view.data());
      return !(op.view.is_contiguous() && is_pinned(op.view.data(), bytes));
    } else {
      return false;
    }
  }

  /// Data from `from` in a new row-major buffer in the target's memory: copied at once, or by the stream when the data
  /// is dense pinned host memory. The buffer is freed in the stream's order.
  template <class V, int R>
  std::shared_ptr<buffer<V>> copy_in(const memory_space& from, const ndview<const V, R>& v) const {
    void* stream = stream_of(tag_);
    auto buf = std::make_shared<buffer<V>>(space(), v.size(), stream);
    const std::size_t bytes = static_cast<std::size_t>(v.size()) * sizeof(V);
    if (stream && from.is_host() && v.is_contiguous() && is_pinned(v.data(), bytes))
      space().runtime->copy_async(space(), buf->data(), from, v.data(), bytes, stream);
    else transfer(space(), ndview<V, R>(buf->data(), v.shape()), from, v);
    return buf;
  }

  template <class S>
  void copy_back(const S& so) const {
    if (!so.temp) return;
    using V = std::remove_cvref_t<decltype(*so.view.data())>;
    constexpr int R = std::remove_cvref_t<decltype(so.view)>::rank;
    transfer(so.final_dst.space, so.final_dst.view, space(), ndview<const V, R>(so.view));
  }

  /// Copies a staged output back on a stream: queued when the destination is pinned host memory and dense (the
  /// temporary is kept until the copy has run), else after waiting for the stream.
  template <class S>
  void copy_back_queued(const S& so, std::vector<std::shared_ptr<void>>& keep) const {
    if (!so.temp) return;
    const auto& dst = so.final_dst.view;
    const std::size_t bytes = static_cast<std::size_t>(dst.size()) * sizeof(*dst.data());
    if (so.final_dst.space.is_host() && dst.is_contiguous() && so.view.is_contiguous() &&
        is_pinned(dst.data(), bytes)) {
      space().runtime->copy_async(so.final_dst.space, dst.data(), space(), so.view.data(), bytes, stream_of(tag_));
      keep.push_back(so.temp);
      return;
    }
    stream_wait(tag_);
    copy_back(so);
  }

  template <class Op>
  static void keep_operand(const Op& op, std::vector<std::shared_ptr<void>>& keep) {
    if constexpr (requires { op.keep; })
      if (op.keep) keep.push_back(op.keep);
  }

  /// A call's output in device memory has been written (ufx::sim's uninitialised-read check).
  template <class S>
  void note_written(const S& so) const {
    const auto [lo, hi] = byte_range(so.view);
    if (lo != hi) space().runtime->note_defined(lo, static_cast<std::size_t>(hi - lo));
  }

  Tag tag_;
};

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
