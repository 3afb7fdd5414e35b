// ufx::profile's tracer (profile.hpp says how requests are formed). Nsight Compute's definitions, as counted here:
// - a global request's sectors are the distinct 32-byte sectors its lanes' bytes fall in; its ideal, the fewest sectors
//   that hold the distinct bytes it asks for (a broadcast: one);
// - a shared request's wavefronts: its lanes in phases (all 32 lanes for 4-byte and narrower accesses, a half warp of
//   16 for wider ones), each phase as many passes as the most distinct 4-byte words any bank holds among the words its
//   lanes touch (lanes on one word share it: a broadcast); its ideal, per phase with an active lane, one pass per 32
//   distinct words (128 bytes), at least one. Half warps for 16-byte accesses too: Nsight Compute on an A10 and an
//   H100 counts 4 wavefronts for 32 lanes' consecutive LDS.128, 2 for lanes 0-15 on one address and 16-31 on
//   another (quarter warps would take 4), and 8 for 16 addresses 32 bytes apart, each read by lanes i and i + 16
//   (NVIDIA's developer forum, "Discrepancy in LDS.128 Wavefronts").
#include "sim/profile.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "sim/block.hpp"
#include "ufx/detail/backend/sim/checks.hpp" // operand_name

namespace ufx::detail {

namespace sim_impl {

namespace {
const char* const kind_names[] = {"load", "store", "atomic"};
} // namespace

launch_trace::launch_trace(trace_info info) : info_(std::move(info)) {
  k_.name = info_.name;
  k_.device = info_.device;
  k_.grid = info_.config.grid;
  k_.block = info_.config.block;
  k_.shared_bytes = info_.shared_bytes;
  k_.blocks = static_cast<long long>(info_.config.grid.count());
  k_.threads = k_.blocks * static_cast<long long>(info_.config.block.count());
  threads_ = static_cast<unsigned>(info_.config.block.count());
  warps_ = (threads_ + 31) / 32;
  for (const trace_info::global& g : info_.globals)
    sector_bits_.emplace_back(g.hi ? ((g.hi >> 5) - (g.lo >> 5)) / 64 + 1 : 0, 0);
}

std::size_t launch_trace::new_site_index(const void* site) {
  site_slot& c = site_cache_[(reinterpret_cast<std::uintptr_t>(site) >> 2) % 64];
  const auto it = std::find(sites_.begin(), sites_.end(), site);
  const auto i = static_cast<std::size_t>(it - sites_.begin());
  if (it == sites_.end()) {
    sites_.push_back(site);
    for (auto& [block, r] : open_) {
      r.lists.resize(sites_.size() * warps_);
      r.executed.resize(sites_.size() * threads_, 0);
    }
  }
  c = {site, i};
  return i;
}

launch_trace::block_requests& launch_trace::other_block(std::int32_t block) {
  block_requests& r = open_[block];
  if (r.lists.empty()) r = std::move(spare_);
  r.lists.resize(sites_.size() * warps_);
  r.executed.resize(sites_.size() * threads_, 0);
  last_block_ = block;
  last_requests_ = &r;
  return r;
}

void launch_trace::mark_sector(std::uintptr_t sector, int array) {
  const auto in = [&](int i) {
    const trace_info::global& g = info_.globals[static_cast<std::size_t>(i)];
    const std::uintptr_t lo = g.lo >> 5;
    if (sector < lo || (g.hi && sector > g.hi >> 5)) return false;
    std::vector<std::uint64_t>& bits = sector_bits_[static_cast<std::size_t>(i)];
    const std::uintptr_t j = sector - lo;
    if (j / 64 >= bits.size()) bits.resize(std::max<std::size_t>(j / 64 + 1, bits.size() * 2), 0); // hi 0: grows
    bits[j / 64] |= std::uint64_t{1} << (j % 64);
    return true;
  };
  if (array >= 0 && in(array)) return;
  for (int i = 0; i < static_cast<int>(info_.globals.size()); ++i)
    if (i != array && info_.globals[static_cast<std::size_t>(i)].hi && in(i)) return;
  other_sectors_.insert(sector);
}

trace_array launch_trace::array_of(bool shared, std::uintptr_t where) const {
  trace_array a{shared, -1};
  if (shared) {
    // the region that starts last at or before `where` (a raw kernel's regions lie in order; ufx's kernels add theirs
    // as their accesses reach them)
    for (std::size_t i = 0; i < info_.regions.size(); ++i)
      if (where >= info_.regions[i].offset && (a.index < 0 || info_.regions[i].offset > info_.regions[a.index].offset))
        a.index = static_cast<int>(i);
    return a;
  }
  for (std::size_t i = 0; i < info_.globals.size(); ++i)
    if (where >= info_.globals[i].lo && where < info_.globals[i].hi) return {false, static_cast<int>(i)};
  return a;
}

void launch_trace::record(std::int32_t block, unsigned me, bool shared, std::uintptr_t where, const unsigned char* p,
                          std::size_t bytes, access how, const void* site, int array) {
  settle();
  any_ = true;
  const std::size_t s = site_index(site);
  block_requests& br = requests_of(block);
  const std::uint32_t k = br.executed[s * threads_ + me]++;
  std::vector<request>& list = br.lists[s * warps_ + me / 32];
  if (list.size() <= k) list.resize(k + 1);
  request& r = list[k];
  if (r.lanes == 0) { // the request's first lane: what it accesses (its other lanes' accesses are of the same array)
    r.bytes = static_cast<int>(bytes);
    r.array = array >= 0 ? trace_array{false, array} : array_of(shared, where);
    r.site = site;
  }
  const std::uint32_t bit = 1u << (me % 32);
  r.lanes |= bit;
  r.addr[me % 32] = where;
  if (how == access::store) r.stores |= bit;
  if (how == access::reference) {
    pending_.r = &r;
    pending_.lane_bit = bit;
    pending_.p = p;
    pending_.bytes = bytes;
    if (bytes == 4) std::memcpy(pending_.old, p, 4); // fixed sizes: no call
    else if (bytes == 8) std::memcpy(pending_.old, p, 8);
    else std::memcpy(pending_.old, p, std::min(bytes, sizeof pending_.old));
  }
}

#if UFX_WITH_BOOST_CONTEXT
void launch_trace::global(const sim_block& b, const void* p, std::size_t bytes, bool read_only, const void* site) {
  record(b.ctx.block_linear, b.threads.current, false, reinterpret_cast<std::uintptr_t>(p),
         static_cast<const unsigned char*>(p), bytes, read_only ? access::load : access::reference, site);
}

void launch_trace::shared(const sim_block& b, std::size_t offset, std::size_t bytes, const void* site) {
  record(b.ctx.block_linear, b.threads.current, true, offset, b.state.shared + offset, bytes, access::reference, site);
}
#endif

void launch_trace::operand_access(int operand, const void* base, const void* p, std::size_t bytes, bool store,
                                  int outputs) {
  const auto k = static_cast<std::size_t>(operand);
  if (info_.globals.size() <= k) {
    info_.globals.resize(k + 1);
    sector_bits_.resize(k + 1);
  }
  if (info_.globals[k].name.empty())
    info_.globals[k] = {reinterpret_cast<std::uintptr_t>(base), 0, operand_name(operand, outputs)};
  // one site per operand and direction: the k-th load of input 1 by each lane of a warp is one request
  const auto site = reinterpret_cast<const void*>(static_cast<std::uintptr_t>(2 * operand + (store ? 2 : 1)));
  record(block_, thread_, false, reinterpret_cast<std::uintptr_t>(p), static_cast<const unsigned char*>(p), bytes,
         store ? access::store : access::load, site, operand);
}

void launch_trace::operand_shared(int operand, std::size_t region, std::size_t offset, std::size_t bytes, bool store,
                                  int outputs) {
  // a region is appended when first seen: a request already recorded keeps its region's index
  if (std::none_of(info_.regions.begin(), info_.regions.end(),
                   [region](const trace_info::region& r) { return r.offset == region; }))
    info_.regions.push_back({region, "shared: " + operand_name(operand, outputs)});
  // sites apart from the global ones: one per operand and direction
  const auto site = reinterpret_cast<const void*>(static_cast<std::uintptr_t>(1024 + 2 * operand + (store ? 2 : 1)));
  record(block_, thread_, true, offset, nullptr, bytes, store ? access::store : access::load, site);
}

void launch_trace::atomic(const void* p) {
  if (pending_.r && pending_.p == p) {
    pending_.r->atomic = true;
    pending_.r = nullptr;
  }
}

#if UFX_WITH_BOOST_CONTEXT
void launch_trace::warp(const sim_block& b, const warp_call& c) {
  settle();
  if (c.kind == warp_kind::activemask) return; // a query, not an operation of the warp
  const unsigned me = b.threads.current;
  if (__builtin_ctz(c.mask) != static_cast<int>(me % 32)) return; // counted once, by the lowest lane
  const unsigned have = lanes_of(b.threads.count(), me / 32);
  ++k_.warp_operations;
  if ((c.mask & have) != have) ++k_.partial_warp_operations;
}
#endif

void launch_trace::count(const request& r) {
  const int kind = r.atomic ? 2 : r.stores ? 1 : 0;
  const long long lanes = __builtin_popcount(r.lanes), asked = lanes * r.bytes;
  long long transactions = 0, ideal = 0;
  const auto ub = static_cast<std::uintptr_t>(r.bytes) - 1;
  if (!r.array.shared) {
    // a view's elements lie whole multiples of their size apart: the distinct bytes are the distinct addresses'
    // elements
    long long unique = 0;
    units_.clear();
    for (std::uint32_t m = r.lanes; m; m &= m - 1) unique += units_.insert(r.addr[__builtin_ctz(m)]) ? r.bytes : 0;
    units_.clear();
    for (std::uint32_t m = r.lanes; m; m &= m - 1) {
      const std::uintptr_t a = r.addr[__builtin_ctz(m)];
      for (std::uintptr_t u = a >> 5; u <= (a + ub) >> 5; ++u)
        if (units_.insert(u)) {
          ++transactions;
          mark_sector(u, r.array.index);
        }
    }
    ideal = (unique + 31) / 32;
    global_counts& g = kind == 0 ? k_.global_loads : kind == 1 ? k_.global_stores : k_.global_atomics;
    ++g.requests;
    g.sectors += transactions;
    g.ideal_sectors += ideal;
    g.bytes_requested += asked;
  } else {
    // phases: 32 lanes of 4 bytes or less, else half warps; each as many passes as the most distinct words one bank
    // holds, and ideally one per 32 distinct words
    const int per_phase = r.bytes <= 4 ? 32 : 16;
    for (int first = 0; first < 32; first += per_phase) {
      units_.clear();
      int in_bank[32] = {}, most = 0;
      long long words = 0;
      for (int lane = first; lane < first + per_phase; ++lane) {
        if (!(r.lanes >> lane & 1u)) continue;
        const std::uintptr_t a = r.addr[lane];
        if (r.bytes == 4 && a % 4 == 0) { // one word
          if (units_.insert(a >> 2)) {
            most = std::max(most, ++in_bank[(a >> 2) % 32]);
            ++words;
          }
          continue;
        }
        for (std::uintptr_t w = a / 4; w <= (a + ub) / 4; ++w)
          if (units_.insert(w)) {
            most = std::max(most, ++in_bank[w % 32]);
            ++words;
          }
      }
      transactions += most;
      if (words > 0) ideal += (words + 31) / 32;
    }
    shared_counts& s = kind == 0 ? k_.shared_loads : kind == 1 ? k_.shared_stores : k_.shared_atomics;
    ++s.requests;
    s.wavefronts += transactions;
    s.ideal_wavefronts += ideal;
    s.bytes_requested += asked;
  }
  const auto same = [&](const row_totals& t) { return t.array == r.array && t.kind == kind && t.bytes == r.bytes; };
  if (last_row_ >= rows_.size() || !same(rows_[last_row_])) {
    last_row_ = static_cast<std::size_t>(std::find_if(rows_.begin(), rows_.end(), same) - rows_.begin());
    if (last_row_ == rows_.size()) rows_.push_back(row_totals{r.array, kind, r.bytes, {}, 0, 0, 0, 0});
  }
  row_totals* const row = &rows_[last_row_];
  if (std::find(row->sites.begin(), row->sites.end(), r.site) == row->sites.end()) row->sites.push_back(r.site);
  ++row->requests;
  row->transactions += transactions;
  row->ideal += ideal;
  row->bytes_requested += asked;
}

#if UFX_WITH_BOOST_CONTEXT
void launch_trace::end_block(const sim_block& b) { end_block(b.ctx.block_linear); }
#endif

void launch_trace::end_block(std::int32_t block) {
  settle();
  const auto it = open_.find(block);
  if (it == open_.end()) return;
  for (std::vector<request>& list : it->second.lists) { // by site, warp and k: a deterministic order
    for (const request& r : list)
      if (r.lanes) count(r);
    list.clear();
  }
  std::fill(it->second.executed.begin(), it->second.executed.end(), 0u);
  spare_ = std::move(it->second);
  open_.erase(it);
  last_block_ = -1;
  last_requests_ = nullptr;
}

kernel_profile launch_trace::finish() {
  const auto per = [](long long a, long long n) { return n ? static_cast<double>(a) / static_cast<double>(n) : 0.0; };
  for (global_counts* g : {&k_.global_loads, &k_.global_stores, &k_.global_atomics}) {
    g->sectors_per_request = per(g->sectors, g->requests);
    g->ideal_sectors_per_request = per(g->ideal_sectors, g->requests);
  }
  for (shared_counts* s : {&k_.shared_loads, &k_.shared_stores, &k_.shared_atomics}) {
    s->bank_conflicts = s->wavefronts - s->ideal_wavefronts;
    s->wavefronts_per_request = per(s->wavefronts, s->requests);
  }
  long long distinct = static_cast<long long>(other_sectors_.size());
  for (const auto& bits : sector_bits_)
    for (const std::uint64_t w : bits) distinct += __builtin_popcountll(w);
  k_.distinct_sectors = distinct;
  // rows: global arrays by argument, then shared ones; loads, stores, atomics
  std::stable_sort(rows_.begin(), rows_.end(), [](const row_totals& x, const row_totals& y) {
    if (x.array.shared != y.array.shared) return !x.array.shared;
    if (x.array.index != y.array.index) return x.array.index < y.array.index;
    return x.kind < y.kind;
  });
  const auto array_name = [&](const trace_array& a) -> std::string {
    if (a.shared) return info_.regions[static_cast<std::size_t>(a.index)].name;
    if (a.index < 0) return "global memory outside the arguments";
    return info_.globals[static_cast<std::size_t>(a.index)].name;
  };
  for (const row_totals& t : rows_)
    k_.rows.push_back(profile_row{array_name(t.array), kind_names[t.kind], t.array.shared, t.bytes,
                                  static_cast<int>(t.sites.size()), t.requests, t.transactions, t.ideal,
                                  t.bytes_requested});
  return std::move(k_);
}

#if UFX_WITH_BOOST_CONTEXT
std::unique_ptr<launch_trace> begin_trace(const block_launch& l) {
  if (!l.on_sim || sim_profile_collecting.load(std::memory_order_relaxed) == 0) return nullptr;
  trace_info info;
  const std::string label = l.label; // "kernel 'name'" for a named kernel, else "ufx::kernel"
  info.name = label.starts_with("kernel '") && label.ends_with('\'') ? label.substr(8, label.size() - 9) : label;
  info.device = l.where;
  info.config = l.config;
  info.shared_bytes = l.static_bytes + l.config.shared_bytes;
  for (int i = 0; i < l.global_count; ++i) {
    const global_region& g = l.globals[i];
    info.globals.push_back(
        {reinterpret_cast<std::uintptr_t>(g.lo), reinterpret_cast<std::uintptr_t>(g.hi),
         "argument " + std::to_string(g.argument) + " (parameter " + std::to_string(g.parameter) + ")"});
  }
  for (int i = 0; i < l.region_count; ++i)
    info.regions.push_back({l.regions[i].offset, "shared array " + std::to_string(i) + " (parameter " +
                                                     std::to_string(l.regions[i].parameter) + ")"});
  return std::make_unique<launch_trace>(std::move(info));
}
#endif // UFX_WITH_BOOST_CONTEXT

void end_trace(launch_trace& t) { sim_profile_add(t.finish()); }

} // namespace sim_impl

namespace {
/// The launch of ufx's own kernels this thread runs under a sim_front_scope, else null.
thread_local sim_impl::launch_trace* sim_front_trace = nullptr;
} // namespace

void sim_front_touch(const void* base, const void* p, std::size_t bytes, int operand, int outputs) {
  if (sim_impl::launch_trace* t = sim_front_trace)
    t->operand_access(operand, base, p, bytes, operand < outputs, outputs);
}

void sim_front_shared(std::size_t region, std::size_t offset, std::size_t bytes, int operand, bool store, int outputs) {
  if (sim_impl::launch_trace* t = sim_front_trace) t->operand_shared(operand, region, offset, bytes, store, outputs);
}

sim_front_scope::sim_front_scope(const char* label, const launch_config& c, int device) : outer_(sim_front_trace) {
  sim_impl::trace_info info;
  info.name = label;
  info.device = "ufx::sim device " + std::to_string(device);
  info.config = c;
  info.shared_bytes = c.shared_bytes;
  t_ = new sim_impl::launch_trace(std::move(info));
  sim_front_trace = t_;
}

sim_front_scope::~sim_front_scope() {
  sim_front_trace = outer_;
  delete t_;
}

void sim_front_scope::thread(std::int32_t block, unsigned thread) const { t_->begin_thread(block, thread); }

void sim_front_scope::end_block(std::int32_t block) const { t_->end_block(block); }

void sim_front_scope::finish() {
  sim_front_trace = outer_;
  kernel_profile k = t_->finish();
  k.traced = t_->any(); // a kernel without the sim's accessors (a copy, a reduction's) reports its launch alone
  sim_profile_add(k);
}

} // namespace ufx::detail
