// Warp-level programming in ufx::kernel: shuffles, votes, matches, syncwarp, the predicate
// barriers, fences, the atomics Numba adds beyond CUDA's basic set, and the block collectives, on
// every target that runs kernels (ufx::cuda when a GPU answers). The cases ported from numba-cuda's
// own tests are named after their source (file::function); the sim's warp checks follow, each with
// a planted bug that it reports and the corrected kernel that it passes.
#include "common.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

using ufx_test::error_message;
using ufx_test::kernel_runnable;

namespace {

constexpr unsigned full = 0xffffffffu;

// ---- numba-cuda test_warp_ops.py

struct useful_syncwarp_body {
  UFX_HD void operator()(const ufx::thread& t, ufx::ndview<int, 1> ary) const {
    const auto i = t.grid<1>();
    if (i == 0) ary(0) = 42;
    t.syncwarp(full);
    ary(i) = ary(0);
  }
};

enum class shfl_mode { idx, up, down, xor_ };
template <shfl_mode M>
struct shfl_body {
  UFX_HD void operator()(const ufx::thread& t, ufx::ndview<int, 1> ary, int arg) const {
    const auto i = static_cast<int>(t.grid<1>());
    int v = 0;
    if constexpr (M == shfl_mode::idx) v = t.shfl_sync(full, i, arg);
    else if constexpr (M == shfl_mode::up) v = t.shfl_up_sync(full, i, static_cast<unsigned>(arg));
    else if constexpr (M == shfl_mode::down) v = t.shfl_down_sync(full, i, static_cast<unsigned>(arg));
    else v = t.shfl_xor_sync(full, i, static_cast<unsigned>(arg));
    ary(i) = v;
  }
};

template <class T>
struct shfl_with_val_body {
  UFX_HD void operator()(const ufx::thread& t, ufx::ndview<T, 1> ary, T into) const {
    ary(t.grid<1>()) = t.shfl_sync(full, into, 0);
  }
};

/// A 2-byte float shuffled four ways: from lane 7 * lane % 32, 3 lanes up, 5 down in groups of 16, across lane ^ 9.
template <class T>
struct shfl_half_body {
  UFX_HD void operator()(const ufx::thread& t, ufx::ndview<const T, 1> in, ufx::ndview<T, 2> out) const {
    const auto i = t.grid<1>();
    const T v = in(i);
    out(0, i) = t.shfl_sync(full, v, static_cast<int>(t.lane_id() * 7 % 32));
    out(1, i) = t.shfl_up_sync(full, v, 3);
    out(2, i) = t.shfl_down_sync(full, v, 5, 16);
    out(3, i) = t.shfl_xor_sync(full, v, 9);
  }
};

enum class vote_mode { all, any, eq };
template <vote_mode M>
struct vote_body {
  UFX_HD void operator()(const ufx::thread& t, ufx::ndview<const int, 1> in, ufx::ndview<int, 1> out) const {
    const auto i = t.grid<1>();
    bool r;
    if constexpr (M == vote_mode::all) r = t.all_sync(full, in(i));
    else if constexpr (M == vote_mode::any) r = t.any_sync(full, in(i));
    else r = t.eq_sync(full, in(i));
    out(i) = r ? 1 : 0;
  }
};

struct ballot_body {
  UFX_HD void operator()(const ufx::thread& t, ufx::ndview<unsigned, 1> ary) const {
    ary(t.thread_idx().x) = t.ballot_sync(full, true);
  }
};

struct match_any_body {
  UFX_HD void operator()(const ufx::thread& t, ufx::ndview<const int, 1> in, ufx::ndview<int, 1> out) const {
    const auto i = t.grid<1>();
    out(i) = static_cast<int>(t.match_any_sync(full, in(i)));
  }
};

struct match_all_body {
  UFX_HD void operator()(const ufx::thread& t, ufx::ndview<const int, 1> in, ufx::ndview<int, 1> out) const {
    const auto i = t.grid<1>();
    const auto [m, same] = t.match_all_sync(full, in(i));
    out(i) = same ? static_cast<int>(m) : 0;
  }
};

struct independent_scheduling_body {
  UFX_HD void operator()(const ufx::thread& t, ufx::ndview<unsigned, 1> arr) const {
    const unsigned i = t.thread_idx().x;
    unsigned ballot = 0;
    if (i % 4 == 0) ballot = t.ballot_sync(0x11111111u, true);
    else if (i % 4 == 1) ballot = t.ballot_sync(0x22222222u, true);
    else if (i % 4 == 2) ballot = t.ballot_sync(0x44444444u, true);
    else ballot = t.ballot_sync(0x88888888u, true);
    arr(i) = ballot;
  }
};

struct activemask_body {
  UFX_HD void operator()(const ufx::thread& t, ufx::ndview<unsigned, 1> x) const {
    const auto i = t.grid<1>();
    if (i % 2 == 0) x(i) = t.activemask(); // even lanes: ...0101
    else x(i) = t.activemask();            // odd lanes: ...1010
  }
};

struct lanemask_lt_body {
  UFX_HD void operator()(const ufx::thread& t, ufx::ndview<unsigned, 1> x) const { x(t.grid<1>()) = t.lanemask_lt(); }
};

// ---- numba-cuda test_sync.py

struct useless_syncwarp_body {
  unsigned mask;
  UFX_HD void operator()(const ufx::thread& t, ufx::ndview<int, 1> ary) const {
    const auto i = t.grid<1>();
    t.syncwarp(mask);
    ary(i) = static_cast<int>(i);
  }
};

/// Sums 0..31 in one warp through shared memory, ordered by syncwarps alone.
template <bool Broken>
struct coop_syncwarp_body {
  UFX_HD void operator()(const ufx::thread& t, ufx::shared<int[32]> sm, ufx::ndview<int, 1> res) const {
    const auto i = static_cast<unsigned>(t.grid<1>());
    sm[i] = static_cast<int>(i);
    t.syncwarp();
    if (i < 16) {
      sm[i] = sm[i] + sm[i + 16];
      t.syncwarp(0xffff);
    }
    if (i < 8) {
      sm[i] = sm[i] + sm[i + 8];
      if (!Broken) t.syncwarp(0xff); // without it lane 0 reads sm[4] while lane 4 may still write it
    }
    if (i < 4) {
      sm[i] = sm[i] + sm[i + 4];
      t.syncwarp(0xf);
    }
    if (i < 2) {
      sm[i] = sm[i] + sm[i + 2];
      t.syncwarp(0x3);
    }
    if (i == 0) res(0) = sm[0] + sm[1];
  }
};

enum class sync_mode { count, and_, or_ };
template <sync_mode M, class P>
struct sync_pred_body {
  UFX_HD void operator()(const ufx::thread& t, ufx::ndview<const P, 1> in, ufx::ndview<int, 1> out) const {
    const auto i = t.grid<1>();
    if constexpr (M == sync_mode::count) out(i) = t.sync_count(in(i));
    else if constexpr (M == sync_mode::and_) out(i) = t.sync_and(in(i)) ? 1 : 0;
    else out(i) = t.sync_or(in(i)) ? 1 : 0;
  }
};

template <int Scope>
struct threadfence_body {
  UFX_HD void operator()(const ufx::thread&, ufx::ndview<int, 1> ary) const {
    ary(0) += 123;
    if constexpr (Scope == 0) ufx::threadfence_block();
    else if constexpr (Scope == 1) ufx::threadfence();
    else ufx::threadfence_system();
    ary(0) += 321;
  }
};

// ---- numba-cuda test_atomics.py: and, or, xor, inc, dec, nanmax, nanmin

enum class bit_op { and_, or_, xor_, inc, dec };
template <bit_op Op, class T>
UFX_HD T apply_atomic(T& ref, T v) {
  if constexpr (Op == bit_op::and_) return ufx::atomic_and(ref, v);
  else if constexpr (Op == bit_op::or_) return ufx::atomic_or(ref, v);
  else if constexpr (Op == bit_op::xor_) return ufx::atomic_xor(ref, v);
  else if constexpr (Op == bit_op::inc) return ufx::atomic_inc(ref, v);
  else return ufx::atomic_dec(ref, v);
}

/// atomic_binary_1dim_shared: each thread updates the shared bin ary[tid] names, then the bins go back.
template <bit_op Op, class T>
struct atomic_shared_body {
  T init;
  UFX_HD void operator()(const ufx::thread& t, ufx::shared<T[32]> sm, ufx::ndview<T, 1> ary,
                         ufx::ndview<const int, 1> idx, T op2) const {
    const unsigned tid = t.thread_idx().x;
    sm[tid] = init;
    t.sync();
    apply_atomic<Op>(sm[static_cast<unsigned>(idx(tid))], op2);
    t.sync();
    ary(tid) = sm[tid];
  }
};

/// atomic_binary_1dim_global: each thread updates ary[idx[tid]] in device memory.
template <bit_op Op, class T>
struct atomic_global_body {
  UFX_HD void operator()(const ufx::thread& t, ufx::ndview<const int, 1> idx, ufx::ndview<T, 1> ary, T op2) const {
    const unsigned tid = t.thread_idx().x;
    apply_atomic<Op>(ary(idx(tid)), op2);
  }
};

/// atomic_binary_2dim_global: thread (x, y) updates ary[x, y].
template <bit_op Op, class T>
struct atomic_global_2d_body {
  UFX_HD void operator()(const ufx::thread& t, ufx::ndview<T, 2> ary, T op2) const {
    const ufx::dim3 i = t.thread_idx();
    apply_atomic<Op>(ary(i.x, i.y), op2);
  }
};

template <bool Max, class T>
struct atomic_nanextreme_body {
  UFX_HD void operator()(const ufx::thread& t, ufx::ndview<T, 1> res, ufx::ndview<const T, 2> vals) const {
    const ufx::dim3 b = t.block_idx(), i = t.thread_idx();
    if constexpr (Max) ufx::atomic_nanmax(res(0), vals(b.x, i.x));
    else ufx::atomic_nanmin(res(0), vals(b.x, i.x));
  }
};

// ---- block collectives

struct block_sum_body {
  UFX_HD void operator()(const ufx::thread& t, ufx::shared<long long[32]> scratch, ufx::ndview<const long long, 1> x,
                         ufx::ndview<long long, 1> out) const {
    const auto i = t.grid<1>();
    const long long s = ufx::block_reduce(t, scratch, x(i), ufx_test::add_f{});
    out(i) = s; // every thread has the sum
  }
};

/// An affine map x -> m x + c over the integers mod 2^32: composing them is associative, not commutative.
struct affine {
  unsigned m, c;
};
struct compose_f {
  UFX_HD affine operator()(affine f, affine g) const { return {f.m * g.m, f.c * g.m + g.c}; } // g after f
};
struct block_scan_body {
  UFX_HD void operator()(const ufx::thread& t, ufx::shared<affine[32]> scratch, ufx::ndview<const unsigned, 1> m,
                         ufx::ndview<unsigned, 1> inc, ufx::ndview<unsigned, 1> exc) const {
    const auto i = t.grid<1>();
    const affine v{m(i), static_cast<unsigned>(i) + 1u};
    const affine a = ufx::block_scan(t, scratch, v, compose_f{});
    const affine b = ufx::block_exclusive_scan(t, scratch, v, compose_f{}, affine{1u, 7u});
    inc(i) = a.m * 3u + a.c; // the prefix applied to 3
    exc(i) = b.m * 3u + b.c;
  }
};

/// A block reduction of float sums through shuffles: the same bits on every target.
struct block_float_sum_body {
  UFX_HD void operator()(const ufx::thread& t, ufx::shared<float[32]> scratch, ufx::ndview<const float, 1> x,
                         ufx::ndview<float, 1> out) const {
    const auto i = t.grid<1>();
    const float s = ufx::block_reduce(t, scratch, x(i), ufx_test::add_f{});
    if (t.thread_rank() == 0) out(t.block_idx().x) = s;
  }
};

struct triple {
  int a;
  float b;
  short c;
};
struct shfl_struct_body {
  UFX_HD void operator()(const ufx::thread& t, ufx::ndview<int, 1> out) const {
    const unsigned lane = t.lane_id();
    const triple mine{static_cast<int>(lane), 0.5f * static_cast<float>(lane),
                      static_cast<short>(-static_cast<int>(lane))};
    const triple o = t.shfl_xor_sync(full, mine, 1u);
    const auto w = t.shfl_down_sync(full, static_cast<double>(lane), 2u, 8); // groups of 8 lanes
    out(lane) = o.a * 1000 + static_cast<int>(o.b * 2.f) * 10 + (o.c == -o.a ? 1 : 0) + static_cast<int>(w) * 100000;
  }
};

struct lane_info_body {
  UFX_HD void operator()(const ufx::thread& t, ufx::ndview<unsigned, 2> out) const {
    const unsigned r = t.thread_rank();
    out(r, 0) = t.lane_id();
    out(r, 1) = t.warp_id();
    out(r, 2) = t.lanemask_le();
    out(r, 3) = t.lanemask_gt();
  }
};

} // namespace

