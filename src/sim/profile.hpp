#pragma once
// ufx::profile's tracer of a launch on the sim (profile.cpp). A raw kernel's: the block runner hands it every element
// access of a tracked array (sim_global_touch) and of a ufx::shared array (sim_shared_log, which sees every access
// while a trace is on), every atomic and warp operation, and the end of each thread's turn and each block. One of ufx's
// own kernels (backend/sim/trace.hpp): the sim's accessors of its operands hand it each load and store, and the grid
// loop each thread's start and each block's end. A warp-wide request is the lanes' k-th execution of one access
// instruction (a raw kernel's: its return address in the kernel's code; ufx's: an operand's load or store) on one
// array: lanes of a warp run one after another on the sim, so a request's lanes arrive at different times and are
// grouped when the block ends. A raw kernel's access through a mutable reference is a store when the element's bytes
// differ at the thread's next traced event (or the end of its turn), else a load.
#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <string>
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

/// What a trace counts against: the launch's name, device and shape, its global arrays (the address range of each, and
/// the name its rows get) and its shared arrays (by byte offset).
struct trace_info {
  struct global {
    std::uintptr_t lo = 0, hi = 0; // [lo, hi) of the array's bytes; hi 0: from lo on, as far as accesses reach
    std::string name;
  };
  struct region {
    std::size_t offset = 0;
    std::string name;
  };
  std::string name, device;
  launch_config config;
  std::size_t shared_bytes = 0;
  std::vector<global> globals;
  std::vector<region> regions; // a raw kernel's in order of their offsets; ufx's kernels' as first accessed
};

class launch_trace {
public:
  explicit launch_trace(trace_info info);
  launch_trace(const launch_trace&) = delete;
  launch_trace& operator=(const launch_trace&) = delete;

  /// How an access reaches the element: a load, a store, or (a raw kernel's) a mutable reference, a store if the
  /// element's bytes change before the thread's next traced event.
  enum class access { load, store, reference };

#if UFX_WITH_BOOST_CONTEXT
  void global(const sim_block& b, const void* p, std::size_t bytes, bool read_only, const void* site);
  void shared(const sim_block& b, std::size_t offset, std::size_t bytes, const void* site);
  /// A lane's warp operation (counted once, by its mask's lowest lane).
  void warp(const sim_block& b, const warp_call& c);
  /// The block's requests are complete: counted, then dropped.
  void end_block(const sim_block& b);
#endif
  /// An atomic update of the element at p begins: the access that reached it is an atomic.
  void atomic(const void* p);
  /// The running thread's turn ended (its pending access is classified).
  void end_turn() { settle(); }
  /// One of ufx's own kernels: thread `thread` of block `block` (linear indices) runs next; its accesses are
  /// `operand`'s (global array `operand`, added with `name` and base `base` the first time it is seen).
  void begin_thread(std::int32_t block, unsigned thread) {
    block_ = block;
    thread_ = thread;
  }
  void operand_access(int operand, const void* base, const void* p, std::size_t bytes, bool store, int outputs);
  /// The same thread's access of `bytes` at byte `offset` of its block's shared memory, in the region at `region` that
  /// holds `operand`'s data (a region added, in order of offsets, the first time it is seen).
  void operand_shared(int operand, std::size_t region, std::size_t offset, std::size_t bytes, bool store, int outputs);
  /// Block `block`'s requests are complete: counted, then dropped.
  void end_block(std::int32_t block);
  /// Whether any access was traced (one of ufx's kernels without the sim's accessors has none).
  bool any() const { return any_; }
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

  /// One lane's access (thread `me` of block `block`): its request found or opened. `where`: the address (global) or
  /// byte offset (shared); `array`: the global array's index when the caller knows it, else -1.
  void record(std::int32_t block, unsigned me, bool shared, std::uintptr_t where, const unsigned char* p,
              std::size_t bytes, access how, const void* site, int array = -1);
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
  /// Marks a sector of global memory a request of global array `array` (-1: not an array's) touched
  /// (distinct_sectors).
  void mark_sector(std::uintptr_t sector, int array);
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

  trace_info info_;
  kernel_profile k_;
  std::int32_t block_ = 0; // ufx's kernels: the running thread (begin_thread)
  unsigned thread_ = 0;
  bool any_ = false;
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
