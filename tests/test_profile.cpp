// ufx::profile: the sim's counts of a kernel's global sectors and shared wavefronts, checked on the textbook cases
// whose Nsight Compute figures are known, the tutorials' matmuls, the roofline estimate and the refusals.
#include "common.hpp"

#include <algorithm>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "tutorial_kernels.hpp"

using ufx_test::error_message;

namespace {

struct f2 { // 8 bytes, as CUDA's float2
  float a, b;
};

/// Lane i of each warp reads x(i * stride) (stride 0: every lane reads element 0) into out(i).
template <class T>
struct strided_copy {
  ufx::index_t stride;
  void operator()(const ufx::thread& t, ufx::ndview<const T, 1> x, ufx::ndview<T, 1> out) const {
    const auto i = t.grid<1>();
    out(i) = x(i * stride);
  }
};

/// Profiles one launch on 64 threads (two warps) reading x at `stride`. A store counts as one when it changes the
/// element: x holds no value of `out`'s fill (a new device array's), and no two elements of x are equal.
template <class T>
ufx::kernel_profile profile_strided(ufx::index_t stride) {
  const int n = 64;
  std::vector<T> host(static_cast<std::size_t>(n * 32 + 1));
  for (std::size_t i = 0; i < host.size(); ++i) std::memcpy(&host[i], &i, std::min(sizeof(T), sizeof i));
  ufx::device_array<T, 1> x = ufx::to_device(host, ufx::sim);
  ufx::device_array<T, 1> out({n}, ufx::sim.space());
  const auto k = ufx::kernel(strided_copy<T>{stride}, "strided");
  const ufx::profile_report p = ufx::profile(ufx::sim, [&](auto t) { k[{2, 32}](t, x, out); });
  REQUIRE(p.kernels.size() == 1);
  return p.kernels[0];
}

/// A 32 x 32 float tile written by rows, then read by columns (Pad = 1: the tile padded to 33 columns).
template <int Pad>
struct transpose_tile {
  void operator()(const ufx::thread& t, ufx::shared<float[32][32 + Pad]> tile, ufx::ndview<const float, 2> in,
                  ufx::ndview<float, 2> out) const {
    const auto x = t.thread_idx().x, y = t.thread_idx().y;
    tile(y, x) = in(y, x);
    t.sync();
    out(y, x) = tile(x, y);
  }
};

template <int Pad>
ufx::kernel_profile profile_transpose() {
  ufx::ndarray<float, 2> host({32, 32});
  for (int i = 0; i < 32 * 32; ++i) host.data()[i] = static_cast<float>(i);
  auto in = ufx::to_device(host, ufx::sim);
  ufx::device_array<float, 2> out({32, 32}, ufx::sim.space());
  const auto k = ufx::kernel(transpose_tile<Pad>{}, "transpose");
  const ufx::profile_report p = ufx::profile(ufx::sim, [&](auto t) { k[{1, {32, 32}}](t, in, out); });
  REQUIRE(p.kernels.size() == 1);
  return p.kernels[0];
}

} // namespace

TEST_CASE("profile: sectors per request of 32 lanes' loads, as Nsight Compute counts them") {
  // 32 consecutive floats: 128 bytes, 4 sectors; the store too
  ufx::kernel_profile k = profile_strided<float>(1);
  CHECK(k.global_loads.requests == 2); // one per warp
  CHECK(k.global_loads.sectors_per_request == 4);
  CHECK(k.global_loads.ideal_sectors_per_request == 4);
  CHECK(k.global_stores.requests == 2);
  CHECK(k.global_stores.sectors_per_request == 4);
  CHECK(k.global_loads.bytes_requested == 2 * 32 * 4);
  // float2: 256 bytes, 8 sectors
  k = profile_strided<f2>(1);
  CHECK(k.global_loads.sectors_per_request == 8);
  CHECK(k.global_stores.sectors_per_request == 8);
  // stride 2: 8 sectors for the 4 the bytes fill; stride 32: one sector per lane
  k = profile_strided<float>(2);
  CHECK(k.global_loads.sectors_per_request == 8);
  CHECK(k.global_loads.ideal_sectors_per_request == 4);
  k = profile_strided<float>(32);
  CHECK(k.global_loads.sectors_per_request == 32);
  // every lane on one element: a broadcast, 1 sector, ideally 1
  k = profile_strided<float>(0);
  CHECK(k.global_loads.sectors_per_request == 1);
  CHECK(k.global_loads.ideal_sectors_per_request == 1);
  CHECK(k.global_stores.sectors_per_request == 4);
  CHECK(k.distinct_sectors == 1 + 8); // x(0), and out's 64 floats
}

