#pragma once
// ufx::profile's tracer of a raw kernel's launch on the sim (profile.cpp): the block runner hands it every element
// access of a tracked array (sim_global_touch) and of a ufx::shared array (sim_shared_log, which sees every access
// while a trace is on), every atomic and warp operation, and the end of each thread's turn and each block. A warp-wide
// request is the lanes' k-th execution of one access instruction (its return address in the kernel's code) on one
// array: lanes of a warp run one after another on the sim, so a request's lanes arrive at different times and are
// grouped when the block ends. An access through a mutable reference is a store when the element's bytes differ at the
// thread's next traced event (or the end of its turn), else a load.
#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ufx/detail/raw/blocks.hpp"
#include "ufx/detail/backend/sim/launch.hpp"
#include "ufx/detail/raw/thread.hpp"
#include "ufx/profile.hpp"

namespace ufx::detail {
struct sim_block;
namespace sim_impl {

/// Where a traced access went: a global region (argument) or a shared region, by index.
struct trace_array {
  bool shared = false;
  int index = -1; // in the launch's globals / regions; -1: global memory outside every argument (not expected)
  bool operator==(const trace_array&) const = default;
};

class launch_trace {
public:
  explicit launch_trace(const block_launch& l);
  launch_trace(const launch_trace&) = delete;
  launch_trace& operator=(const launch_trace&) = delete;

  void global(const sim_block& b, const void* p, std::size_t bytes, bool read_only, const void* site);
  void shared(const sim_block& b, std::size_t offset, std::size_t bytes, const void* site);
  /// An atomic update of the element at p begins: the access that reached it is an atomic.
  void atomic(const void* p);
  /// A lane's warp operation (counted once, by its mask's lowest lane).
  void warp(const sim_block& b, const warp_call& c);
  /// The running thread's turn ended (its pending access is classified).
  void end_turn() { settle(); }
  /// The block's requests are complete: counted, then dropped.
  void end_block(const sim_block& b);
  /// The launch's profile (every block ended).
  kernel_profile finish();

private:
  struct request {
    std::uint32_t lanes = 0, stores = 0; // lanes that took part; those whose access changed the element
    bool atomic = false;
    int bytes = 0;
    trace_array array;
    const void* site = nullptr;
    std::uintptr_t addr[32] = {}; // per lane: the address (global) or byte offset (shared)
  };
  /// A block's open requests: per access site and warp, the lanes' k-th executions in order; per site and thread, how
  /// many the thread has made. (A cooperative launch has every block open at once.)
  struct block_requests {
    std::vector<std::vector<request>> lists; // [site * warps + warp][k]
    std::vector<std::uint32_t> executed;     // [site * threads + thread]
  };
  /// The access of the running thread through a mutable reference, classified at its next event.
  struct pending_access {
    request* r = nullptr;
    std::uint32_t lane_bit = 0;
    const unsigned char* p = nullptr;
    std::size_t bytes = 0;
    unsigned char old[64] = {};
  };
  /// A row's running totals, keyed by array, kind and width.
  struct row_totals {
    trace_array array;
    int kind = 0; // 0 load, 1 store, 2 atomic
    int bytes = 0;
    std::vector<const void*> sites;
    long long requests = 0, transactions = 0, ideal = 0, bytes_requested = 0;
  };

  /// A set of addresses, sectors or words (a request's), emptied in O(1).
  class unit_set {
  public:
    void clear() {
      size_ = 0;
      if (++now_ == 0) {
        std::fill(std::begin(gen_), std::end(gen_), 0u);
        now_ = 1;
      }
    }
    /// Adds u; false when it was there (or the set is full: 768 units, more than a request of elements up to 512
    /// bytes has).
    bool insert(std::uintptr_t u) {
      if (size_ == 768) return false;
      for (std::size_t h = (u * 0x9e3779b97f4a7c15ull) >> 54;; h = (h + 1) % 1024) {
        if (gen_[h] != now_) {
          gen_[h] = now_;
          key_[h] = u;
          ++size_;
          return true;
        }
        if (key_[h] == u) return false;
      }
    }

  private:
    std::uintptr_t key_[1024] = {}; // room for a request's 32 lanes of up to 16 units, half full at most
    std::uint32_t gen_[1024] = {};
    std::uint32_t now_ = 1, size_ = 0;
  };

  /// One lane's access: its request found or opened. `where`: the address (global) or byte offset (shared).
  void record(const sim_block& b, bool shared, std::uintptr_t where, const unsigned char* p, std::size_t bytes,
              bool mutable_ref, const void* site);
  /// The array a request's first lane accessed.
  trace_array array_of(bool shared, std::uintptr_t where) const;
  /// The index of access site `site` in sites_, added (with its lists in every open block) when new.
  std::size_t site_index(const void* site) {
    const site_slot& c = site_cache_[(reinterpret_cast<std::uintptr_t>(site) >> 2) % 64];
    return c.site == site && site ? c.index : new_site_index(site);
  }
  std::size_t new_site_index(const void* site);
  block_requests& requests_of(std::int32_t block) {
    return block == last_block_ ? *last_requests_ : other_block(block);
  }
  block_requests& other_block(std::int32_t block);
  /// Marks the sectors of global memory a request touched (distinct_sectors).
  void mark_sector(std::uintptr_t sector);
  void settle() {
    pending_access& q = pending_;
    if (!q.r) return;
    const bool changed = q.bytes == 4   ? std::memcmp(q.old, q.p, 4) != 0 // fixed sizes: no call
                         : q.bytes == 8 ? std::memcmp(q.old, q.p, 8) != 0
                                        : std::memcmp(q.old, q.p, std::min<std::size_t>(q.bytes, sizeof q.old)) != 0;
    if (changed) q.r->stores |= q.lane_bit;
    q.r = nullptr;
  }
  void count(const request& r);

  const block_launch& l_;
  kernel_profile k_;
  unsigned threads_, warps_; // per block
  std::vector<const void*> sites_;
  struct site_slot {
    const void* site = nullptr;
    std::size_t index = 0;
  };
  site_slot site_cache_[64]; // direct-mapped by address: a kernel's few sites alternate
  std::unordered_map<std::int32_t, block_requests> open_;
  block_requests spare_; // an ended block's, its lists' memory kept for the next
  std::int32_t last_block_ = -1;
  block_requests* last_requests_ = nullptr;
  // distinct global sectors: a bit per sector of each argument's bytes, a set for any other
  std::vector<std::vector<std::uint64_t>> sector_bits_;
  std::unordered_set<std::uintptr_t> other_sectors_;
  std::vector<row_totals> rows_;
  std::size_t last_row_ = 0;
  pending_access pending_;
  unit_set units_;
};

/// The trace of launch `l` when ufx::profile or UFX_SIM_PROFILE is collecting and `l` runs on the sim, else null.
std::unique_ptr<launch_trace> begin_trace(const block_launch& l);
/// Hands the finished launch's profile to the collections.
void end_trace(launch_trace& t);

} // namespace sim_impl

/// Adds a launch's profile to every collection under way (src/profile.cpp).
void sim_profile_add(const kernel_profile& k);
} // namespace ufx::detail
