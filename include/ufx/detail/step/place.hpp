#pragma once
// Step 3 of a call, shared by every front door: put each operand where the target can use it.
// Inputs in another memory space are staged (copied once, packed row-major); outputs in another
// space get a temporary there and are copied back after the run; an input that overlaps an
// output is read from a copy (NumPy's answer is that of the untouched input).
#include <memory>
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

/// Makes an array operand read from a fresh row-major copy of itself, in the same space. The copy
/// is made by the space's calls without a stream (CUDA's legacy stream) and waited for, so that a
/// call on a stream of its own reads it complete.
template <class Op>
void read_from_copy(Op& op) {
  auto buf = std::make_shared<buffer<typename Op::value_type>>(op.space, op.view.size());
  ndview<typename Op::value_type, Op::rank> dst(buf->data(), op.view.shape());
  copy_within(op.space, dst, op.view);
  if (queues_calls(op.space)) synchronize(op.space);
  op.view = dst;
  op.keep = std::move(buf);
}

/// True when two views share any byte.
template <class A, class B>
bool overlaps(const A& a, const B& b) {
  if (a.size() == 0 || b.size() == 0) return false;
  const auto [alo, ahi] = byte_range(a);
  const auto [blo, bhi] = byte_range(b);
  return alo < bhi && blo < ahi;
}

/// Copies an array operand into a fresh row-major buffer in `space` (views the buffer afterwards).
template <class V, int R>
void stage(array_operand<const V, R>& op, const memory_space& space) {
  auto buf = std::make_shared<buffer<V>>(space, op.view.size());
  ndview<V, R> dst(buf->data(), op.view.shape());
  transfer(space, dst, op.space, op.view);
  op.view = ndview<const V, R>(dst);
  op.space = space;
  op.keep = std::move(buf);
}

/// An output as the kernel sees it: the final destination, or a temporary in the target's space.
template <class T, int R>
struct staged_output {
  array_operand<T, R> final_dst;
  ndview<T, R> view;
  std::shared_ptr<buffer<T>> temp;
};

/// The output's temporary, when it needs one, is freed in `stream`'s order (null: at once).
template <class T, int R>
staged_output<T, R> stage_output(const array_operand<T, R>& o, const memory_space& space, void* stream = nullptr) {
  if (o.space == space) return {o, o.view, nullptr};
  auto buf = std::make_shared<buffer<T>>(space, o.view.size(), stream);
  return {o, ndview<T, R>(buf->data(), o.view.shape(), strides_like(o.view)), buf};
}

/// True when input view `in` (operand `k` of the layout) must be read from a copy because it
/// overlaps output `j` without being exactly the same elements in the same order.
template <int N, class In, class Out>
bool needs_copy(const layout<N>& L, int k, const In& in, int j, const Out& out) {
  const auto [ilo, ihi] = byte_range(in);
  const auto [olo, ohi] = byte_range(out);
  if (!(ilo < ohi && olo < ihi)) return false;
  if (static_cast<const void*>(in.data()) != static_cast<const void*>(out.data()) ||
      sizeof(*in.data()) != sizeof(*out.data()))
    return true;
  for (int d = 0; d < L.rank; ++d)
    if (L.stride[j][d] != L.stride[k][d]) return true;
  return false;
}

template <int NOut, int N, class Op, class Staged, std::size_t... J>
void resolve_overlap(layout<N>& L, int k, Op& op, const Staged& staged, std::index_sequence<J...>) {
  if constexpr (!is_scalar_operand<Op>::value) {
    const bool copy = (needs_copy(L, k, op.view, static_cast<int>(J), std::get<J>(staged).view) || ...);
    if (!copy) return;
    read_from_copy(op);
    set_strides(L, k, op.view);
  }
}

template <class Op>
void stage_input(Op& op, const memory_space& space) {
  if constexpr (!is_scalar_operand<Op>::value)
    if (op.space != space && op.view.size() > 0) stage(op, space);
}