TEST_CASE("profile: a shared tile read by columns costs 32 wavefronts a request, padded to 33 columns 1") {
  const ufx::kernel_profile k = profile_transpose<0>();
  CHECK(k.shared_stores.requests == 32);
  CHECK(k.shared_stores.wavefronts_per_request == 1); // rows: 32 banks
  CHECK(k.shared_loads.requests == 32);
  CHECK(k.shared_loads.wavefronts_per_request == 32); // a column: one bank
  CHECK(k.shared_loads.bank_conflicts == 32 * 31);
  const ufx::kernel_profile padded = profile_transpose<1>();
  CHECK(padded.shared_loads.wavefronts_per_request == 1);
  CHECK(padded.shared_loads.bank_conflicts == 0);
  CHECK(padded.global_loads.sectors_per_request == 4);
  CHECK(padded.shared_bytes == 32 * 33 * sizeof(float));
  CHECK(padded.blocks == 1);
  CHECK(padded.threads == 1024);
  // the table names both arrays and both kinds
  std::ostringstream os;
  os << padded;
  CHECK(os.str().find("shared array 0 (parameter 1)") != std::string::npos);
  CHECK(os.str().find("argument 1 (parameter 2)") != std::string::npos);
}

TEST_CASE("profile: the tutorial's matmuls, naive and tiled") {
  const int n = 64;
  // values that differ from one tile to the next: a store of the value already there would count as a load
  ufx::ndarray<float, 2> a({n, n}), b({n, n});
  for (int i = 0; i < n * n; ++i) {
    a.data()[i] = static_cast<float>((i * 7 + 3) % 11) - 5.f;
    b.data()[i] = static_cast<float>((i * 5 + 1) % 13) - 6.f;
  }
  auto A = ufx::to_device(a, ufx::sim), B = ufx::to_device(b, ufx::sim);
  ufx::device_array<float, 2> C({n, n}, ufx::sim.space()), D({n, n}, ufx::sim.space()); // new: all fill
  const auto naive = ufx::kernel(tutorial::matmul{}, "matmul");
  const auto tiled = ufx::kernel(tutorial::tiled_matmul{}, "tiled_matmul");
  const ufx::dim3 grid(n / tutorial::TPB, n / tutorial::TPB), block(tutorial::TPB, tutorial::TPB);
  const ufx::profile_report p = ufx::profile(ufx::sim, [&](auto t) {
    naive[{grid, block}](t, A, B, C);
    tiled[{grid, block}](t, A, B, D);
  });
  REQUIRE(p.kernels.size() == 2);
  const ufx::kernel_profile &k0 = p.kernels[0], &k1 = p.kernels[1];
  CHECK(k0.name == "matmul");
  CHECK(k1.name == "tiled_matmul");
  // naive: each thread reads a row of A and a column of B: n loads each, per warp of 16 x 2 threads
  CHECK(k0.global_loads.requests == 2LL * n * (n * n / 32));
  CHECK(k1.global_loads.requests == 2LL * (n / tutorial::TPB) * (n * n / 32));
  CHECK(k0.shared_loads.requests == 0);
  CHECK(k1.shared_loads.requests == 2LL * tutorial::TPB * (n / tutorial::TPB) * (n * n / 32));
  // the tutorial's threads along x walk rows (C[x, y]): 16 rows a request, 16 sectors
  CHECK(k1.global_loads.sectors_per_request == 16);
  CHECK(k1.global_stores.sectors_per_request == 16);
  // the naive kernel's warps read 16 rows of A (16 sectors) and 2 of B's elements (1 sector)
  CHECK(k0.global_loads.sectors == n * (n * n / 32) * (16 + 1));
  CHECK(k0.distinct_sectors == 3 * n * n * 4 / 32);
  // the tiled one trades global requests for shared ones
  CHECK(k1.global_loads.sectors * 7 < k0.global_loads.sectors);
}