TEST_CASE_TEMPLATE("test_warp_ops.py::test_useful_syncwarp, shfl_sync idx / up / down / xor", Target,
                   UFX_TEST_TARGETS) {
  if (!kernel_runnable<Target>()) return;
  const Target tgt{};
  std::vector<int> ary(32, -1);
  ufx::kernel(useful_syncwarp_body{}, "useful_syncwarp")[{1, 32}](tgt, ary);
  CHECK(ary == std::vector<int>(32, 42));

  std::vector<int> exp(32);
  ufx::kernel(shfl_body<shfl_mode::idx>{}, "shfl_idx")[{1, 32}](tgt, ary, 4); // test_shfl_sync_idx
  CHECK(ary == std::vector<int>(32, 4));
  ufx::kernel(shfl_body<shfl_mode::up>{}, "shfl_up")[{1, 32}](tgt, ary, 4); // test_shfl_sync_up
  for (int i = 0; i < 32; ++i) exp[static_cast<std::size_t>(i)] = i >= 4 ? i - 4 : i;
  CHECK(ary == exp);
  ufx::kernel(shfl_body<shfl_mode::down>{}, "shfl_down")[{1, 32}](tgt, ary, 4); // test_shfl_sync_down
  for (int i = 0; i < 32; ++i) exp[static_cast<std::size_t>(i)] = i < 28 ? i + 4 : i;
  CHECK(ary == exp);
  ufx::kernel(shfl_body<shfl_mode::xor_>{}, "shfl_xor")[{1, 32}](tgt, ary, 16); // test_shfl_sync_xor
  for (int i = 0; i < 32; ++i) exp[static_cast<std::size_t>(i)] = i ^ 16;
  CHECK(ary == exp);
}