template <int N, class Op>
void set_input_strides(layout<N>& L, int k, const Op& op) {
  if constexpr (is_scalar_operand<Op>::value) L.scalar_mask |= 1u << k;
  else set_strides(L, k, op.view);
}

template <class S>
void copy_back(const S& so, const memory_space& space) {
  if (!so.temp) return;
  using V = std::remove_cvref_t<decltype(*so.view.data())>;
  constexpr int R = std::remove_cvref_t<decltype(so.view)>::rank;
  transfer(so.final_dst.space, so.final_dst.view, space, ndview<const V, R>(so.view));
}

// ---- calls on a stream (stream.hpp): what waits, what is queued, what is kept alive

/// True when `tag` is a device target on a stream.
template <class Tag>
bool streamed(const Tag& tag) {
  if constexpr (Tag::is_device) return tag.has_stream();
  else return false;
}

/// Waits for the stream's queued work (nothing without a stream).
template <class Tag>
void stream_wait(const Tag& tag) {
  if constexpr (Tag::is_device)
    if (tag.has_stream()) tag.space().runtime->stream_synchronize(tag.ordinal(), tag.stream_handle);
}

/// The same target without its stream: the call runs to completion, after the stream's queued work
/// (reductions and scans on a stream, for now).
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

/// On a stream: an operand on another device is an error (ufx does not copy between devices behind
/// a stream's back).
template <class Tag, class Op>
void stream_check_device(const Tag& tag, const Op& op) {
  if constexpr (requires {
                  op.space;
                  op.view;
                }) {
    const memory_space space = tag.space();
    if (op.view.size() > 0 && op.space != space && op.space.is_device())
      throw device_error(message("a call on a stream of " + to_string(space) + " cannot use arrays of " +
                                 to_string(op.space) + "; copy them to the stream's device first"));
  }
}