TEST_CASE("profile: the roofline estimate of a launch on a named GPU") {
  const ufx::kernel_profile k = profile_strided<float>(1);
  const ufx::gpu_estimate e = k.estimate(ufx::gpus::h200);
  // 64 floats read and 64 written: 16 distinct sectors
  CHECK(e.dram_bytes == 16 * 32);
  CHECK(e.dram_seconds == doctest::Approx(512 / 4.8e12));
  CHECK(e.l1_seconds == doctest::Approx(16 / (132 * 4 * 1.98e9)));
  CHECK(e.seconds == std::max(e.dram_seconds, e.l1_seconds));
  CHECK(e.efficiency == 1);
  CHECK(std::string(e.gpu) == "NVIDIA H200");
  const ufx::gpu_estimate slow = profile_strided<float>(32).estimate(ufx::gpus::h100);
  CHECK(slow.efficiency == doctest::Approx((2 * 128 + 2 * 128) / double(2 * 32 * 32 + 2 * 4 * 32)));
  std::ostringstream os;
  os << e;
  CHECK(os.str().find("on NVIDIA H200, bound by ") != std::string::npos);
}

TEST_CASE("profile: ufx's elementwise kernels are traced: 16-byte loads and stores, each sector once") {
  constexpr ufx::index_t n = 4096;
  auto x = ufx::to_device(std::vector<float>(n, 1.f), ufx::sim);
  ufx::device_array<float, 1> y({n}, ufx::sim.space());
  const auto twice = ufx::vectorize([](float v) { return 2 * v; });
  const ufx::profile_report p = ufx::profile(ufx::sim, [&](auto t) { twice(t, x, ufx::out(y)); });
  REQUIRE(p.kernels.size() == 1);
  const ufx::kernel_profile& k = p.kernels[0];
  CHECK(k.traced);
  CHECK(k.name == "ufx elementwise kernel");
  // the dense body: each lane loads 4 floats of the input at once and stores 4 of the output, so a warp's request asks
  // for 512 bytes, 16 sectors, the ideal
  CHECK(k.global_loads.requests == n / 4 / 32);
  CHECK(k.global_loads.sectors_per_request == 16);
  CHECK(k.global_loads.ideal_sectors_per_request == 16);
  CHECK(k.global_stores.requests == n / 4 / 32);
  CHECK(k.global_stores.sectors == n * 4 / 32);
  CHECK(k.global_loads.bytes_requested == n * 4);
  CHECK(k.distinct_sectors == 2 * n * 4 / 32); // every byte of x and y once
  REQUIRE(k.rows.size() == 2);
  CHECK(k.rows[0].array == "output 0");
  CHECK(k.rows[0].kind == "store");
  CHECK(k.rows[1].array == "input 0");
  CHECK(k.rows[1].access_bytes == 16);
  CHECK(twice(ufx::sim, x).to_host() == ufx::ndarray<float, 1>({n}, 2.f)); // and the results are the kernel's
}

TEST_CASE("profile: a transposed operand of ufx's kernel reads 32 sectors a request, as a strided raw kernel does") {
  constexpr ufx::index_t n = 64;
  auto m = ufx::to_device(ufx::ndarray<float, 2>({n, n}, 1.f), ufx::sim);
  ufx::device_array<float, 2> out({n, n}, ufx::sim.space());
  const auto add = ufx::vectorize([](float a, float b) { return a + b; });
  const ufx::profile_report p = ufx::profile(ufx::sim, [&](auto t) { add(t, m, ufx::transpose(m), ufx::out(out)); });
  REQUIRE(p.kernels.size() == 1);
  const ufx::kernel_profile& k = p.kernels[0];
  CHECK(k.traced);
  // one element a lane (the general body): input 0 and the output 4 sectors a request, the transposed input 32 (its
  // lanes' elements a row of 64 floats apart), where 4 would hold what it asks for
  CHECK(k.global_stores.sectors_per_request == 4);
  REQUIRE(k.rows.size() == 3);
  CHECK(k.rows[1].array == "input 0");
  CHECK(k.rows[1].transactions == 4 * k.rows[1].requests);
  CHECK(k.rows[2].array == "input 1");
  CHECK(k.rows[2].transactions == 32 * k.rows[2].requests);
  CHECK(k.rows[2].ideal == 4 * k.rows[2].requests);
}

