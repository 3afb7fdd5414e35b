// The wording of the sim's errors: how they name the kernel, block, thread, lane, shared and global element, warp
// operation and barrier (the checks' own sentences are in their files); ndview's and ufx::shared's out-of-range errors.
#include "sim/block.hpp"

#include <algorithm>
#include <string>

namespace ufx::detail {
namespace {
/// head + "(3, 4)", `rank` indices (built with append: GCC 12's -Wrestrict misfires on "(" + std::string)
std::string index_list_text(std::string head, int rank, const index_t* idx) {
  head.append("(");
  for (int k = 0; k < rank; ++k) head.append(k ? ", " : "").append(std::to_string(idx[k]));
  return head.append(")");
}

[[noreturn]] void throw_out_of_range(const char* what, int rank, const index_t* index, const index_t* extents) {
  const std::string at = index_list_text(std::string(what) + ": index ", rank, index);
  throw shape_error(index_list_text(at + " out of range for shape ", rank, extents));
}
} // namespace

#if UFX_WITH_BOOST_CONTEXT
namespace sim_impl {

std::string hex_mask(unsigned m) {
  static const char digits[] = "0123456789abcdef";
  std::string s("0x");
  for (int k = 28; k >= 0; k -= 4) s.push_back(digits[(m >> k) & 15u]);
  return s;
}

const char* warp_kind_name(warp_kind k) {
  switch (k) {
  case warp_kind::syncwarp: return "syncwarp";
  case warp_kind::shfl_idx: return "shfl_sync";
  case warp_kind::shfl_up: return "shfl_up_sync";
  case warp_kind::shfl_down: return "shfl_down_sync";
  case warp_kind::shfl_xor: return "shfl_xor_sync";
  case warp_kind::all: return "all_sync";
  case warp_kind::any: return "any_sync";
  case warp_kind::eq: return "eq_sync";
  case warp_kind::ballot: return "ballot_sync";
  case warp_kind::match_any: return "match_any_sync";
  case warp_kind::match_all: return "match_all_sync";
  case warp_kind::activemask: return "activemask";
  }
  return "a warp operation";
}

const char* barrier_kind_name(barrier_kind k) {
  switch (k) {
  case barrier_kind::sync: return "t.sync()";
  case barrier_kind::count: return "t.sync_count()";
  case barrier_kind::all: return "t.sync_and()";
  case barrier_kind::any: return "t.sync_or()";
  case barrier_kind::grid: return "t.grid_sync()";
  }
  return "a barrier";
}

std::string block_context::thread_text(unsigned i) const { return format_dim3(unflatten(i, launch->config.block)); }

std::string block_context::block_text(std::int32_t linear) const {
  return format_dim3(unflatten(static_cast<index_t>(linear), launch->config.grid));
}

std::string block_context::seed_text() const {
  return seed ? " (thread order: UFX_SIM_SEED=" + std::to_string(seed) + ")" : std::string();
}

void block_context::fail(unsigned thread, const std::string& what, bool lane) const {
  const std::string warp_lane =
      lane ? " (warp " + std::to_string(thread / 32) + ", lane " + std::to_string(thread % 32) + ")" : std::string();
  throw kernel_error(std::string(launch->label) + " on " + launch->where + ", block " + format_dim3(block_idx) +
                     ", thread " + thread_text(thread) + warp_lane + ": " + what + seed_text());
}

std::string block_context::shared_element_text(std::size_t offset) const {
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
    return index_list_text("element ", g.rank, idx) + " of shared array " + std::to_string(r) + " (parameter " +
           std::to_string(g.parameter) + ")";
  }
  return "shared memory byte " + std::to_string(offset);
}

namespace {
/// The index of element `off` of g (found from the largest stride down), or false when no index of g lies there.
bool index_at(const global_region& g, index_t off, index_t (&idx)[max_rank]) {
  int order[max_rank];
  for (int k = 0; k < g.rank; ++k) order[k] = k;
  std::sort(order, order + g.rank, [&](int a, int b) { return g.strides[a] > g.strides[b]; });
  bool ok = true;
  for (int o = 0; o < g.rank; ++o) {
    const int k = order[o];
    if (g.strides[k] <= 0) return false;
    idx[k] = off / g.strides[k];
    off -= idx[k] * g.strides[k];
    ok = ok && idx[k] < g.extents[k];
  }
  return ok && off == 0;
}
} // namespace

std::string block_context::global_element_text(std::uintptr_t addr) const {
  for (int r = 0; r < launch->global_count; ++r) {
    const global_region& g = launch->globals[r];
    const auto base = reinterpret_cast<std::uintptr_t>(g.data);
    if (addr < base || (addr - base) % g.elem_size != 0) continue;
    index_t idx[max_rank] = {};
    if (!index_at(g, static_cast<index_t>((addr - base) / g.elem_size), idx)) continue;
    return index_list_text("element ", g.rank, idx) + " of argument " + std::to_string(g.argument) + " (parameter " +
           std::to_string(g.parameter) + ")";
  }
  return "device memory at " + std::to_string(addr);
}

} // namespace sim_impl
#endif // UFX_WITH_BOOST_CONTEXT

void ndview_out_of_range(int rank, const index_t* index, const index_t* extents) {
  throw_out_of_range("ufx::ndview", rank, index, extents);
}

void sim_shared_out_of_range(int rank, const index_t* index, const index_t* extents) {
  throw_out_of_range("ufx::shared", rank, index, extents);
}

} // namespace ufx::detail