TEST_CASE_TEMPLATE("test_warp_ops.py::test_shfl_sync_types, and values of any size up to 64 bytes", Target,
                   UFX_TEST_TARGETS) {
  if (!kernel_runnable<Target>()) return;
  const Target tgt{};
  std::vector<std::int32_t> a(32);
  ufx::kernel(shfl_with_val_body<std::int32_t>{}, "shfl_i32")[{1, 32}](tgt, a, -1);
  CHECK(a == std::vector<std::int32_t>(32, -1));
  std::vector<std::int64_t> b(32);
  ufx::kernel(shfl_with_val_body<std::int64_t>{}, "shfl_i64")[{1, 32}](tgt, b, std::int64_t{1} << 42);
  CHECK(b == std::vector<std::int64_t>(32, std::int64_t{1} << 42));
  std::vector<float> c(32);
  ufx::kernel(shfl_with_val_body<float>{}, "shfl_f32")[{1, 32}](tgt, c, 3.14159265f);
  CHECK(c == std::vector<float>(32, 3.14159265f));
  std::vector<double> d(32);
  ufx::kernel(shfl_with_val_body<double>{}, "shfl_f64")[{1, 32}](tgt, d, 3.141592653589793);
  CHECK(d == std::vector<double>(32, 3.141592653589793));
  // a 12-byte struct through shfl_xor, and a double through shfl_down in groups of 8 lanes
  std::vector<int> out(32);
  ufx::kernel(shfl_struct_body{}, "shfl_struct")[{1, 32}](tgt, out);
  for (int l = 0; l < 32; ++l) {
    const int o = l ^ 1, w = (l % 8) + 2 < 8 ? l + 2 : l;
    CHECK(out[static_cast<std::size_t>(l)] == o * 1000 + o * 10 + 1 + w * 100000);
  }
}

namespace {
/// Two warps of 2-byte floats with distinct bits (-0, NaNs with payloads of both signs, quiet and signalling, the
/// infinities, a subnormal) through each shuffle: every lane gets its source lane's bits.
template <class Target, class T>
void check_half_shuffles() {
  const unsigned inf = std::numeric_limits<T>::infinity().bits(), qnan = std::numeric_limits<T>::quiet_NaN().bits();
  const auto of = [](unsigned bits) { return T::from_bits(static_cast<std::uint16_t>(bits)); };
  std::vector<T> in;
  for (unsigned i = 0; i < 64; ++i) in.push_back(of(0x1235 + 0x0411 * i));
  const unsigned special[] = {0x8000, qnan | 0x15, inf | 1, 0x8000 | qnan | 0x2a, inf, 0x8000 | inf, 0x0001};
  for (std::size_t k = 0; k < std::size(special); ++k) in[k * 9] = of(special[k]); // in both warps
  ufx::ndarray<T, 2> out({4, 64});
  ufx::kernel(shfl_half_body<T>{}, "shfl_half")[{1, 64}](Target{}, in, out);
  for (unsigned i = 0; i < 64; ++i) {
    const unsigned l = i % 32, base = i - l;
    const unsigned from[4] = {base + l * 7 % 32, l >= 3 ? i - 3 : i, l % 16 + 5 < 16 ? i + 5 : i, i ^ 9};
    for (int k = 0; k < 4; ++k) CHECK(out(k, i).bits() == in[from[k]].bits());
  }
}
} // namespace

TEST_CASE_TEMPLATE("float16 and bfloat16 through shfl_sync, shfl_up_sync, shfl_down_sync, shfl_xor_sync: the bits",
                   Target, UFX_TEST_TARGETS) {
  if (!kernel_runnable<Target>()) return;
  check_half_shuffles<Target, ufx::float16>();
  check_half_shuffles<Target, ufx::bfloat16>();
}

TEST_CASE_TEMPLATE("test_warp_ops.py::test_vote_sync_all / any / eq / ballot", Target, UFX_TEST_TARGETS) {
  if (!kernel_runnable<Target>()) return;
  const Target tgt{};
  std::vector<int> in(32, 1), out(32, -1);
  auto all = ufx::kernel(vote_body<vote_mode::all>{}, "all");
  all[{1, 32}](tgt, in, out);
  CHECK(out == std::vector<int>(32, 1));
  in[31] = 0;
  all[{1, 32}](tgt, in, out);
  CHECK(out == std::vector<int>(32, 0));

  auto any = ufx::kernel(vote_body<vote_mode::any>{}, "any");
  std::fill(in.begin(), in.end(), 0);
  any[{1, 32}](tgt, in, out);
  CHECK(out == std::vector<int>(32, 0));
  in[2] = in[5] = 1;
  any[{1, 32}](tgt, in, out);
  CHECK(out == std::vector<int>(32, 1));

  auto eq = ufx::kernel(vote_body<vote_mode::eq>{}, "eq");
  std::fill(in.begin(), in.end(), 0);
  eq[{1, 32}](tgt, in, out);
  CHECK(out == std::vector<int>(32, 1));
  in[1] = 1;
  eq[{1, 32}](tgt, in, out);
  CHECK(out == std::vector<int>(32, 0));
  std::fill(in.begin(), in.end(), 1);
  eq[{1, 32}](tgt, in, out);
  CHECK(out == std::vector<int>(32, 1));

  std::vector<unsigned> ballot(32);
  ufx::kernel(ballot_body{}, "ballot")[{1, 32}](tgt, ballot);
  CHECK(ballot == std::vector<unsigned>(32, 0xffffffffu));
}