TEST_CASE("profile: ufx's reductions: every pass traced, its loads, its stores and the partials between passes") {
  constexpr ufx::index_t n = 1 << 16;
  auto x = ufx::to_device(std::vector<float>(n, 1.f), ufx::sim);
  float s = 0;
  const ufx::profile_report p = ufx::profile(ufx::sim, [&](auto t) { s = ufx::sum(t, x); });
  CHECK(s == n);
  // four passes: 2048 lanes of 32 floats each, 64 lanes over the 2048 partials, 2 lanes over those 64, one over 2
  REQUIRE(p.kernels.size() == 4);
  for (const ufx::kernel_profile& k : p.kernels) CHECK(k.traced);
  // the first pass: neighbouring lanes read neighbouring floats, 4 sectors a request, every byte once; each lane
  // stores its partial beside its neighbour's
  const ufx::kernel_profile& k = p.kernels[0];
  CHECK(k.global_loads.requests == n / 32);
  CHECK(k.global_loads.sectors_per_request == 4);
  CHECK(k.global_loads.ideal_sectors_per_request == 4);
  CHECK(k.global_stores.requests == 2048 / 32);
  CHECK(k.global_stores.sectors_per_request == 4);
  CHECK(k.distinct_sectors == (n + 2048) * 4 / 32);
  REQUIRE(k.rows.size() == 2);
  CHECK(k.rows[0].array == "output 0"); // the partials
  CHECK(k.rows[0].kind == "store");
  CHECK(k.rows[1].array == "input 0");
  // the second pass reads the first's partials as its input, coalesced
  const ufx::kernel_profile& k2 = p.kernels[1];
  CHECK(k2.global_loads.requests == 2048 / 32);
  CHECK(k2.global_loads.sectors_per_request == 4);
  CHECK(k2.global_stores.requests == 64 / 32);
  // the last: one thread reads the 2 partials one at a time (a sector a request, the ideal for one lane) and writes
  // the sum
  const ufx::kernel_profile& last = p.kernels[3];
  CHECK(last.global_loads.requests == 2);
  CHECK(last.global_loads.sectors_per_request == 1);
  CHECK(last.global_stores.requests == 1);
  CHECK(last.global_stores.bytes_requested == 4);
  std::ostringstream os;
  os << p;
  CHECK(os.str().find("not traced") == std::string::npos);
  // the row reduction (axis 1): each lane reads 16 bytes at once, as on ufx::cuda: 16 sectors a request, the ideal;
  // each row's result stored once
  auto m = ufx::to_device(ufx::ndarray<float, 2>({1024, 256}, 1.f), ufx::sim);
  ufx::ndarray<float, 1> rows;
  const ufx::profile_report q = ufx::profile(ufx::sim, [&](auto t) { rows = ufx::sum(t, m, ufx::axis{1}).to_host(); });
  const auto row = std::find_if(q.kernels.begin(), q.kernels.end(),
                                [](const ufx::kernel_profile& r) { return r.name == "ufx row reduction kernel"; });
  REQUIRE(row != q.kernels.end());
  CHECK(row->traced);
  CHECK(row->global_loads.requests == 1024 * 256 / 4 / 32);
  CHECK(row->global_loads.sectors_per_request == 16);
  CHECK(row->global_loads.ideal_sectors_per_request == 16);
  CHECK(row->global_stores.bytes_requested == 1024 * 4);
  CHECK(row->shared_loads.bank_conflicts == 0);
  CHECK(row->shared_stores.bank_conflicts == 0);
  CHECK(rows == ufx::ndarray<float, 1>({1024}, 256.f));
  // a second profile sees only its own launches
  const ufx::profile_report none = ufx::profile(ufx::sim, [](auto) {});
  CHECK(none.kernels.empty());
}

