#pragma once
// Gufuncs on the device targets. One thread per loop position calling the core function on its cores in place
// (device_loop) reads memory badly when the cores are small: for "(4,4),(4,4)->(4,4)" neighbouring threads read words
// 64 bytes apart, so a warp's load touches 32 lines for 128 useful bytes (13% of HBM's bandwidth on an H200,
// issue #30). The staged body fixes that where it can: when every operand is an array whose core is dense, row-major
// and of sizes fixed in the signature, and the loop is one dimension along which each operand's cores lie back to back,
// a block takes `b` consecutive positions, copies their input cores into shared memory together (neighbouring threads
// read neighbouring words), calls the function on views of shared memory (a thread's core `core + 1` words from its
// neighbour's when `core` is even, so a warp's threads hit different banks), and copies the output cores back together.
#include <cstddef>
#include <type_traits>
#include <utility>

#include "ufx/detail/core/hooks.hpp"
#include "ufx/detail/core/testing.hpp"
#include "ufx/detail/device/elementwise.hpp"
#include "ufx/detail/device/thread.hpp"
#include "ufx/detail/core/loop.hpp"

namespace ufx::detail {

UFX_TU_NAMESPACE_BEGIN

/// Shared memory a staged block may use: the 48 KiB every CUDA device gives a block without asking.
inline constexpr std::size_t gufunc_staged_shared = std::size_t{48} << 10;
/// Threads (loop positions) per staged block, at most.
inline constexpr index_t gufunc_staged_block = 128;

/// The staged block body (the file's head), for a gufunc_body whose operands are arrays with fixed core sizes.
template <class Kernel>
struct gufunc_staged_body {
  static constexpr int N = Kernel::N;
  static constexpr int NOut = Kernel::N - Kernel::NIn;
  struct state_type {};

  Kernel k;
  index_t n;             // loop positions
  std::size_t region[N]; // byte offset of operand k's cores in the block's shared memory

  /// Elements in operand k's core (kernel order), from the signature.
  template <int K>
  static constexpr index_t core_size() {
    constexpr int S = K < NOut ? Kernel::NIn + K : K - NOut; // signature position
    index_t c = 1;
    for (int j = 0; j < Kernel::sig::core_rank(S); ++j)
      c *= static_cast<index_t>(Kernel::sig::parsed.fixed[Kernel::sig::dim(S, j)]);
    return c;
  }
  /// Elements between neighbouring threads' cores of operand K in shared memory: odd, so a warp hits distinct banks.
  template <int K>
  static constexpr index_t pitch() {
    return core_size<K>() % 2 == 0 ? core_size<K>() + 1 : core_size<K>();
  }
  template <int K>
  using element =
      std::remove_cv_t<typename std::remove_cvref_t<decltype(get<K>(std::declval<Kernel&>().acc))>::element_type>;

  UFX_HD int step(const thread_pos& t, state_type&, unsigned char* shared, int phase) const {
    const index_t b = t.block_dim.x, tx = t.thread_idx.x;
    const index_t first = static_cast<index_t>(t.block_idx.x) * b;
    const index_t count = n - first < b ? n - first : b;
    if (phase == 0) { // the inputs' cores, together
      move<NOut, N>(shared, first, count, b, tx, true);
      return 1;
    }
    if (phase == 1) {
      if (tx < count) call(shared, tx, std::make_index_sequence<N>{});
      return 2;
    }
    move<0, NOut>(shared, first, count, b, tx, false); // the outputs' cores, together
    return -1;
  }

private:
  template <std::size_t... K>
  UFX_HD void call(unsigned char* shared, index_t tx, std::index_sequence<K...>) const {
    unsigned char* const base[N] = {
        shared + region[K] + static_cast<std::size_t>(tx * pitch<static_cast<int>(K)>()) * sizeof(element<K>)...};
    k.at_cores(base);
  }