/// True when copying input `op` in at the call needs the stream's queued work done first: host
/// memory that is not dense and pinned is read at the call, as CUDA does with pageable memory
/// (a dense pinned input is copied by the stream instead: stage_on).
template <class Op>
bool waits_to_copy_in(const Op& op) {
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

/// The stream of a device target (null without one, and for the CPU targets).
template <class Tag>
void* stream_of(const Tag& tag) {
  if constexpr (Tag::is_device) return tag.stream_handle;
  else return nullptr;
}

/// Copies host data into a new buffer in `space`, at once, or on `stream` (null: none) when the
/// data is dense and pinned. Returns the buffer, freed in the stream's order.
template <class V, int R>
std::shared_ptr<buffer<V>> copy_in(const memory_space& space, const memory_space& from, const ndview<const V, R>& v,
                                   void* stream) {
  auto buf = std::make_shared<buffer<V>>(space, v.size(), stream);
  const std::size_t bytes = static_cast<std::size_t>(v.size()) * sizeof(V);
  if (stream && from.is_host() && v.is_contiguous() && is_pinned(v.data(), bytes))
    space.runtime->copy_async(space, buf->data(), from, v.data(), bytes, stream);
  else transfer(space, ndview<V, R>(buf->data(), v.shape()), from, v);
  return buf;
}

/// Stages input `op` into `space` (see copy_in).
template <class Op>
void stage_on(Op& op, const memory_space& space, void* stream) {
  if constexpr (!is_scalar_operand<Op>::value) {
    if (op.space == space || op.view.size() == 0) return;
    using V = typename Op::value_type;
    auto buf = copy_in(space, op.space, op.view, stream);
    op.view = ndview<const V, Op::rank>(buf->data(), op.view.shape());
    op.space = space;
    op.keep = std::move(buf);
  }
}

/// True when an input overlaps an output without being it: it is read from a copy made at the
/// call (so a call on a stream waits first), and a chunked call would read rows an earlier chunk
/// has written (so such a call is not chunked).
template <class Outs, class Ins>
bool partial_overlap(const Outs& outs, const Ins& ins) {
  bool any = false;
  std::apply(
      [&](const auto&... o) {
        std::apply(
            [&](const auto&... i) {
              auto one = [&](const auto& out, const auto& in) {
                if constexpr (requires { in.view; })
                  if (overlaps(out.view, in.view) &&
                      static_cast<const void*>(out.view.data()) != static_cast<const void*>(in.view.data()))
                    any = true;
              };
              ([&](const auto& out) { (one(out, i), ...); }(o), ...);
            },
            ins);
      },
      outs);
  return any;
}

/// Before placement on a stream: operands of another device are an error; the call waits for the
/// stream when an input is copied in at the call (waits_to_copy_in), or read from a copy because
/// it overlaps an output without being it.
template <class Tag, class Outs, class Ins>
void stream_prepare_io(const Tag& tag, const Outs& outs, const Ins& ins) {
  if (!streamed(tag)) return;
  bool wait = false;
  std::apply([&](const auto&... o) { (stream_check_device(tag, o), ...); }, outs);
  std::apply([&](const auto&... i) { ((stream_check_device(tag, i), wait = wait || waits_to_copy_in(i)), ...); }, ins);
  if (wait || partial_overlap(outs, ins)) stream_wait(tag);
}

template <class Op>
void keep_operand(const Op& op, std::vector<std::shared_ptr<void>>& keep) {
  if constexpr (requires { op.keep; })
    if (op.keep) keep.push_back(op.keep);
}

/// Copies a staged output back on a stream: queued when the destination is pinned host memory and
/// dense (the temporary is kept until the copy has run), else after waiting for the stream.
template <class Tag, class S>
void copy_back_queued(const Tag& tag, const S& so, std::vector<std::shared_ptr<void>>& keep) {
  if (!so.temp) return;
  const memory_space space = tag.space();
  const auto& dst = so.final_dst.view;
  const std::size_t bytes = static_cast<std::size_t>(dst.size()) * sizeof(*dst.data());
  if (so.final_dst.space.is_host() && dst.is_contiguous() && so.view.is_contiguous() && is_pinned(dst.data(), bytes)) {
    space.runtime->copy_async(so.final_dst.space, dst.data(), space, so.view.data(), bytes, stream_of(tag));
    keep.push_back(so.temp);
    return;
  }
  stream_wait(tag);
  copy_back(so, space);
}

/// A call's output in device memory has been written (ufx::sim's uninitialised-read check).
template <class S>
void note_output_written(const memory_space& space, const S& so) {
  const auto [lo, hi] = byte_range(so.view);
  if (lo != hi) space.runtime->note_defined(lo, static_cast<std::size_t>(hi - lo));
}

/// The end of a call on `tag`: outputs copied back and the call's temporaries released. On a
/// stream nothing waits unless a host destination is not pinned; temporaries the queued work
/// still reads are kept until the stream has run it (on ufx::cuda they are freed in its order).
template <class Tag, class Ins, class... S>
void finish_call(const Tag& tag, const Ins& ins, const S&... so) {
  const memory_space space = tag.space();
  if constexpr (Tag::is_device) {
    (note_output_written(space, so), ...);
    if (streamed(tag)) {
      std::vector<std::shared_ptr<void>> keep;
      (copy_back_queued(tag, so, keep), ...);
      std::apply([&](const auto&... op) { (keep_operand(op, keep), ...); }, ins);
      launch_hook<Tag>::keep_until_run(tag, stream_keep{std::move(keep)}); // the target's folder says how
      return;
    }
  }
  // Without a stream nothing waits here: the sim has run the call (its errors were thrown by the
  // run), and ufx::cuda has queued it on the legacy default stream (ordered_stream), where a result
  // on the device is ready for the next call and the call's temporaries are freed in order. What
  // reads results waits for them: a copy back to the host, as below (docs/streams.md).
  (copy_back(so, space), ...);
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