TEST_CASE("profile: the tiled reduction's tiles: coalesced copies into shared memory, broadcast reads of them") {
  // sum over j of (x_i - y_j)^2, 1024 x 1024: x the side constant along the reduced axis (one element per output), y
  // read in tiles of 256 through shared memory; 4 blocks of 256 outputs, 4 tiles each, one split
  constexpr ufx::index_t n = 1024, m = 1024;
  std::vector<float> xs(n), ys(m);
  for (ufx::index_t i = 0; i < n; ++i) xs[static_cast<std::size_t>(i)] = static_cast<float>(i % 7);
  for (ufx::index_t j = 0; j < m; ++j) ys[static_cast<std::size_t>(j)] = static_cast<float>(j % 5);
  auto dx = ufx::to_device(ufx::ndview<const float, 2>(xs.data(), {n, 1}), ufx::sim);
  auto dy = ufx::to_device(ys, ufx::sim);
  const auto sqdiff = [](float a, float b) { return (a - b) * (a - b); };
  ufx::ndarray<float, 1> got;
  const ufx::profile_report p = ufx::profile(ufx::sim, [&](auto t) {
    got = ufx::transform_reduce(t, dx, dy, sqdiff, ufx::plus{}, 0.f, ufx::axis{1}).to_host();
  });
  REQUIRE(p.kernels.size() == 1);
  const ufx::kernel_profile& k = p.kernels[0];
  CHECK(k.name == "ufx tiled reduction kernel");
  CHECK(k.traced);
  CHECK(k.blocks == 4);
  constexpr long long warp_tiles = 4 * 4 * (256 / 32); // blocks x tiles x warps
  // y's tile copied in by each warp (neighbouring lanes, neighbouring floats) and x's element of each lane's output,
  // read with each tile: 4 sectors a request, the ideal
  CHECK(k.global_loads.requests == 2 * warp_tiles);
  CHECK(k.global_loads.sectors_per_request == 4);
  CHECK(k.global_loads.ideal_sectors_per_request == 4);
  CHECK(k.global_stores.requests == n / 32);
  CHECK(k.distinct_sectors == (n + m + n) * 4 / 32);
  // the copy into shared memory: one wavefront a request; the fold: every lane reads the same 8 floats of the tile in
  // two 16-byte loads, a broadcast served in one pass per half warp, no conflict
  CHECK(k.shared_stores.requests == warp_tiles);
  CHECK(k.shared_stores.wavefronts_per_request == 1);
  CHECK(k.shared_loads.requests == warp_tiles * (256 / 8) * 2);
  CHECK(k.shared_loads.wavefronts_per_request == 2);
  CHECK(k.shared_loads.bank_conflicts == 0);
  std::ostringstream os;
  os << p;
  CHECK(os.str().find("shared: input 1") != std::string::npos);
  const auto want = ufx::transform_reduce(ufx::serial, ufx::ndview<const float, 2>(xs.data(), {n, 1}), ys, sqdiff,
                                          ufx::plus{}, 0.f, ufx::axis{1});
  CHECK(got == want);
}

TEST_CASE("profile: 16-byte shared loads are served a half warp at a time, a broadcast in one pass a half") {
  // what Nsight Compute counts on an A10 and an H100: 32 lanes' consecutive 16-byte loads 4 wavefronts; lanes 0-15
  // on one address and 16-31 on another 2; 16 addresses 32 bytes apart, each read by lanes i and i + 16, 8
  struct v4 {
    float a, b, c, d;
  };
  struct read16 {
    int pattern;
    void operator()(const ufx::thread& t, ufx::shared<v4[64]> s, ufx::ndview<float, 1> out) const {
      const int i = static_cast<int>(t.thread_idx().x);
      s(2 * i) = v4{1, 2, 3, 4};
      s(2 * i + 1) = v4{1, 2, 3, 4};
      t.sync();
      const int at = pattern == 0 ? i : pattern == 1 ? 2 * (i / 16) : 2 * (i % 16);
      out(i) = s(at).a;
    }
  };
  ufx::device_array<float, 1> out({32}, ufx::sim.space());
  for (int pattern = 0; pattern < 3; ++pattern) {
    const auto kern = ufx::kernel(read16{pattern}, "read16");
    const ufx::profile_report p = ufx::profile(ufx::sim, [&](auto t) { kern[{1, 32}](t, out); });
    REQUIRE(p.kernels.size() == 1);
    const ufx::kernel_profile* k = &p.kernels[0];
    CAPTURE(pattern);
    CHECK(k->shared_loads.requests == 1);
    CHECK(k->shared_loads.wavefronts == (pattern == 0 ? 4 : pattern == 1 ? 2 : 8));
    CHECK(k->shared_loads.ideal_wavefronts == (pattern == 0 ? 4 : pattern == 1 ? 2 : 4));
  }
}

TEST_CASE("profile: one at a time; a failing function ends the profile") {
  CHECK(error_message([] {
          (void)ufx::profile(ufx::sim, [](auto t) { (void)ufx::profile(t, [](auto) {}); });
        }).find("one ufx::profile at a time") != std::string::npos);
  CHECK_THROWS_AS((void)ufx::profile(ufx::sim, [](auto) { throw std::runtime_error("user"); }), std::runtime_error);
  const ufx::kernel_profile k = profile_strided<float>(1); // profiling works again
  CHECK(k.global_loads.requests == 2);
}