  /// Operands [From, To): global -> shared when `in`, else shared -> global.
  template <int From, int To>
  UFX_HD void move(unsigned char* shared, index_t first, index_t count, index_t b, index_t tx, bool in) const {
    move_each<From>(shared, first, count, b, tx, in, std::make_integer_sequence<int, To - From>{});
  }
  template <int From, int... J>
  UFX_HD void move_each(unsigned char* shared, index_t first, index_t count, index_t b, index_t tx, bool in,
                        std::integer_sequence<int, J...>) const {
    (move_one<From + J>(shared, first, count, b, tx, in), ...);
  }
  template <int K>
  UFX_HD void move_one(unsigned char* shared, index_t first, index_t count, index_t b, index_t tx, bool in) const {
    constexpr index_t c = core_size<K>(), p = pitch<K>();
    using E = element<K>;
    E* s = reinterpret_cast<E*>(shared + region[K]);
    const auto& a = get<K>(k.acc);
    E* g = const_cast<E*>(a.p) + first * c;
    for (index_t e = tx; e < count * c; e += b) {
      const index_t item = e / c, j = e - item * c; // c is a constant: no division at run time
      // ufx::profile on the sim: the global access, then the shared one (nothing elsewhere)
      acc_touch(a, g + e, sizeof(E));
      acc_shared_touch(a, region[K], region[K] + static_cast<std::size_t>(item * p + j) * sizeof(E), sizeof(E), in);
      if (in) s[item * p + j] = g[e];
      else g[e] = s[item * p + j];
    }
  }
};

/// Runs a gufunc kernel over layout L on a device target: staged (above) when it applies and fits the block's shared
/// memory, else one thread per loop position (device_loop). `dense`: every array operand's core is dense and row-major.
template <class Tag, int N, class Kernel>
void device_gufunc(const Tag& tag, const layout<N>& L, const Kernel& k, bool dense, const char* label) {
  if constexpr (requires { Kernel::all_fixed_arrays; }) {
    if constexpr (Kernel::all_fixed_arrays) {
      using body_t = gufunc_staged_body<Kernel>;
      const index_t n = L.rank == 1 ? L.shape[0] : 1; // rank 0: one position (a loop of extent 1)
      if (dense && L.rank <= 1 && n > 0 && testing().gufunc_staging.on()) {
        body_t body{k, n, {}};
        bool back_to_back = true;
        std::size_t bytes[N] = {}; // shared bytes one thread's core of operand k takes
        [&]<std::size_t... K>(std::index_sequence<K...>) {
          ((back_to_back = back_to_back && (L.rank == 0 || L.stride[K][0] == body_t::template core_size<int(K)>()),
            bytes[K] = static_cast<std::size_t>(body_t::template pitch<int(K)>()) *
                       sizeof(typename body_t::template element<K>)),
           ...);
        }
        (std::make_index_sequence<N>{});
        std::size_t per_thread = 0; // with each region's alignment
        for (int j = 0; j < N; ++j) per_thread += bytes[j] + 16;
        index_t b = gufunc_staged_block;
        while (b > 32 && static_cast<std::size_t>(b) * per_thread > gufunc_staged_shared) b /= 2;
        if (back_to_back && static_cast<std::size_t>(b) * per_thread <= gufunc_staged_shared) {
          std::size_t off = 0;
          for (int j = 0; j < N; ++j) {
            body.region[j] = off;
            off += (static_cast<std::size_t>(b) * bytes[j] + 15) / 16 * 16;
          }
          const index_t blocks = (n + b - 1) / b;
          if (blocks < (index_t{1} << 31)) {
            testing().gufunc_staging.count();
            launch_hook<Tag>::run(
                tag, launch_config{dim3(static_cast<unsigned>(blocks)), dim3(static_cast<unsigned>(b)), off}, body,
                label);
            return;
          }
        }
      }
    }
  }
  device_loop(tag, L, k, label);
}

UFX_TU_NAMESPACE_END
} // namespace ufx::detail