TEST_CASE_TEMPLATE("test_warp_ops.py::test_match_any_sync / test_match_all_sync (a warp of 10 lanes)", Target,
                   UFX_TEST_TARGETS) {
  if (!kernel_runnable<Target>()) return;
  const Target tgt{};
  std::vector<int> in(10), out(10, -1);
  for (int i = 0; i < 10; ++i) in[static_cast<std::size_t>(i)] = i % 2;
  ufx::kernel(match_any_body{}, "match_any")[{1, 10}](tgt, in, out);
  for (int i = 0; i < 10; ++i) CHECK(out[static_cast<std::size_t>(i)] == (i % 2 ? 0b1010101010 : 0b0101010101));
  auto match_all = ufx::kernel(match_all_body{}, "match_all");
  std::fill(in.begin(), in.end(), 0);
  match_all[{1, 10}](tgt, in, out);
  CHECK(out == std::vector<int>(10, 0b1111111111));
  in[1] = 4;
  match_all[{1, 10}](tgt, in, out);
  CHECK(out == std::vector<int>(10, 0));
}

TEST_CASE_TEMPLATE("test_warp_ops.py::test_independent_scheduling, test_activemask, test_lanemask_lt", Target,
                   UFX_TEST_TARGETS) {
  if (!kernel_runnable<Target>()) return;
  const Target tgt{};
  std::vector<unsigned> arr(32);
  ufx::kernel(independent_scheduling_body{}, "independent")[{1, 32}](tgt, arr);
  for (std::size_t i = 0; i < 32; ++i) CHECK(arr[i] == (0x11111111u << (i % 4)));
  ufx::kernel(activemask_body{}, "activemask")[{1, 32}](tgt, arr);
  for (std::size_t i = 0; i < 32; ++i) CHECK(arr[i] == (i % 2 ? 0xaaaaaaaau : 0x55555555u));
  ufx::kernel(lanemask_lt_body{}, "lanemask_lt")[{1, 32}](tgt, arr);
  for (std::size_t i = 0; i < 32; ++i) CHECK(arr[i] == (1u << i) - 1u);
  // lanes and warps of a 2-D block of 5 x 9 threads: x fastest, 32 lanes a warp
  ufx::ndarray<unsigned, 2> info({45, 4}, 0u);
  ufx::kernel(lane_info_body{}, "lanes")[{1, {5, 9}}](tgt, info);
  for (unsigned r = 0; r < 45; ++r) {
    CHECK(info(r, 0) == r % 32);
    CHECK(info(r, 1) == r / 32);
    CHECK(info(r, 2) == (r % 32 == 31 ? 0xffffffffu : (2u << (r % 32)) - 1u));
    CHECK(info(r, 3) == ~(r % 32 == 31 ? 0xffffffffu : (2u << (r % 32)) - 1u));
  }
}

TEST_CASE_TEMPLATE("test_sync.py::test_useless_syncwarp / _with_mask / test_coop_syncwarp", Target, UFX_TEST_TARGETS) {
  if (!kernel_runnable<Target>()) return;
  const Target tgt{};
  std::vector<int> exp(10);
  std::iota(exp.begin(), exp.end(), 0);
  for (unsigned mask : {full, 0xffffu}) { // a warp of 10 lanes: the mask's missing lanes are ignored
    std::vector<int> ary(10, -1);
    ufx::kernel(useless_syncwarp_body{mask}, "useless_syncwarp")[{1, 10}](tgt, ary);
    CHECK(ary == exp);
  }
  std::vector<int> res{0};
  ufx::kernel(coop_syncwarp_body<false>{}, "coop_syncwarp")[{1, 32}](tgt, res);
  CHECK(res[0] == 496);
}

TEST_CASE_TEMPLATE("test_sync.py::test_syncthreads_count / _and / _or (with narrower and wider predicates)", Target,
                   UFX_TEST_TARGETS) {
  if (!kernel_runnable<Target>()) return;
  const Target tgt{};
  auto run = [&](auto in_type) {
    using P = decltype(in_type);
    std::vector<P> in(72, P(1));
    std::vector<int> out(72, 0);
    in[31] = in[42] = P(0);
    ufx::kernel(sync_pred_body<sync_mode::count, P>{}, "count")[{1, 72}](tgt, in, out);
    CHECK(out == std::vector<int>(72, 70));

    std::vector<P> in2(100, P(1));
    std::vector<int> out2(100, 0);
    auto and_ = ufx::kernel(sync_pred_body<sync_mode::and_, P>{}, "and");
    and_[{1, 100}](tgt, in2, out2);
    CHECK(out2 == std::vector<int>(100, 1));
    in2[31] = P(0);
    and_[{1, 100}](tgt, in2, out2);
    CHECK(out2 == std::vector<int>(100, 0));

    std::fill(in2.begin(), in2.end(), P(0));
    auto or_ = ufx::kernel(sync_pred_body<sync_mode::or_, P>{}, "or");
    or_[{1, 100}](tgt, in2, out2);
    CHECK(out2 == std::vector<int>(100, 0));
    in2[31] = P(1);
    or_[{1, 100}](tgt, in2, out2);
    CHECK(out2 == std::vector<int>(100, 1));
  };
  run(std::int32_t{});
  run(std::int16_t{}); // test_syncthreads_*_upcast
  run(std::int64_t{}); // test_syncthreads_*_downcast
}

TEST_CASE_TEMPLATE("test_sync.py::test_threadfence_codegen / _block / _system (PTX checked in tests/ptx)", Target,
                   UFX_TEST_TARGETS) {
  if (!kernel_runnable<Target>()) return;
  const Target tgt{};
  std::vector<int> a(10, 0), b(10, 0), c(10, 0);
  ufx::kernel(threadfence_body<1>{}, "threadfence")[{1, 1}](tgt, a);
  ufx::kernel(threadfence_body<0>{}, "threadfence_block")[{1, 1}](tgt, b);
  ufx::kernel(threadfence_body<2>{}, "threadfence_system")[{1, 1}](tgt, c);
  CHECK(a[0] == 444);
  CHECK(b[0] == 444);
  CHECK(c[0] == 444);
}