TEST_CASE("profile: UFX_SIM_PROFILE=1 prints every launch at exit") {
  // ctest runs this case with UFX_SIM_PROFILE=1 and reads the table from its output (tests/CMakeLists.txt); a
  // ufx::profile made meanwhile still gets its own launches
  auto x = ufx::to_device(std::vector<float>(64, 1.f), ufx::sim);
  ufx::device_array<float, 1> out({64}, ufx::sim.space());
  const auto k = ufx::kernel(strided_copy<float>{1}, "env_probe");
  const ufx::profile_report p = ufx::profile(ufx::sim, [&](auto t) { k[{2, 32}](t, x, out); });
  REQUIRE(p.kernels.size() == 1);
  CHECK(p.kernels[0].name == "env_probe");
}

namespace {
/// Each warp sums its lanes' values by shuffles (full mask), then lanes 0-15 meet at a syncwarp of half the warp, and
/// lane 0 adds the warp's sum to out(0) atomically.
struct warp_sum {
  void operator()(const ufx::thread& t, ufx::ndview<const int, 1> x, ufx::ndview<int, 1> out) const {
    const auto i = t.grid<1>();
    int v = x(i);
    for (int d = 16; d > 0; d /= 2) v += t.shfl_down_sync(0xffffffffu, v, static_cast<unsigned>(d));
    if (t.lane_id() < 16) t.syncwarp(0x0000ffffu);
    if (t.lane_id() == 0) ufx::atomic_add(out(0), v);
  }
};
} // namespace

TEST_CASE("profile: warp operations, partial masks and atomics") {
  auto x = ufx::to_device(std::vector<int>(128, 1), ufx::sim);
  auto out = ufx::to_device(std::vector<int>{0}, ufx::sim);
  const auto k = ufx::kernel(warp_sum{}, "warp_sum");
  const ufx::profile_report p = ufx::profile(ufx::sim, [&](auto t) { k[{2, 64}](t, x, out); });
  REQUIRE(p.kernels.size() == 1);
  const ufx::kernel_profile& w = p.kernels[0];
  CHECK(w.warp_operations == 4 * (5 + 1)); // per warp: five shuffles and a syncwarp
  CHECK(w.partial_warp_operations == 4);
  CHECK(w.global_atomics.requests == 4); // one lane of each warp
  CHECK(w.global_atomics.sectors_per_request == 1);
  CHECK(w.global_stores.requests == 0);
  CHECK(out.to_host()(0) == 128);
}

TEST_CASE("profile: launches queued on a sim stream are waited for and collected") {
  ufx::stream s(ufx::sim);
  std::vector<float> host(64);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<float>(i) + 1.f;
  auto x = ufx::to_device(host, ufx::sim);
  ufx::device_array<float, 1> out({64}, ufx::sim.space());
  const auto k = ufx::kernel(strided_copy<float>{1}, "queued");
  const ufx::profile_report p = ufx::profile(ufx::sim.on(s), [&](auto t) {
    k[{2, 32}](t, x, out);
    k[{2, 32}](t, out, out); // the second reads what the first wrote: in order on the stream
  });
  REQUIRE(p.kernels.size() == 2);
  CHECK(p.kernels[0].global_stores.requests == 2);
  CHECK(p.kernels[1].global_loads.requests + p.kernels[1].global_stores.requests == 4);
}

namespace {
/// Lane i reads s[i * Stride] of a shared array of doubles (8 bytes: served a half warp at a time).
template <int Stride>
struct shared_doubles {
  void operator()(const ufx::thread& t, ufx::shared<double[64]> s, ufx::ndview<double, 1> out) const {
    const auto i = t.thread_idx().x;
    s[2 * i] = 1.0 * i;
    s[2 * i + 1] = 2.0 * i;
    t.sync();
    out(i) = s[i * Stride];
  }
};
template <int Stride>
ufx::kernel_profile profile_doubles() {
  ufx::device_array<double, 1> out({32}, ufx::sim.space());
  const auto k = ufx::kernel(shared_doubles<Stride>{}, "doubles");
  const ufx::profile_report p = ufx::profile(ufx::sim, [&](auto t) { k[{1, 32}](t, out); });
  REQUIRE(p.kernels.size() == 1);
  return p.kernels[0];
}
} // namespace

