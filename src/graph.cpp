// Graphs (ufx::capture, ufx::graph in stream.hpp): the capture in progress on a thread, the refusals of what a capture
// cannot record, and a replay. The recording itself is each runtime's (begin_capture / end_capture): the sim's stream
// keeps its tasks, ufx::cuda's is CUDA's stream capture.
#include <algorithm>
#include <functional>
#include <string>
#include <string_view>

#include "ufx/detail/core/fail.hpp"
#include "ufx/detail/lib/runtime.hpp"
#include "ufx/errors.hpp"

namespace ufx::detail {

namespace {
thread_local capture_state* this_thread = nullptr;
} // namespace

capture_state* this_thread_capture() noexcept { return this_thread; }

void refuse_in_capture(std::string_view who, std::string_view what, std::string_view instead) {
  throw device_error(std::string(who) + ": " + std::string(what) + " inside ufx::capture, which records the work of " +
                     to_string(this_thread ? this_thread->space : memory_space::host) +
                     " queued on its stream and replays only that; " + std::string(instead));
}

capture_scope::capture_scope(const memory_space& space, void* stream) {
  if (this_thread)
    throw device_error("ufx::capture: a capture inside ufx::capture (of " + to_string(this_thread->space) +
                       ") on the same thread; captures do not nest");
  require_space(space);
  space.runtime->begin_capture(space.device, stream);
  state.space = space;
  state.stream = stream;
  this_thread = &state;
}

capture_scope::~capture_scope() {
  if (!open_) return;
  this_thread = nullptr;
  state.space.runtime->abort_capture(state.space.device, state.stream);
}

void* capture_scope::finish(void* update) {
  open_ = false;
  this_thread = nullptr;
  // one check per array at a replay, however many calls use it (the first call's name kept)
  auto& ops = state.operands;
  std::stable_sort(ops.begin(), ops.end(), [](const graph_operand& a, const graph_operand& b) {
    return std::less<const void*>()(a.p, b.p) || (a.p == b.p && a.id < b.id);
  });
  ops.erase(std::unique(ops.begin(), ops.end(),
                        [](const graph_operand& a, const graph_operand& b) { return a.p == b.p && a.id == b.id; }),
            ops.end());
  return state.space.runtime->end_capture(state.space.device, state.stream, update);
}

void graph_launch(const memory_space& space, void* g, void* stream, const std::string& name,
                  const std::vector<graph_operand>& operands) {
  // the graph's name in messages, built only for one (a replay allocates nothing on the host)
  auto who = [&] { return "ufx::graph" + (name.empty() ? std::string() : " '" + name + "'"); };
  if (!g) throw device_error(who() + ": launch of an empty graph (default-constructed or moved from)");
  if (capture_on(space.runtime)) [[unlikely]]
    refuse_in_capture(who(), "a graph launched", "launch it after the capture");
  // ufx::sim: every array a recorded call uses must still be the allocation it was at the capture
  const device_runtime& rt = *space.runtime;
  for (const graph_operand& op : operands)
    if (rt.allocation_id(op.p) != op.id)
      throw device_error(who() + ": an array that " + op.call +
                         " uses in the graph was freed after the capture (its memory is no longer the array it was); "
                         "keep the arrays a graph uses alive while it is launched, or capture it again");
  const label_scope label(name.empty() ? nullptr : name.c_str());
  const call_scope range("ufx::graph"); // with ranges on: "graph <name>"
  rt.launch_graph(g, stream);
  call_counters::add(rt.counters.graph_launches);
}

} // namespace ufx::detail