namespace {
/// Deterministic stand-ins for the Python tests' random draws.
std::vector<int> draw(int n, int mod, int seed) {
  std::vector<int> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = (i * 17 + seed * 11 + i * i * 3) % mod;
  return v;
}

template <bit_op Op, class T>
T reference(T old, T v) {
  if constexpr (Op == bit_op::and_) return old & v;
  else if constexpr (Op == bit_op::or_) return old | v;
  else if constexpr (Op == bit_op::xor_) return old ^ v;
  else if constexpr (Op == bit_op::inc) return old >= v ? T(0) : T(old + 1);
  else return old == 0 || old > v ? v : T(old - 1);
}

template <class Target, bit_op Op, class T>
void check_atomic_bits(T op2, T shared_init) {
  const Target tgt{};
  const auto idx = draw(32, 32, static_cast<int>(Op));
  // atomic_binary_1dim_shared: bins in shared memory
  {
    std::vector<T> ary(32, T(0));
    ufx::kernel(atomic_shared_body<Op, T>{shared_init}, "atomic_shared")[{1, 32}](tgt, ary, idx, op2);
    std::vector<T> gold(32, shared_init);
    for (int i : idx) gold[static_cast<std::size_t>(i)] = reference<Op>(gold[static_cast<std::size_t>(i)], op2);
    CHECK(ary == gold);
  }
  // atomic_binary_1dim_global: the same updates on device memory
  {
    std::vector<T> ary(32);
    for (std::size_t i = 0; i < 32; ++i) ary[i] = static_cast<T>(draw(32, 32, 5)[i]);
    std::vector<T> gold = ary;
    ufx::kernel(atomic_global_body<Op, T>{}, "atomic_global")[{1, 32}](tgt, idx, ary, op2);
    for (int i : idx) gold[static_cast<std::size_t>(i)] = reference<Op>(gold[static_cast<std::size_t>(i)], op2);
    CHECK(ary == gold);
  }
  // atomic_binary_2dim_global: one update per element of a 4 x 8 array
  {
    ufx::ndarray<T, 2> ary({4, 8}, T(0));
    for (int i = 0; i < 32; ++i) ary(i / 8, i % 8) = static_cast<T>(draw(32, 32, 7)[static_cast<std::size_t>(i)]);
    ufx::ndarray<T, 2> gold = ary;
    ufx::kernel(atomic_global_2d_body<Op, T>{}, "atomic_global_2d")[{1, {4, 8}}](tgt, ary, op2);
    for (int i = 0; i < 32; ++i) CHECK(ary(i / 8, i % 8) == reference<Op>(gold(i / 8, i % 8), op2));
  }
}
} // namespace

TEST_CASE_TEMPLATE("test_atomics.py::test_atomic_and / or / xor (shared and global, 1-D and 2-D)", Target,
                   UFX_TEST_TARGETS) {
  if (!kernel_runnable<Target>()) return;
  check_atomic_bits<Target, bit_op::and_, std::uint32_t>(371u, 1u);
  check_atomic_bits<Target, bit_op::and_, std::int32_t>(371, -1);
  check_atomic_bits<Target, bit_op::or_, std::uint32_t>(371u, 0u);
  check_atomic_bits<Target, bit_op::or_, std::int64_t>(std::int64_t{371} << 33, 0);
  check_atomic_bits<Target, bit_op::xor_, std::uint32_t>(371u, 0u);
  check_atomic_bits<Target, bit_op::xor_, std::uint64_t>(~std::uint64_t{0} - 5, 0u);
}

TEST_CASE_TEMPLATE("test_atomics.py::test_atomic_inc / dec, 32 and 64 bits (CUDA's wrap-around)", Target,
                   UFX_TEST_TARGETS) {
  if (!kernel_runnable<Target>()) return;
  for (std::uint32_t rconst : {0u, 5u, 17u, 31u}) {
    CAPTURE(rconst);
    check_atomic_bits<Target, bit_op::inc, std::uint32_t>(rconst, 3u);
    check_atomic_bits<Target, bit_op::dec, std::uint32_t>(rconst, 3u);
    check_atomic_bits<Target, bit_op::inc, std::uint64_t>(rconst, 3u);
    check_atomic_bits<Target, bit_op::dec, std::uint64_t>(rconst, 0u);
  }
}

namespace {
template <class Target, class T>
void check_nanextremes(T nan_or_zero, T lo, T hi) {
  const Target tgt{};
  ufx::ndarray<T, 2> vals({32, 32}, T(0));
  for (int r = 0; r < 32; ++r)
    for (int c = 0; c < 32; ++c)
      vals(r, c) =
          r % 2 ? nan_or_zero : static_cast<T>(lo + static_cast<T>((r * 131 + c * 37) % static_cast<int>(hi - lo)));
  T gmax = lo, gmin = hi;
  for (int r = 0; r < 32; r += 2)
    for (int c = 0; c < 32; ++c) gmax = std::max(gmax, vals(r, c)), gmin = std::min(gmin, vals(r, c));
  if constexpr (!std::is_floating_point_v<T>) gmax = std::max(gmax, T(0)), gmin = std::min(gmin, T(0));
  std::vector<T> res{std::numeric_limits<T>::has_quiet_NaN ? nan_or_zero : T(0)}; // starts at NaN for floats
  ufx::kernel(atomic_nanextreme_body<true, T>{}, "nanmax")[{32, 32}](tgt, res, vals);
  CHECK(res[0] == gmax);
  res[0] = std::numeric_limits<T>::has_quiet_NaN ? nan_or_zero : T(65535);
  ufx::kernel(atomic_nanextreme_body<false, T>{}, "nanmin")[{32, 32}](tgt, res, vals);
  CHECK(res[0] == gmin);
}
} // namespace

TEST_CASE_TEMPLATE("test_atomics.py::test_atomic_nanmax / nanmin on every element type, NaN as missing", Target,
                   UFX_TEST_TARGETS) {
  if (!kernel_runnable<Target>()) return;
  check_nanextremes<Target, std::int32_t>(0, -65535, 65535);
  check_nanextremes<Target, std::uint32_t>(0u, 0u, 65535u);
  check_nanextremes<Target, std::int64_t>(0, -65535, 65535);
  check_nanextremes<Target, std::uint64_t>(0u, 0u, 65535u);
  check_nanextremes<Target, float>(std::nanf(""), -65535.f, 65535.f);
  check_nanextremes<Target, double>(std::nan(""), -65535.0, 65535.0);
}