TEST_CASE("profile: 8-byte shared accesses are served a half warp at a time") {
  // 32 consecutive doubles: two half warps of 128 bytes, one pass each, as few as the bytes allow
  ufx::kernel_profile k = profile_doubles<1>();
  CHECK(k.shared_loads.requests == 1);
  CHECK(k.shared_loads.wavefronts == 2);
  CHECK(k.shared_loads.ideal_wavefronts == 2);
  CHECK(k.shared_stores.wavefronts == 2 * 4); // s[2i], s[2i + 1]: a stride of 16 bytes, two words a bank per half
  // every other double: a half warp's 16 lanes span 256 bytes, two words in each bank it touches
  k = profile_doubles<2>();
  CHECK(k.shared_loads.wavefronts == 4);
  CHECK(k.shared_loads.ideal_wavefronts == 2);
  CHECK(k.shared_loads.bank_conflicts == 2);
}

TEST_CASE("profile: the counts do not depend on the sim's thread order (UFX_SIM_SEED)") {
  const ufx::kernel_profile a = profile_transpose<0>();
  ufx::set_sim_seed(12345);
  const ufx::kernel_profile b = profile_transpose<0>();
  ufx::set_sim_seed(0);
  CHECK(b.shared_loads.wavefronts == a.shared_loads.wavefronts);
  CHECK(b.shared_stores.wavefronts == a.shared_stores.wavefronts);
  CHECK(b.global_loads.sectors == a.global_loads.sectors);
  CHECK(b.global_stores.requests == a.global_stores.requests);
}

TEST_CASE("profile: the staged gufunc's copies: coalesced global loads and stores, 2-way bank conflicts in shared") {
  // (4,4),(4,4)->(4,4) over n matrices: 128 a block, each block's cores copied through shared memory together, with a
  // pitch of 17 floats a core so that each thread's core starts in another bank
  constexpr ufx::index_t n = 1024;
  auto a = ufx::to_device(ufx::ndarray<float, 3>({n, 4, 4}, 1.f), ufx::sim);
  auto b = ufx::to_device(ufx::ndarray<float, 3>({n, 4, 4}, 2.f), ufx::sim);
  ufx::device_array<float, 3> c({n, 4, 4}, ufx::sim.space());
  const auto mm = ufx::guvectorize<"(4,4),(4,4)->(4,4)">(
      [](ufx::ndview<const float, 2> x, ufx::ndview<const float, 2> y, ufx::ndview<float, 2> z) {
        for (int i = 0; i < 4; ++i)
          for (int j = 0; j < 4; ++j) {
            float s = 0;
            for (int k = 0; k < 4; ++k) s += x(i, k) * y(k, j);
            z(i, j) = s;
          }
      });
  const ufx::profile_report p = ufx::profile(ufx::sim, [&](auto t) { mm(t, a, b, ufx::out(c)); });
  REQUIRE(p.kernels.size() == 1);
  const ufx::kernel_profile& k = p.kernels[0];
  CHECK(k.traced);
  CHECK(k.blocks == n / 128);
  CHECK(k.threads == n);
  // neighbouring lanes copy neighbouring floats: 4 sectors a request, the ideal, each sector once
  CHECK(k.global_loads.requests == 2 * 16 * n / 32);
  CHECK(k.global_loads.sectors_per_request == 4);
  CHECK(k.global_loads.ideal_sectors_per_request == 4);
  CHECK(k.global_stores.requests == 16 * n / 32);
  CHECK(k.global_stores.sectors_per_request == 4);
  CHECK(k.distinct_sectors == 3 * 16 * n * 4 / 32);
  // a warp's 32 floats are two cores, words 0-15 and 17-32 of the region: word 32 shares bank 0 with word 0, so each
  // request takes 2 wavefronts where 1 would do (the price of the pitch that keeps the function's own reads, a core a
  // thread, one wavefront: a pitch of 16 would make those 16-way)
  CHECK(k.shared_stores.requests == 2 * 16 * n / 32);
  CHECK(k.shared_stores.wavefronts_per_request == 2);
  CHECK(k.shared_loads.requests == 16 * n / 32);
  CHECK(k.shared_loads.wavefronts_per_request == 2);
  std::ostringstream os;
  os << p;
  CHECK(os.str().find("shared: input 1") != std::string::npos);
  CHECK(c.to_host() == ufx::ndarray<float, 3>({n, 4, 4}, 8.f));
}