TEST_CASE("test_atomics.py::test_atomic_nanmax_returns_old_*: the old value, and a NaN never stored") {
  double x = 10.0;
  CHECK(ufx::atomic_nanmax(x, 5.0) == 10.0); // no replace
  CHECK(x == 10.0);
  CHECK(ufx::atomic_nanmax(x, 20.0) == 10.0); // replace
  CHECK(x == 20.0);
  CHECK(ufx::atomic_nanmax(x, std::nan("")) == 20.0); // a NaN value is missing
  CHECK(x == 20.0);
  x = std::nan("");
  CHECK(std::isnan(ufx::atomic_nanmax(x, 7.0))); // a stored NaN is replaced
  CHECK(x == 7.0);
  float y = 1.f;
  CHECK(ufx::atomic_nanmin(y, -2.f) == 1.f);
  CHECK(y == -2.f);
  CHECK(ufx::atomic_nanmin(y, std::nanf("")) == -2.f);
  CHECK(y == -2.f);
  std::uint32_t u = 7;
  CHECK(ufx::atomic_inc(u, 7u) == 7u);
  CHECK(u == 0u);
  CHECK(ufx::atomic_dec(u, 9u) == 0u);
  CHECK(u == 9u);
}

TEST_CASE_TEMPLATE("block_reduce and block_scan: every block size, exact integers, thread order kept", Target,
                   UFX_TEST_TARGETS) {
  if (!kernel_runnable<Target>()) return;
  const Target tgt{};
  for (int threads : {1, 10, 32, 33, 100, 256, 1024}) {
    CAPTURE(threads);
    const int blocks = 3, n = blocks * threads;
    std::vector<long long> x(static_cast<std::size_t>(n)), sums(static_cast<std::size_t>(n), -1);
    for (int i = 0; i < n; ++i) x[static_cast<std::size_t>(i)] = (i * 7919LL) % 1000 - 500;
    ufx::kernel(block_sum_body{}, "block_sum")[{blocks, threads}](tgt, x, sums);
    for (int b = 0; b < blocks; ++b) {
      const auto first = x.begin() + b * threads;
      const long long s = std::accumulate(first, first + threads, 0LL);
      for (int i = 0; i < threads; ++i) CHECK(sums[static_cast<std::size_t>(b * threads + i)] == s);
    }
    std::vector<unsigned> m(static_cast<std::size_t>(n)), inc(static_cast<std::size_t>(n)),
        exc(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) m[static_cast<std::size_t>(i)] = 2u * static_cast<unsigned>(i % 13) + 1u;
    ufx::kernel(block_scan_body{}, "block_scan")[{blocks, threads}](tgt, m, inc, exc);
    for (int b = 0; b < blocks; ++b) {
      affine pre{1u, 7u}; // the exclusive scan's init, then each thread's map in order
      affine acc{1u, 0u};
      for (int i = 0; i < threads; ++i) {
        const int g = b * threads + i;
        const affine v{m[static_cast<std::size_t>(g)], static_cast<unsigned>(g) + 1u};
        CHECK(exc[static_cast<std::size_t>(g)] == pre.m * 3u + pre.c);
        pre = compose_f{}(pre, v);
        acc = i == 0 ? v : compose_f{}(acc, v);
        CHECK(inc[static_cast<std::size_t>(g)] == acc.m * 3u + acc.c);
      }
    }
  }
}

TEST_CASE_TEMPLATE("block_reduce of floats: the same bits on every target (a fixed order of additions)", Target,
                   UFX_TEST_TARGETS) {
  if (!kernel_runnable<Target>()) return;
  const int blocks = 4;
  for (int threads : {200, 1024}) {
    const int n = threads * blocks;
    std::vector<float> x(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) x[static_cast<std::size_t>(i)] = std::sin(0.37f * static_cast<float>(i)) * 1e3f;
    std::vector<float> got(blocks, 0.f);
    ufx::kernel(block_float_sum_body{}, "block_float_sum")[{blocks, threads}](Target{}, x, got);
    // the order block.hpp documents: a shuffle tree in each warp, then the same tree over the warps
    const auto tree = [](std::vector<float> v) {
      const auto m = v.size();
      for (std::size_t d = 16; d >= 1; d /= 2) {
        const std::vector<float> old = v;
        for (std::size_t l = 0; l + d < m; ++l) v[l] = old[l] + old[l + d];
      }
      return v[0];
    };
    for (int b = 0; b < blocks; ++b) {
      std::vector<float> warps;
      for (int w0 = 0; w0 < threads; w0 += 32) {
        const auto first = x.begin() + b * threads + w0;
        warps.push_back(tree(std::vector<float>(first, first + std::min(32, threads - w0))));
      }
      CHECK(got[static_cast<std::size_t>(b)] == tree(warps)); // bitwise
    }
  }
}

// ---- the sim's warp checks: each planted bug reported, its correction accepted

TEST_CASE("sim warp checks: a mask naming a lane that has returned") {
  if (!kernel_runnable<ufx::sim_t>()) return;
  std::vector<int> out(32, 0);
  auto k = ufx::kernel(
      [] UFX_HD(const ufx::thread& t, unsigned mask, ufx::ndview<int, 1> o) {
        if (t.lane_id() >= 16) return;
        o(t.lane_id()) = t.shfl_xor_sync(mask, static_cast<int>(t.lane_id()), 1u);
      },
      "early_exit");
  const std::string msg = error_message([&] { k[{1, 32}](ufx::sim, full, out); });
  CHECK(msg.find("kernel 'early_exit' on ufx::sim device 0, block (0, 0, 0), thread (0, 0, 0) (warp 0, lane 0): "
                 "shfl_xor_sync on line") != std::string::npos);
  CHECK(msg.find("its mask 0xffffffff names lane 16, which has returned") != std::string::npos);
  k[{1, 32}](ufx::sim, 0x0000ffffu, out); // the lanes that take part
  for (int l = 0; l < 16; ++l) CHECK(out[static_cast<std::size_t>(l)] == (l ^ 1));
}

TEST_CASE("sim warp checks: a shuffle from a lane outside the mask, or one the block lacks") {
  if (!kernel_runnable<ufx::sim_t>()) return;
  std::vector<int> out(32, 0);
  auto k = ufx::kernel(
      [] UFX_HD(const ufx::thread& t, int width, ufx::ndview<int, 1> o) {
        if (t.lane_id() >= 16) return;
        o(t.lane_id()) = t.shfl_down_sync(0xffffu, static_cast<int>(t.lane_id()), 1u, width);
      },
      "outside");
  std::string msg = error_message([&] { k[{1, 32}](ufx::sim, 32, out); });
  CHECK(msg.find("thread (15, 0, 0) (warp 0, lane 15): shfl_down_sync on line") != std::string::npos);
  CHECK(msg.find("reads lane 16, which is not in its mask 0x0000ffff: on a GPU the value is undefined") !=
        std::string::npos);
  k[{1, 32}](ufx::sim, 16, out); // groups of 16 lanes: lane 15 keeps its own value
  CHECK(out[14] == 15);
  CHECK(out[15] == 15);
  // a block of 10 threads: lane 0 reading lane 16 reads a lane that does not exist
  auto partial = ufx::kernel(
      [] UFX_HD(const ufx::thread& t, ufx::ndview<int, 1> o) {
        o(t.lane_id()) = t.shfl_down_sync(full, static_cast<int>(t.lane_id()), 16u);
      },
      "partial");
  msg = error_message([&] { partial[{1, 10}](ufx::sim, out); });
  CHECK(msg.find("(warp 0, lane 0): shfl_down_sync on line") != std::string::npos);
  CHECK(msg.find("reads lane 16, which this block does not have (warp 0 has 10 lanes)") != std::string::npos);
}

TEST_CASE("sim warp checks: syncwarp with different masks, and a lane not in its own mask") {
  if (!kernel_runnable<ufx::sim_t>()) return;
  auto k = ufx::kernel(
      [] UFX_HD(const ufx::thread& t, ufx::ndview<int, 1> o) {
        t.syncwarp(t.lane_id() == 0 ? 0x3u : full);
        o(t.lane_id()) = 1;
      },
      "masks");
  std::vector<int> out(32, 0);
  std::string msg = error_message([&] { k[{1, 32}](ufx::sim, out); });
  CHECK(msg.find("(warp 0, lane 0): syncwarp on line") != std::string::npos);
  CHECK(msg.find("with mask 0x00000003 waits for lane 1, which waits at syncwarp on line") != std::string::npos);
  CHECK(msg.find("with mask 0xffffffff (every lane must pass the same mask)") != std::string::npos);
  auto self = ufx::kernel([] UFX_HD(const ufx::thread& t) { t.syncwarp(1u); }, "self");
  msg = error_message([&] { self[{1, 2}](ufx::sim); });
  CHECK(msg.find("thread (1, 0, 0) (warp 0, lane 1): syncwarp on line") != std::string::npos);
  CHECK(msg.find("its mask 0x00000001 does not name this thread's lane 1") != std::string::npos);
}

TEST_CASE("sim warp checks: sync_count reached by part of the block, and lanes at different operations") {
  if (!kernel_runnable<ufx::sim_t>()) return;
  std::vector<int> out(64, 0);
  auto k = ufx::kernel(
      [] UFX_HD(const ufx::thread& t, ufx::ndview<int, 1> o) {
        const unsigned i = t.thread_rank();
        if (i >= 40) return;
        o(i) = t.sync_count(i % 2);
      },
      "count");
  std::string msg = error_message([&] { k[{1, 64}](ufx::sim, out); });
  CHECK(msg.find("barrier divergence: this thread returned while thread (0, 0, 0) waits at t.sync_count() on line") !=
        std::string::npos);
  k[{1, 40}](ufx::sim, out);
  CHECK(out[0] == 20);
  CHECK(out[39] == 20);
  auto mixed = ufx::kernel(
      [] UFX_HD(const ufx::thread& t, ufx::ndview<int, 1> o) {
        const unsigned i = t.thread_rank();
        if (i < 8) o(i) = t.sync_count(1);
        else t.sync();
      },
      "mixed");
  msg = error_message([&] { mixed[{1, 16}](ufx::sim, out); });
  CHECK(msg.find("thread (8, 0, 0): barrier divergence: this thread waits at t.sync() on line") != std::string::npos);
  CHECK(msg.find("while thread (0, 0, 0) waits at t.sync_count() on line") != std::string::npos);
  auto kinds = ufx::kernel(
      [] UFX_HD(const ufx::thread& t, ufx::ndview<int, 1> o) {
        const unsigned l = t.lane_id();
        if (l == 3) o(l) = static_cast<int>(t.ballot_sync(full, true));
        else o(l) = t.shfl_sync(full, static_cast<int>(l), 0);
      },
      "kinds");
  msg = error_message([&] { kinds[{1, 32}](ufx::sim, out); });
  CHECK(msg.find("(warp 0, lane 0): shfl_sync on line") != std::string::npos);
  CHECK(msg.find("meets lane 3 at ballot_sync on line") != std::string::npos);
}

TEST_CASE("sim warp checks: warp-synchronous shared memory is ordered by syncwarp alone, and a missing one is a race") {
  if (!kernel_runnable<ufx::sim_t>()) return;
  std::vector<int> res{0};
  ufx::kernel(coop_syncwarp_body<false>{}, "coop_syncwarp")[{1, 32}](ufx::sim, res);
  CHECK(res[0] == 496);
  const std::string msg = error_message([&] {
    ufx::kernel(coop_syncwarp_body<true>{}, "coop_broken")[{1, 32}](ufx::sim, res);
  });
  CHECK(msg.find("kernel 'coop_broken' on ufx::sim device 0, block (0, 0, 0), thread (4, 0, 0): shared-memory race: "
                 "this thread writes element (4) of shared array 0 (parameter 1), which thread (0, 0, 0) read since "
                 "the last sync()") != std::string::npos);
  // lanes of two warps are not ordered by a syncwarp: warp 1 reads what warp 0 wrote
  auto across = ufx::kernel(
      [] UFX_HD(const ufx::thread& t, ufx::shared<int[64]> s, ufx::ndview<int, 1> o) {
        const unsigned i = t.thread_rank();
        s[i] = static_cast<int>(i);
        t.syncwarp();
        o(i) = s[i ^ 32u];
      },
      "across");
  std::vector<int> out(64);
  const std::string m2 = error_message([&] { across[{1, 64}](ufx::sim, out); });
  CHECK(m2.find("thread (0, 0, 0): shared-memory race: this thread reads element (32) of shared array 0 (parameter 1), "
                "which thread (32, 0, 0) wrote since the last sync()") != std::string::npos);
}

namespace {
/// 16 threads count into 4 shared bins, which 4 of them zero first with atomic_exch or not at all.
template <class T>
struct hist_body {
  UFX_HD void operator()(const ufx::thread& t, ufx::shared<T[4]> bins, bool zero_first, ufx::ndview<T, 1> o) const {
    const unsigned i = t.thread_rank();
    if (zero_first && i < 4) ufx::atomic_exch(bins[i], T(0));
    t.sync();
    ufx::atomic_add(bins[i % 4], T(1));
    t.sync();
    if (i < 4) o(i) = bins[i];
  }
};

template <class T>
void check_atomic_reads_unwritten() {
  const auto hist = ufx::kernel(hist_body<T>{}, "hist");
  std::vector<T> h(4, T(0));
  const std::string m = error_message([&] { hist[{1, 16}](ufx::sim, false, h); });
  CHECK(m.find("uninitialised shared-memory read: this thread updates element (0) of shared array 0") !=
        std::string::npos);
  hist[{1, 16}](ufx::sim, true, h);
  CHECK(h == std::vector<T>(4, T(4)));
}
} // namespace

TEST_CASE("sim checks: an uninitialised shared read, and the same kernel with every element written") {
  if (!kernel_runnable<ufx::sim_t>()) return;
  auto k = ufx::kernel(
      [] UFX_HD(const ufx::thread& t, ufx::shared<float[64]> tile, int filled, ufx::ndview<float, 1> o) {
        const unsigned i = t.thread_rank();
        if (static_cast<int>(i) < filled) tile[i] = static_cast<float>(i);
        t.sync();
        o(i) = tile[63 - i];
      },
      "tile");
  std::vector<float> out(64, 0.f);
  const std::string msg = error_message([&] { k[{1, 64}](ufx::sim, 60, out); });
  CHECK(msg.find("kernel 'tile' on ufx::sim device 0, block (0, 0, 0), thread (0, 0, 0): uninitialised shared-memory "
                 "read: this thread reads element (63) of shared array 0 (parameter 1), which no thread of this block "
                 "has written") != std::string::npos);
  k[{1, 64}](ufx::sim, 64, out);
  CHECK(out[0] == 63.f);
  CHECK(out[63] == 0.f);
  // an atomic update of a never-written bin reads it too, of a 2-byte float16 as well (whose plain accesses are not
  // checked: a program may write the fill's bytes); atomic_exch does not
  check_atomic_reads_unwritten<unsigned>();
  check_atomic_reads_unwritten<ufx::float16>();
}

// ---- numba-cuda test_cooperative_groups.py: grid_sync in a cooperative launch

namespace {
struct sync_group_body {
  UFX_HD void operator()(const ufx::thread& t, ufx::ndview<double, 1> a) const {
    t.grid_sync();
    a(0) = 1.0;
  }
};

/// The grid writes rows one at a time; each thread reads the previous row's element written by its
/// "opposite" thread, in another block for half of them: wrong without a grid-wide barrier per row.
struct sequential_rows_body {
  UFX_HD void operator()(const ufx::thread& t, ufx::ndview<int, 2> m) const {
    const auto col = t.grid<1>();
    const auto rows = m.extent(0), cols = m.extent(1);
    for (ufx::index_t row = 1; row < rows; ++row) {
      const auto opposite = cols - col - 1;
      m(row, col) = m(row - 1, opposite) + 1;
      t.grid_sync();
    }
  }
};
} // namespace

TEST_CASE_TEMPLATE("test_cooperative_groups.py::test_sync_group, test_sync_at_matrix_row, "
                   "test_max_cooperative_grid_blocks",
                   Target, UFX_TEST_TARGETS) {
  if (!kernel_runnable<Target>()) return;
  const Target tgt{};
  std::vector<double> a{std::nan("")};
  ufx::kernel(sync_group_body{}, "sync_group")[ufx::cooperative({1, 1})](tgt, a);
  CHECK(a[0] == 1.0);

  auto rows = ufx::kernel(sequential_rows_body{}, "sequential_rows");
  const int n = 256, blockdim = 32, griddim = n / blockdim;
  const long long most = rows.max_cooperative_grid(blockdim, 0, tgt);
  CHECK(most >= griddim); // 8 blocks of 32 threads: resident at once on every target
  ufx::ndarray<int, 2> m({n, n}, 0);
  rows[ufx::cooperative({griddim, blockdim})](tgt, m);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; c += 37) CHECK(m(r, c) == r);

  // the limit depends on the block's thread count, not its shape
  CHECK(rows.max_cooperative_grid(256, 0, tgt) == rows.max_cooperative_grid({16, 16}, 0, tgt));
  CHECK(rows.max_cooperative_grid(256, 0, tgt) == ufx::max_cooperative_grid(rows, {16, 4, 4}, 0, tgt));
  CHECK(rows.max_cooperative_grid(1024, 0, tgt) <= rows.max_cooperative_grid(256, 0, tgt));

  // a grid larger than the device holds at once is refused before anything runs
  const long long too_many = rows.max_cooperative_grid(blockdim, 0, tgt) + 1;
  const std::string msg = error_message([&] {
    rows[ufx::cooperative({static_cast<unsigned>(too_many), static_cast<unsigned>(blockdim)})](tgt, m);
  });
  CHECK(msg.find("cannot launch kernel 'sequential_rows' cooperatively with grid (" + std::to_string(too_many) +
                 ", 1, 1)") != std::string::npos);
  CHECK(msg.find("at most " + std::to_string(too_many - 1) + " blocks of this kernel are resident at once") !=
        std::string::npos);
  CHECK_THROWS_AS((rows[ufx::cooperative({static_cast<unsigned>(too_many), static_cast<unsigned>(blockdim)})](tgt, m)),
                  ufx::launch_error);
}

TEST_CASE("sim checks: grid_sync outside a cooperative launch, and threads that skip a grid_sync") {
  if (!kernel_runnable<ufx::sim_t>()) return;
  std::vector<double> a{0.0};
  std::string msg = error_message([&] { ufx::kernel(sync_group_body{}, "sync_group")[{2, 4}](ufx::sim, a); });
  CHECK(msg.find("kernel 'sync_group' on ufx::sim device 0, block (0, 0, 0), thread (0, 0, 0): t.grid_sync() on "
                 "line") != std::string::npos);
  CHECK(msg.find("in a launch that is not cooperative") != std::string::npos);
  auto skip = ufx::kernel(
      [] UFX_HD(const ufx::thread& t, unsigned skipping_block, ufx::ndview<int, 1> out) {
        if (t.block_idx().x == skipping_block) return;
        t.grid_sync();
        out(t.grid<1>()) = 1;
      },
      "skip");
  std::vector<int> out(8, 0);
  msg = error_message([&] { skip[ufx::cooperative({2, 4})](ufx::sim, 1u, out); });
  CHECK(msg.find("block (1, 0, 0), thread (0, 0, 0): grid barrier divergence: the threads of this block returned "
                 "while those of block (0, 0, 0) wait at t.grid_sync() on line") != std::string::npos);
  skip[ufx::cooperative({2, 4})](ufx::sim, 7u, out); // no block skips
  CHECK(out == std::vector<int>(8, 1));
  // within a block, a thread at grid_sync and one at sync() is barrier divergence
  auto mixed = ufx::kernel(
      [] UFX_HD(const ufx::thread& t) {
        if (t.thread_rank() == 0) t.grid_sync();
        else t.sync();
      },
      "mixed_grid");
  msg = error_message([&] { mixed[ufx::cooperative({1, 2})](ufx::sim); });
  CHECK(msg.find("thread (1, 0, 0): barrier divergence: this thread waits at t.sync() on line") != std::string::npos);
  CHECK(msg.find("while thread (0, 0, 0) waits at t.grid_sync() on line") != std::string::npos);
}
