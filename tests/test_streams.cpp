// Streams, events and pinned memory on ufx::sim: a call on a stream returns once queued, its
// work runs in order on the stream's worker, and a read without synchronize sees the old data.
// The tests hold a stream with a gate (a task that waits for the test) so each outcome is certain.
#include "common.hpp"
#include "gufunc_cores.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <future>
#include <thread>
#include <vector>

using ufx_test::error_message;

namespace {

/// Holds stream `s` until open() (a task on the stream's worker that waits).
class gate {
public:
  explicit gate(const ufx::stream& s) {
    auto f = p_.get_future().share();
    ufx::detail::sim_enqueue(s.native_handle(), [f] { f.wait(); });
  }
  ~gate() { open(); }
  void open() {
    if (!opened_) p_.set_value();
    opened_ = true;
  }

private:
  std::promise<void> p_;
  bool opened_ = false;
};

struct add_f {
  UFX_HD float operator()(float a, float b) const { return a + b; }
};

struct scale_body {
  UFX_HD void operator()(const ufx::thread& t, float k, ufx::ndview<float, 1> a) const {
    const auto i = t.grid<1>();
    if (i < a.extent(0)) a(i) *= k;
  }
};

} // namespace

TEST_CASE("stream: a call returns once queued; without synchronize a read sees the old data") {
  ufx::stream s(ufx::sim);
  auto add = ufx::vectorize(add_f{});
  auto d = ufx::to_device(std::vector<float>(1000, 1.f), ufx::sim);
  {
    gate g(s);
    add(ufx::sim.on(s), d, d, ufx::out(d)); // queued behind the gate
    CHECK(d.to_host()(0) == 1.f);           // the deliberately unsynchronised read: old data
    g.open();
  }
  s.synchronize();
  CHECK(d.to_host()(0) == 2.f);
  // many calls in order
  for (int i = 0; i < 10; ++i) add(ufx::sim.on(s), d, d, ufx::out(d));
  s.synchronize();
  CHECK(d.to_host()(999) == 2048.f);
  // a result container on the device is returned at once and filled by the stream
  gate g(s);
  auto r = add(ufx::sim.on(s), d, 1.f);
  static_assert(std::is_same_v<decltype(r), ufx::device_array<float, 1>>);
  g.open();
  s.synchronize();
  CHECK(r.to_host()(0) == 2049.f);
}

TEST_CASE("stream: pinned host destinations are copied back queued, others make the call wait") {
  ufx::stream s(ufx::sim);
  auto add = ufx::vectorize(add_f{});
  auto d = ufx::to_device(std::vector<float>(256, 3.f), ufx::sim);
  ufx::pinned_vector<float> pinned(256, 0.f);
  {
    gate g(s);
    add(ufx::sim.on(s), d, 1.f, ufx::out(pinned));
    CHECK(pinned[0] == 0.f); // not yet: the copy is queued
    g.open();
    s.synchronize();
    CHECK(pinned[255] == 4.f);
  }
  std::vector<float> pageable(256, 0.f);
  {
    gate g(s);
    std::thread opener([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      g.open();
    });
    add(ufx::sim.on(s), d, 2.f, ufx::out(pageable)); // waits for the stream, then copies
    CHECK(pageable[0] == 5.f);
    opener.join();
  }
  std::vector<float> registered(256, 0.f);
  {
    auto pin = ufx::pin(registered); // pinned while `pin` lives
    gate g(s);
    add(ufx::sim.on(s), d, 3.f, ufx::out(registered));
    CHECK(registered[0] == 0.f);
    g.open();
    s.synchronize();
    CHECK(registered[0] == 6.f);
  }
}

TEST_CASE("stream: host inputs make the call wait for the stream before they are copied in") {
  ufx::stream s(ufx::sim);
  auto add = ufx::vectorize(add_f{});
  auto d = ufx::to_device(std::vector<float>(64, 0.f), ufx::sim);
  std::vector<float> x(64, 7.f);
  gate g(s);
  std::thread opener([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    g.open();
  });
  add(ufx::sim.on(s), x, 1.f, ufx::out(d)); // a host input: waits, then stages
  opener.join();
  s.synchronize();
  CHECK(d.to_host()(63) == 8.f);
}

TEST_CASE("stream: events order two streams and time the work between them") {
  ufx::stream a(ufx::sim), b(ufx::sim);
  auto add = ufx::vectorize(add_f{});
  auto d = ufx::to_device(std::vector<float>(100, 1.f), ufx::sim);
  ufx::event written, start, stop;
  gate g(a);
  add(ufx::sim.on(a), d, 10.f, ufx::out(d));
  written.record(a);
  written.wait_on(b);                     // b's later work waits for a's add
  add(ufx::sim.on(b), d, d, ufx::out(d)); // (1 + 10) * 2
  CHECK_FALSE(written.done());
  g.open();
  b.synchronize();
  CHECK(written.done());
  CHECK(d.to_host()(0) == 22.f);

  start.record(a);
  ufx::detail::sim_enqueue(a.native_handle(), [] { std::this_thread::sleep_for(std::chrono::milliseconds(20)); });
  stop.record(a);
  stop.synchronize();
  CHECK(ufx::elapsed_ms(start, stop) >= 19.f);
  ufx::event never;
  CHECK_THROWS_AS(ufx::elapsed_ms(never, stop), ufx::device_error);
}

TEST_CASE("stream: kernels and gufuncs on a stream") {
  if (!ufx_test::kernel_runnable<ufx::sim_t>()) return;
  ufx::stream s(ufx::sim);
  auto scale = ufx::kernel(scale_body{}, "scale");
  auto d = ufx::to_device(std::vector<float>(300, 2.f), ufx::sim);
  {
    gate g(s);
    scale.forall(300)(ufx::sim.on(s), 3.f, d);
    CHECK(d.to_host()(0) == 2.f);
    g.open();
  }
  s.synchronize();
  CHECK(d.to_host()(299) == 6.f);
  ufx::pinned_vector<float> h(300, 1.f);
  {
    gate g(s);
    scale.forall(300)(ufx::sim.on(s), 5.f, h); // staged in at the call, copied back queued
    CHECK(h[0] == 1.f);
    g.open();
    s.synchronize();
    CHECK(h[0] == 5.f);
  }
  auto dot = ufx::guvectorize<"(n),(n)->()">(
      [] UFX_HD(ufx::ndview<const float, 1> a, ufx::ndview<const float, 1> b, float& out) {
        float acc = 0;
        for (ufx::index_t i = 0; i < a.extent(0); ++i) acc += a(i) * b(i);
        out = acc;
      });
  ufx::device_array<float, 2> m({4, 3}, ufx::sim.space());
  ufx::device_array<float, 1> r({4}, ufx::sim.space());
  auto fill = ufx::vectorize([] UFX_HD(float) { return 2.f; });
  fill(ufx::sim.on(s), m, ufx::out(m));
  dot(ufx::sim.on(s), m, m, ufx::out(r));
  s.synchronize();
  CHECK(r.to_host()(3) == 12.f);
}

TEST_CASE("stream: reductions on a stream run after its queued work") {
  ufx::stream s(ufx::sim);
  auto add = ufx::vectorize(add_f{});
  auto sum = ufx::reducer(add_f{}, 0.f);
  auto d = ufx::to_device(std::vector<float>(1000, 1.f), ufx::sim);
  gate g(s);
  add(ufx::sim.on(s), d, d, ufx::out(d));
  std::thread opener([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    g.open();
  });
  CHECK(sum(ufx::sim.on(s), d) == 2000.f); // waits for the add
  opener.join();
}

TEST_CASE("stream: a reduction into a device destination is queued, its temporaries freed in the stream's order") {
  ufx::stream s(ufx::sim);
  auto add = ufx::vectorize(add_f{});
  auto sum = ufx::reducer(add_f{}, 0.f);
  auto d = ufx::to_device(std::vector<float>(1 << 20, 1.f), ufx::sim); // enough for two levels of partials
  ufx::device_array<float, 0> total({}, ufx::sim);
  add(ufx::sim, 0.f, 0.f, ufx::out(total)); // device memory comes uninitialised, as cudaMalloc's
  ufx::device_array<float, 1> cols({4}, ufx::sim);
  const auto before = ufx::detail::sim_stats();
  {
    gate g(s);
    add(ufx::sim.on(s), d, d, ufx::out(d));  // d = 2
    sum(ufx::sim.on(s), d, ufx::out(total)); // queued: returns while the gate holds the stream
    ufx::ndview<const float, 2> m(d.data(), {1 << 18, 4});
    sum(ufx::sim.on(s), m, ufx::axis{0}, ufx::out(cols));
    CHECK(total.to_host()() == 0.f); // the unsynchronised read: not computed yet
    CHECK(ufx::detail::sim_stats().live_allocations > before.live_allocations); // its partials wait with it
    g.open();
  }
  s.synchronize();
  CHECK(total.to_host()() == 2.f * (1 << 20));
  CHECK(cols.to_host()(3) == 2.f * (1 << 18));
  CHECK(ufx::detail::sim_stats().live_allocations == before.live_allocations); // freed by the stream
  // chained device work reads the result without a host round trip
  auto scaled = add(ufx::sim.on(s), total, total);
  s.synchronize();
  CHECK(scaled.to_host()() == 4.f * (1 << 20));
  // a pinned host destination is filled by the stream; a plain scalar result waits
  ufx::pinned_vector<float> host_cols(4, 0.f);
  {
    gate g(s);
    sum(ufx::sim.on(s), ufx::ndview<const float, 2>(d.data(), {1 << 18, 4}), ufx::axis{0}, ufx::out(host_cols));
    CHECK(host_cols[0] == 0.f);
    g.open();
  }
  s.synchronize();
  CHECK(host_cols[0] == 2.f * (1 << 18));
  CHECK(sum(ufx::sim.on(s), d) == 2.f * (1 << 20));
  CHECK(ufx::argmax(ufx::sim.on(s), d) == 0);
}

TEST_CASE("stream: accumulate on a stream is queued") {
  ufx::stream s(ufx::sim);
  auto add = ufx::vectorize(add_f{});
  auto d = ufx::to_device(std::vector<float>(1000, 1.f), ufx::sim);
  ufx::device_array<float, 1> c({1000}, ufx::sim);
  add(ufx::sim, 0.f, 0.f, ufx::out(c));
  {
    gate g(s);
    add(ufx::sim.on(s), d, d, ufx::out(d));                   // d = 2
    ufx::accumulate(ufx::sim.on(s), d, add_f{}, ufx::out(c)); // queued after the add
    auto r = ufx::accumulate(ufx::sim.on(s), d, add_f{});     // a device result, returned at once
    CHECK(c.to_host()(999) == 0.f);                           // not run yet
    g.open();
    s.synchronize();
    CHECK(r.to_host()(999) == 2000.f);
  }
  CHECK(c.to_host()(999) == 2000.f);
  std::vector<float> h(1000);
  ufx::accumulate(ufx::sim.on(s), d, add_f{}, ufx::out(h)); // a pageable destination: the call waits
  CHECK(h[499] == 1000.f);
}

TEST_CASE("stream: to_device, copy_to_host and copy_from_host on a stream") {
  ufx::stream s(ufx::sim);
  auto add = ufx::vectorize(add_f{});
  ufx::pinned_vector<float> src(1000, 3.f), back(1000, 0.f);
  std::vector<float> pageable(1000, 0.f);
  auto d = ufx::to_device(std::vector<float>(1000, 1.f), ufx::sim);
  {
    gate g(s);
    const auto before = ufx::detail::sim_stats();
    auto e = ufx::to_device(src, ufx::sim.on(s)); // pinned: the stream copies it
    add(ufx::sim.on(s), e, e, ufx::out(e));       // 6
    e.copy_to_host(back, ufx::sim.on(s));         // pinned destination: queued
    d.copy_from_host(src, ufx::sim.on(s));        // queued
    CHECK(ufx::detail::sim_stats().queued_copies - before.queued_copies == 3);
    CHECK(back[0] == 0.f); // nothing has run yet
    g.open();
    s.synchronize();
    CHECK(back[999] == 6.f);
    CHECK(d.to_host()(0) == 3.f);
    // a pageable destination waits for the stream's queued work, then copies
    add(ufx::sim.on(s), e, e, ufx::out(e)); // 12
    e.copy_to_host(pageable, ufx::sim.on(s));
    CHECK(pageable[0] == 12.f);
  }
  // the stream must be of the array's device
  ufx::device_array<float, 1> h({4}, ufx::sim);
  std::vector<float> four(4);
  const std::string msg = error_message([&] { h.copy_to_host(four, ufx::host); });
  CHECK(msg.find("ufx::device_array::copy_to_host: the array is in ufx::sim device 0 but the copy was asked of host") ==
        0);
}

TEST_CASE("stream: errors") {
  ufx::configure_sim(ufx::sim_config{2, std::size_t{32} << 20});
  {
    ufx::stream s0(ufx::sim.device(0)), s1(ufx::sim.device(1));
    CHECK(s1.space().device == 1);
    auto add = ufx::vectorize(add_f{});
    auto on1 = ufx::to_device(std::vector<float>(8, 1.f), ufx::sim.device(1));
    std::string msg = error_message([&] { add(ufx::sim.on(s0), on1, 1.f); });
    CHECK(msg.find("a call on a stream of ufx::sim device 0 cannot use arrays of ufx::sim device 1") !=
          std::string::npos);
    msg = error_message([&] { (void)ufx::sim.device(1).on(s0); });
    CHECK(msg == "ufx::sim.device(1).on(s): s is a stream of ufx::sim device 0");
    msg = error_message([&] { (void)ufx::cuda.on(s0); });
    CHECK(msg == "ufx::cuda.on(s): s is a stream of ufx::sim device 0");

    // a failure in queued work surfaces at synchronize, later work is skipped, the stream recovers
    if (ufx_test::kernel_runnable<ufx::sim_t>()) {
      auto racy = ufx::kernel(
          [] UFX_HD(const ufx::thread& t, ufx::shared<int[4]> sh, ufx::ndview<int, 1> out) {
            sh[0] = static_cast<int>(t.thread_idx().x) + 1;
            out(0) = sh[0];
          },
          "racy");
      auto d = ufx::to_device(std::vector<int>(1, 0), ufx::sim.device(0));
      auto f = ufx::to_device(std::vector<float>(4, 1.f), ufx::sim.device(0));
      racy[{1, 4}](ufx::sim.on(s0), d);        // returns: the race is found when the stream runs it
      add(ufx::sim.on(s0), f, f, ufx::out(f)); // skipped
      msg = error_message([&] { s0.synchronize(); });
      CHECK(msg.find("kernel 'racy' on ufx::sim device 0, block (0, 0, 0), thread (1, 0, 0): shared-memory race") !=
            std::string::npos);
      CHECK(f.to_host()(0) == 1.f);
      add(ufx::sim.on(s0), f, f, ufx::out(f));
      s0.synchronize();
      CHECK(f.to_host()(0) == 2.f);
    }
  }
  ufx::configure_sim(ufx::sim_config{});
}

// ---- data larger than the device: elementwise calls in chunks of rows

TEST_CASE("chunked: host arrays larger than the sim device run in chunks and equal the in-memory call") {
  const ufx::sim_config saved = ufx::sim_configuration();
  ufx::configure_sim(ufx::sim_config{1, std::size_t{1} << 20}); // a 1 MiB device
  {
    auto f = ufx::vectorize([] UFX_HD(float a, float b) { return a * b + 1.f; });
    const std::size_t n = std::size_t{1} << 24; // 64 MiB per array
    std::vector<float> x(n), y(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<float>(i % 1000) * 0.5f, y[i] = static_cast<float>(i % 7);
    const auto before = ufx::detail::sim_stats();
    std::vector<float> z = f(ufx::sim, x, y);
    const auto after = ufx::detail::sim_stats();
    CHECK(after.host_to_device - before.host_to_device >= 2 * 64); // two inputs, at least 64 chunks each
    // every chunk's copies queued on the two streams (through pinned staging), none made waiting
    CHECK(after.queued_copies - before.queued_copies ==
          after.host_to_device - before.host_to_device + after.device_to_host - before.device_to_host);
    CHECK(after.live_allocations == before.live_allocations);
    // no allocation inside the chunk loop: each of the two streams keeps one block of the device
    // for its chunks (as many allocations for 4x the chunks)
    CHECK(after.allocations - before.allocations == 2);
    const std::vector<float> ref = f(ufx::serial, x, y);
    CHECK(z == ref);

    // an explicit budget, a 2-D loop and an operand that broadcasts along the chunked dimension
    ufx::ndarray<float, 2> m({3000, 100});
    for (ufx::index_t i = 0; i < m.size(); ++i) m.data()[i] = static_cast<float>(i % 13);
    ufx::ndarray<float, 1> row({100});
    for (int j = 0; j < 100; ++j) row(j) = static_cast<float>(j);
    const auto b2 = ufx::detail::sim_stats();
    auto r = f(ufx::chunked(ufx::sim, 64 << 10), m, row);
    CHECK(ufx::detail::sim_stats().host_to_device - b2.host_to_device > 10);
    auto r_ref = f(ufx::serial, m, row);
    bool same = true;
    for (ufx::index_t i = 0; i < r.size(); ++i) same = same && r.data()[i] == r_ref.data()[i];
    CHECK(same);

    // the budget on a target chosen at run time (a host target stages nothing and keeps no budget)
    const ufx::target rt = ufx::chunked(ufx::target(ufx::sim), 64 << 10);
    REQUIRE(rt.get_if<ufx::sim_t>() != nullptr);
    CHECK(rt.get_if<ufx::sim_t>()->chunk_bytes == (64u << 10));
    const auto b3 = ufx::detail::sim_stats();
    auto r_rt = f(rt, m, row);
    CHECK(ufx::detail::sim_stats().host_to_device - b3.host_to_device > 10);
    same = true;
    for (ufx::index_t i = 0; i < r_rt.size(); ++i) same = same && r_rt.data()[i] == r_ref.data()[i];
    CHECK(same);
    CHECK(ufx::chunked(ufx::target(ufx::host), 100) == ufx::target(ufx::host));
    CHECK(ufx::chunked(ufx::target(ufx::serial), 100) == ufx::target(ufx::serial));
    CHECK(error_message([&] {
            (void)f(ufx::chunked(ufx::target(ufx::sim), 100), m, row);
          }).find("more than the chunk budget of 100 bytes") != std::string::npos);

    // a budget too small for one row
    const std::string msg = error_message([&] { (void)f(ufx::chunked(ufx::sim, 100), m, row); });
    CHECK(msg == "ufx::vectorize: one chunk of the outermost loop dimension needs 1200 bytes of device memory (800 per "
                 "row, 400 for operands that broadcast along it), more than the chunk budget of 100 bytes");
  }
  ufx::configure_sim(saved);
}

// ---- data larger than the device: reductions and gufuncs in chunks

namespace {
struct plus_f {
  UFX_HD float operator()(float a, float b) const { return a + b; }
};
struct max_f {
  UFX_HD float operator()(float a, float b) const { return a < b ? b : a; }
};
struct sq_diff {
  UFX_HD float operator()(float a, float b) const { return (a - b) * (a - b); }
};
struct row_norm2 {
  UFX_HD void operator()(ufx::ndview<const float, 1> x, float& r) const {
    float s = 0;
    for (ufx::index_t i = 0; i < x.extent(0); ++i) s += x(i) * x(i);
    r = s;
  }
};
} // namespace

TEST_CASE("chunked: reductions of host data larger than the sim device") {
  const ufx::sim_config saved = ufx::sim_configuration();
  ufx::configure_sim(ufx::sim_config{1, std::size_t{1} << 20}); // a 1 MiB device
  {
    auto sum = ufx::reducer(plus_f{}, 0.0f);
    const std::size_t n = std::size_t{1} << 22; // 16 MiB of float32: 16 times the device
    std::vector<float> x(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<float>(i % 5); // every partial sum is exact
    const auto before = ufx::detail::sim_stats();
    const float s = sum(ufx::sim, x);
    const auto after = ufx::detail::sim_stats();
    CHECK(after.host_to_device - before.host_to_device >= 16);   // at least 16 chunks
    CHECK(after.queued_copies - before.queued_copies >= 2 * 16); // each chunk's input in, partial out: queued
    CHECK(after.live_allocations == before.live_allocations);
    CHECK(after.allocations - before.allocations == 2); // the two streams' blocks, none per chunk
    double exact = 0;
    for (std::size_t i = 0; i < n; ++i) exact += static_cast<double>(i % 5);
    CHECK(static_cast<double>(s) == exact); // below 2^24: every partial sum is exact
    CHECK(sum(ufx::sim, x, 10.0f) == doctest::Approx(exact + 10).epsilon(1e-7)); // Numba's init, added once

    // rounding: the chunks' partials combine pairwise, so the error stays that of the in-memory sum
    std::vector<float> r(n);
    for (std::size_t i = 0; i < n; ++i) r[i] = 1.0f + static_cast<float>((i * 2654435761u) % 1000) * 1e-4f;
    double rexact = 0;
    for (float v : r) rexact += v;
    const float rs = sum(ufx::chunked(ufx::sim, 256 << 10), r);
    CHECK(std::abs(rs - rexact) / rexact < 1e-6);
    CHECK(ufx::reduce(ufx::sim, r, max_f{}, 0.0f) == ufx::reduce(ufx::serial, r, max_f{}, 0.0f));

    // a device destination: the result of a chunked reduction stays on the device
    ufx::device_array<float, 0> d({}, ufx::sim);
    sum(ufx::sim, x, ufx::out(d));
    CHECK(d.to_host()() == s);

    // transform_reduce of two host arrays, and argmax with its ties in different chunks
    std::vector<float> y(n, 1.0f);
    const float td = ufx::transform_reduce(ufx::sim, x, y, sq_diff{}, plus_f{}, 0.0f);
    CHECK(td == ufx::transform_reduce(ufx::serial, x, y, sq_diff{}, plus_f{}, 0.0f));
    std::vector<float> t(n, 0.0f);
    t[700000] = 3.0f, t[3000000] = 3.0f;
    CHECK(ufx::argmax(ufx::sim, t) == 700000);
    CHECK(ufx::argmin(ufx::chunked(ufx::sim, 64 << 10), x) == 0);
  }
  {
    // axis reductions of a (3000, 100) matrix with a 64 KiB budget: axis 0 (the chunked dimension
    // is reduced: partials per chunk) and axis 1 (kept: each chunk writes its rows)
    auto sum = ufx::reducer(plus_f{}, 0.0f);
    ufx::ndarray<float, 2> m({3000, 100});
    for (ufx::index_t i = 0; i < m.size(); ++i) m.data()[i] = static_cast<float>((i * 7) % 11);
    const auto t = ufx::chunked(ufx::sim, 64 << 10);
    const auto b = ufx::detail::sim_stats();
    auto a0 = sum(t, m, ufx::axis{0});
    auto a1 = sum(t, m, ufx::axis{1});
    CHECK(ufx::detail::sim_stats().host_to_device - b.host_to_device > 10);
    auto r0 = sum(ufx::serial, m, ufx::axis{0});
    auto r1 = sum(ufx::serial, m, ufx::axis{1});
    REQUIRE(a0.size() == 100);
    REQUIRE(a1.size() == 3000);
    bool same = true;
    for (ufx::index_t j = 0; j < 100; ++j) same = same && a0(j) == r0(j);
    for (ufx::index_t i = 0; i < 3000; ++i) same = same && a1(i) == r1(i);
    CHECK(same);
    auto k0 = sum(t, m, ufx::axis{0}, ufx::keepdims);
    CHECK(k0.shape() == std::array<ufx::index_t, 2>{1, 100});
    CHECK(k0(0, 42) == r0(42));
    auto am = ufx::argmax(t, m, ufx::axis{0});
    auto am_ref = ufx::argmax(ufx::serial, m, ufx::axis{0});
    for (ufx::index_t j = 0; j < 100; ++j) same = same && am(j) == am_ref(j);
    CHECK(same);
    CHECK(ufx::argmax(t, m) == ufx::argmax(ufx::serial, m));

    // a gufunc: chunks of whole rows (its core), equal to the serial call
    auto norm2 = ufx::guvectorize<"(n)->()">(row_norm2{});
    const auto b3 = ufx::detail::sim_stats();
    auto g = norm2(t, m);
    CHECK(ufx::detail::sim_stats().host_to_device - b3.host_to_device > 10);
    auto g_ref = norm2(ufx::serial, m);
    REQUIRE(g.size() == 3000);
    for (ufx::index_t i = 0; i < 3000; ++i) same = same && g(i) == g_ref(i);
    CHECK(same);
    // accumulate: along axis 0 the chunks carry their last row into the next; along axis 1 they are
    // independent. Integer-valued sums: exact, equal to the serial scan.
    auto plus = [] UFX_HD(float a, float b) { return a + b; };
    const auto b4 = ufx::detail::sim_stats();
    auto c0 = ufx::accumulate(t, m, plus);
    auto c1 = ufx::accumulate(t, m, plus, ufx::axis{1});
    CHECK(ufx::detail::sim_stats().host_to_device - b4.host_to_device > 20);
    auto c0_ref = ufx::accumulate(ufx::serial, m, plus);
    auto c1_ref = ufx::accumulate(ufx::serial, m, plus, ufx::axis{1});
    for (ufx::index_t i = 0; i < m.size(); ++i)
      same = same && c0.data()[i] == c0_ref.data()[i] && c1.data()[i] == c1_ref.data()[i];
    CHECK(same);
    CHECK(c0(2999, 7) == r0(7)); // the last row of the running sum is the column sum
    std::vector<int> iv(std::size_t{1} << 20);
    for (std::size_t i = 0; i < iv.size(); ++i) iv[i] = static_cast<int>(i % 3) - 1;
    const auto b5 = ufx::detail::sim_stats();
    auto ic = ufx::accumulate(ufx::sim, iv, [] UFX_HD(int a, int b) { return a + b; }); // 4 MiB through 1 MiB
    const auto a5 = ufx::detail::sim_stats();
    CHECK(a5.host_to_device - b5.host_to_device >= 8);
    // two chunks in flight through pinned staging: every copy queued, no allocation per chunk
    CHECK(a5.queued_copies - b5.queued_copies ==
          a5.host_to_device - b5.host_to_device + a5.device_to_host - b5.device_to_host);
    CHECK(a5.allocations - b5.allocations == 2);
    auto ic_ref = ufx::accumulate(ufx::serial, iv, [] UFX_HD(int a, int b) { return a + b; });
    CHECK(ic == ic_ref);

    const std::string msg = error_message([&] { (void)norm2(ufx::chunked(ufx::sim, 300), m); });
    CHECK(msg.find("one chunk of the outermost loop dimension needs 404 bytes") != std::string::npos);
  }
  ufx::configure_sim(saved);
}

// ---- pageable host data through pinned staging (copy_staging): ufx::cuda's path, run on the sim

TEST_CASE("staging: pageable host data crosses through pinned blocks in order, both ways, any size") {
  auto& cfg = ufx::detail::copy_staging();
  const ufx::detail::staging_settings saved = cfg;
  cfg.sim = true; // the sim's memory is host memory: staging is off there unless a test asks
  cfg.min_bytes = 1;
  cfg.chunk = 4096;
  for (int blocks : {2, 3}) {
    cfg.blocks = blocks;
    for (std::size_t n : {std::size_t{1}, std::size_t{1024}, std::size_t{10000}, std::size_t{1} << 18}) {
      CAPTURE(blocks);
      CAPTURE(n);
      std::vector<float> h(n);
      for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<float>(i) * 0.25f - 7.f;
      const std::size_t chunks = (n * sizeof(float) + 4095) / 4096;
      const auto b = ufx::detail::sim_stats();
      auto d = ufx::to_device(h, ufx::sim);
      const auto a = ufx::detail::sim_stats();
      CHECK(a.host_to_device - b.host_to_device == static_cast<long>(chunks)); // one queued copy a block
      CHECK(a.queued_copies - b.queued_copies == static_cast<long>(chunks));
      std::vector<float> back(n, -1.f);
      d.copy_to_host(back);
      CHECK(ufx::detail::sim_stats().device_to_host - a.device_to_host == static_cast<long>(chunks));
      CHECK(back == h);
      // a call's staged operands and results go the same way
      auto twice = ufx::vectorize([] UFX_HD(float x) { return 2.f * x; });
      const std::vector<float> r = twice(ufx::sim, h);
      bool same = true;
      for (std::size_t i = 0; i < n; ++i) same = same && r[i] == 2.f * h[i];
      CHECK(same);
    }
  }
  // below the threshold, and pinned host data: one copy as before
  cfg.min_bytes = std::size_t{1} << 20;
  std::vector<float> small(1000, 1.f);
  auto b = ufx::detail::sim_stats();
  (void)ufx::to_device(small, ufx::sim);
  CHECK(ufx::detail::sim_stats().host_to_device - b.host_to_device == 1);
  cfg.min_bytes = 1;
  ufx::pinned_vector<float> pinned(100000, 2.f);
  b = ufx::detail::sim_stats();
  (void)ufx::to_device(pinned, ufx::sim);
  CHECK(ufx::detail::sim_stats().host_to_device - b.host_to_device == 1);
  // a failed copy (a destination that is not device memory) reports the sim's error and leaves the
  // blocks usable: the next staged copy is right
  std::vector<float> src(5000, 3.f), not_device(5000);
  const std::string msg = error_message([&] {
    ufx::detail::copy_bytes(ufx::memory_space{&ufx::detail::sim_runtime(), 0}, not_device.data(),
                            ufx::memory_space::host, src.data(), src.size() * sizeof(float));
  });
  CHECK(msg.find("is not in a ufx::sim device 0 allocation") != std::string::npos);
  auto d = ufx::to_device(src, ufx::sim);
  std::vector<float> back(5000);
  d.copy_to_host(back);
  CHECK(back == src);
  cfg = saved;
}

TEST_CASE("staging: the non-temporal copy gives memcpy's bytes at every size and alignment, on several threads") {
  // stream_copy: a head up to a 16-byte boundary of the destination, 64-byte runs of streamed
  // stores, a tail; host_copy splits 1 MiB ranges among threads, each streaming its own
  std::vector<unsigned char> src((std::size_t{5} << 20) + 300), dst(src.size());
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>(i * 131 + (i >> 9));
  auto check = [&](std::size_t d_off, std::size_t s_off, std::size_t n, int threads) {
    std::fill(dst.begin(), dst.end(), static_cast<unsigned char>(0xee));
    ufx::detail::host_copy(dst.data() + d_off, src.data() + s_off, n, threads, true);
    bool inside = std::memcmp(dst.data() + d_off, src.data() + s_off, n) == 0, outside = true;
    for (std::size_t i = 0; i < d_off; ++i) outside = outside && dst[i] == 0xee;
    for (std::size_t i = d_off + n; i < dst.size(); ++i) outside = outside && dst[i] == 0xee;
    return inside && outside;
  };
  for (std::size_t d_off : {0, 1, 7, 15, 16, 33})
    for (std::size_t s_off : {0, 3, 16})
      for (std::size_t n : {0, 1, 15, 63, 64, 79, 80, 127, 1000, 4096, 65536 + 17}) {
        CAPTURE(d_off);
        CAPTURE(s_off);
        CAPTURE(n);
        CHECK(check(d_off, s_off, n, 1));
      }
  for (int threads : {1, 2, 3})
    for (std::size_t n : {std::size_t{2} << 20, (std::size_t{5} << 20) + 100}) {
      CAPTURE(threads);
      CAPTURE(n);
      CHECK(check(5, 1, n, threads));
      CHECK(check(0, 0, n, threads));
    }
}

// ---- calls without a stream: the default order (docs/streams.md). ufx::cuda queues a call whose
// results stay on the device and returns; what reads results waits. The sim runs it at once; the
// results, and so these checks, are the same on both.

namespace {
/// A function slow enough that its kernel outlasts the launch by far (a few milliseconds on a GPU
/// over 2^22 elements).
struct slow_f {
  int rounds;
  UFX_HD float operator()(float x) const {
    for (int i = 0; i < rounds; ++i) x = x * 0.999f + 0.001f;
    return x;
  }
};
} // namespace

#if UFX_CUDA_TU
namespace {
__global__ void user_scale(float* p, int n, float k) { // a user's own kernel on the default stream
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) p[i] *= k;
}
} // namespace
#endif

TEST_CASE_TEMPLATE("default order: results on the device are ready for the next call, and reads wait", T, ufx::sim_t,
                   ufx::cuda_t) {
  if (!ufx_test::runnable<T>()) return;
  const T t{};
  auto add = ufx::vectorize(add_f{});
  const int n = 1 << 16;
  auto d = ufx::to_device(std::vector<float>(n, 1.f), t);
  for (int i = 0; i < 10; ++i) add(t, d, d, ufx::out(d)); // each reads the one before
  auto r = add(t, d, 1.f);                                // a new device_array
  auto sum = ufx::reducer(add_f{}, 0.0f);
  CHECK(sum(t, r) == static_cast<float>(n) * 1025.f); // a reduction's value waits
  ufx::device_array<float, 1> total({1}, t);
  sum(t, d, ufx::axis{0}, ufx::keepdims, ufx::out(total)); // into device memory: queued
  CHECK(total.to_host()(0) == static_cast<float>(n) * 1024.f);
  {
    auto tmp = ufx::to_device(std::vector<float>(n, 3.f), t);
    add(t, tmp, tmp, ufx::out(d)); // tmp is dropped with this call's work queued
  }
  std::vector<float> host(n);
  d.copy_to_host(host);
  CHECK(host[0] == 6.f);
  CHECK(host[n - 1] == 6.f);
  // a ufx stream after the default order sees its results; the default order after a stream sees
  // the stream's once it is synchronized (ufx::cuda's streams are blocking streams, so there it
  // would wait anyway; the sim does not, and so catches a missing synchronize)
  ufx::stream s(t);
  add(t, d, 1.f, ufx::out(d));     // 7
  add(t.on(s), d, d, ufx::out(r)); // 14, after the call before it
  s.synchronize();
  add(t, r, 1.f, ufx::out(d)); // 15
  CHECK(d.to_host()(n - 1) == 15.f);
  ufx::synchronize(t);
#if UFX_CUDA_TU
  if constexpr (std::is_same_v<T, ufx::cuda_t>) { // a user's kernel on the default stream, in step
    user_scale<<<(n + 255) / 256, 256>>>(d.data(), n, 2.f);
    add(t, d, 1.f, ufx::out(d));
    CHECK(d.to_host()(0) == 31.f);
  }
#endif
}

TEST_CASE("default order: ufx::cuda returns from a call on device data before its work is done") {
  if (!ufx_test::runnable<ufx::cuda_t>()) return;
  auto slow = ufx::vectorize(slow_f{20000});
  const int n = 1 << 22;
  auto x = ufx::to_device(std::vector<float>(n, 0.5f), ufx::cuda);
  ufx::device_array<float, 1> y({n}, ufx::cuda);
  slow(ufx::cuda, x, ufx::out(y)); // warm up: the first launch loads the module
  ufx::synchronize(ufx::cuda);
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  slow(ufx::cuda, x, ufx::out(y));
  const auto t1 = clock::now();
  ufx::synchronize(ufx::cuda);
  const auto t2 = clock::now();
  MESSAGE("call returned after " << std::chrono::duration<double, std::micro>(t1 - t0).count()
                                 << " us, work done after "
                                 << std::chrono::duration<double, std::micro>(t2 - t0).count() << " us");
  CHECK((t1 - t0) * 4 < (t2 - t0));
  // nvcc contracts x * 0.999f + 0.001f into one FMA: 20000 roundings apart from the host's, the
  // H200 gave 1.3e-5 off the host's value near 1 (a bound of 1e-4 relative)
  // nvcc contracts x * 0.999f + 0.001f into one FMA: 20000 roundings apart from the host's, the
  // H200 gave 1.3e-5 off the host's value near 1 (a bound of 1e-4 relative)
  const float expect = slow_f{20000}(0.5f);
  CHECK(std::abs(y.to_host()(0) - expect) <= 1e-4f * std::abs(expect));
}

TEST_CASE("ufx::synchronize: a device target's queued work; a host target is an error") {
  ufx::synchronize(ufx::sim);
  ufx::synchronize(ufx::target(ufx::sim.device(0)));
  CHECK(error_message([] { ufx::synchronize(ufx::host); }) ==
        "ufx::synchronize: ufx::host is not a device target; use ufx::cuda or ufx::sim");
  CHECK(error_message([] { ufx::synchronize(ufx::sim.device(7)); }).find("device 7 does not exist") !=
        std::string::npos);
}

TEST_CASE("ufx::synchronize(ufx::sim) waits for every stream of the device, and reports a stream's failure") {
  ufx::stream s(ufx::sim), other(ufx::sim);
  auto add = ufx::vectorize(add_f{});
  auto d = ufx::to_device(std::vector<float>(1000, 1.f), ufx::sim);
  gate g(s);
  add(ufx::sim.on(s), d, d, ufx::out(d)); // held behind the gate
  std::thread opener([&g] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    g.open();
  });
  ufx::synchronize(ufx::sim); // as cudaDeviceSynchronize: returns once s has run the add
  CHECK(d.to_host()(0) == 2.f);
  opener.join();
  // a failure on a stream surfaces at the device's synchronize (once)
  ufx::detail::sim_enqueue(other.native_handle(), [] { throw ufx::kernel_error("a failure on the stream"); });
  CHECK(error_message([] { ufx::synchronize(ufx::sim); }) == "a failure on the stream");
  ufx::synchronize(ufx::sim);
}

// ---- call budgets (issue #30): what one call asks of the device runtime, counted by
// device_runtime::counts() the same way on the sim as on ufx::cuda: kernel launches (a CUB or
// Thrust algorithm counts as one), waits, allocations and frees of device memory, copies, pointer
// queries. A call on device data whose results stay on the device is one launch and nothing else.

namespace {

/// What `fn` asked of target T's runtime.
template <class T, class Fn>
ufx::detail::call_counts spent(Fn&& fn) {
  const auto& rt = T::runtime();
  const auto before = rt.counts();
  fn();
  return rt.counts() - before;
}

void show(const ufx::detail::call_counts& c) {
  MESSAGE("launches " << c.launches << ", waits " << c.waits << ", allocations " << c.allocations << ", frees "
                      << c.frees << ", to device " << c.to_device << ", to host " << c.to_host << ", within "
                      << c.within << ", queued copies " << c.queued_copies << ", queries " << c.queries);
}

/// Nothing but `launches` launches.
void check_only_launches(const ufx::detail::call_counts& c, long launches) {
  show(c);
  CHECK(c.launches == launches);
  CHECK(c.waits == 0);
  CHECK(c.allocations == 0);
  CHECK(c.frees == 0);
  CHECK(c.to_device + c.to_host + c.within + c.queued_copies == 0);
  CHECK(c.queries == 0);
}

} // namespace

TEST_CASE_TEMPLATE("budget: a call on device data into device memory is one launch and nothing else", T, ufx::sim_t,
                   ufx::cuda_t) {
  if (!ufx_test::runnable<T>()) return;
  const T t{};
  const int n = 4096;
  auto x = ufx::to_device(std::vector<float>(n, 1.f), t), y = ufx::to_device(std::vector<float>(n, 2.f), t);
  ufx::device_array<float, 1> z({n}, t);
  auto add = ufx::vectorize(add_f{});
  add(t, x, y, ufx::out(z)); // the first call of a kernel may load code
  check_only_launches(spent<T>([&] { add(t, x, y, ufx::out(z)); }), 1);
  check_only_launches(spent<T>([&] { add(t, x, 1.f, ufx::out(z)); }), 1);
  check_only_launches(spent<T>([&] { add(x, y, ufx::out(z)); }), 1); // the target from the arrays
  // a new device_array result: its allocation besides the launch
  auto c = spent<T>([&] {
    auto r = add(t, x, y);
    (void)r;
  });
  show(c);
  CHECK(c.launches == 1);
  CHECK(c.allocations == 1);
  CHECK(c.frees == 1); // dropped at the end of the lambda (ufx::cuda: in the stream's order, no wait)
  CHECK(c.waits == 0);
  CHECK(c.to_host + c.to_device == 0);
  // a gufunc with small fixed cores, into device memory
  auto A = ufx::to_device(ufx::ndarray<float, 3>({256, 4, 4}), t);
  ufx::device_array<float, 3> C({256, 4, 4}, t);
  auto mm = ufx::guvectorize<"(4,4),(4,4)->(4,4)">(ufx_test::matmul_f{});
  mm(t, A, A, ufx::out(C));
  check_only_launches(spent<T>([&] { mm(t, A, A, ufx::out(C)); }), 1);
  // sums along rows into device memory (the row body: no partials, no second launch), with a
  // ready operator and a user's one
  auto M = ufx::to_device(ufx::ndarray<float, 2>({600, 1000}), t);
  ufx::device_array<float, 1> rows({600}, t);
  auto user_sum = ufx::reducer(add_f{}, 0.f);
  ufx::sum(t, M, ufx::axis{1}, ufx::out(rows));
  user_sum(t, M, ufx::axis{1}, ufx::out(rows));
  check_only_launches(spent<T>([&] { ufx::sum(t, M, ufx::axis{1}, ufx::out(rows)); }), 1);
  check_only_launches(spent<T>([&] { user_sum(t, M, ufx::axis{1}, ufx::out(rows)); }), 1);
}

TEST_CASE_TEMPLATE("budget: a reduction's value and a copy to the host each wait by one copy back", T, ufx::sim_t,
                   ufx::cuda_t) {
  if (!ufx_test::runnable<T>()) return;
  const T t{};
  auto x = ufx::to_device(std::vector<float>(1024, 1.f), t);
  auto sum = ufx::reducer(add_f{}, 0.0f);
  CHECK(sum(t, x) == 1024.f);
  const auto c = spent<T>([&] { CHECK(sum(t, x) == 1024.f); });
  show(c);
  CHECK(c.to_host == 1); // the value: the call's one wait
  CHECK(c.waits == 0);
  CHECK(c.to_device + c.within == 0);
  CHECK(c.queries == 0);
  CHECK(c.allocations == 0); // the value's slot, and the sim's partials or CUB's storage, from the
  CHECK(c.frees == 0);       // scratch cache: what the last call gave back
  CHECK(c.launches >= 1);
  CHECK(c.launches <= 2); // the sim: two passes; ufx::cuda: CUB, which writes the finished value
  // the value into device memory: no copy, no wait
  ufx::device_array<float, 1> r({1}, t);
  const auto d = spent<T>([&] { sum(t, x, ufx::axis{0}, ufx::keepdims, ufx::out(r)); });
  show(d);
  CHECK(d.to_host + d.to_device + d.waits == 0);
  CHECK(d.allocations == d.frees);
  // a copy to the host is one copy, no other wait
  std::vector<float> h(1024);
  const auto e = spent<T>([&] { x.copy_to_host(h); });
  CHECK(e.to_host == 1);
  CHECK(e.waits + e.launches + e.allocations == 0);
}

TEST_CASE_TEMPLATE("budget: host operands are staged once each way, in blocks the last call gave back", T, ufx::sim_t,
                   ufx::cuda_t) {
  if (!ufx_test::runnable<T>()) return;
  const T t{};
  std::vector<float> a(4096, 1.f), b(4096, 2.f), z(4096);
  auto add = ufx::vectorize(add_f{});
  add(t, a, b, ufx::out(z));
  const auto c = spent<T>([&] { add(t, a, b, ufx::out(z)); });
  show(c);
  CHECK(c.launches == 1);
  CHECK(c.to_device == 2);
  CHECK(c.to_host == 1);
  CHECK(c.allocations == 0); // three 16 KiB blocks from the scratch cache, given back
  CHECK(c.frees == 0);
  CHECK(c.waits == 0);
  CHECK(z[4095] == 3.f);
}

TEST_CASE("scratch cache: small temporaries serve the next call, big ones do not, a full device takes them back") {
  struct restore {
    ufx::sim_config saved = ufx::sim_configuration();
    ~restore() { ufx::configure_sim(saved); }
  } const r;
  ufx::configure_sim({1, std::size_t{1} << 20}); // one device of 1 MiB
  const auto& rt = ufx::sim_t::runtime();
  CHECK(ufx::detail::scratch_kept(rt) == 0); // configure_sim gave the kept blocks back
  std::vector<float> h(4096, 1.f);           // staged in 16 KiB: a block to keep
  auto sum = ufx::reducer(add_f{}, 0.f);
  CHECK(sum(ufx::sim, h) == 4096.f);
  const long kept = ufx::detail::scratch_kept(rt);
  CHECK(kept >= 1);
  CHECK(ufx::detail::sim_stats().live_allocations == 0); // kept blocks count as free, as a pool's do
  const auto c = spent<ufx::sim_t>([&] { CHECK(sum(ufx::sim, h) == 4096.f); });
  CHECK(c.allocations == 0);
  CHECK(c.frees == 0);
  CHECK(ufx::detail::scratch_kept(rt) == kept);
  // over 64 KiB (the 128 KiB staged operand): allocated and freed by each call; what is not freed
  // is kept (a new size of partials)
  std::vector<float> big(32768, 1.f);
  for (int i = 0; i < 2; ++i) {
    const long before = ufx::detail::scratch_kept(rt);
    const auto b = spent<ufx::sim_t>([&] { CHECK(sum(ufx::sim, big) == 32768.f); });
    CHECK(b.frees == 1);
    CHECK(b.allocations - b.frees == ufx::detail::scratch_kept(rt) - before);
  }
  // the whole device in one array: only once the kept blocks are given back
  ufx::device_array<char, 1> all({ufx::index_t{1} << 20}, ufx::sim);
  CHECK(ufx::detail::scratch_kept(rt) == 0);
  CHECK(ufx::detail::sim_stats().live_allocations == 1);
}

// ---- graphs (issue #50): ufx::capture records what calls queue on a stream; a replay is one
// graph launch. The same tests on the sim (its stream's recorded tasks) and on ufx::cuda (CUDA's
// stream capture) when a GPU answers.

namespace {

struct twice_plus_f {
  UFX_HD float operator()(float a, float b) const { return 2.f * a + b; }
};

/// The captured sequence of the tests below, on target `t` (a stream's, or none): elementwise calls, a lazy
/// expression, a gufunc, reductions into device arrays (full, 0-d; along an axis), a scan and a raw kernel.
template <class Tg, class Dev>
void step_calls(const Tg& t, Dev& d) {
  auto add = ufx::vectorize(add_f{});
  auto twice_plus = ufx::vectorize(twice_plus_f{});
  auto mm = ufx::guvectorize<"(4,4),(4,4)->(4,4)">(ufx_test::matmul_f{});
  auto scale = ufx::kernel(scale_body{}, "scale");
  add(t, d.x, d.y, ufx::out(d.z));                                                   // z = x + y
  ufx::eval(twice_plus(ufx::lazy(d.z), add(ufx::lazy(d.x), 1.f)), t, ufx::out(d.w)); // w = 2z + x + 1
  mm(t, d.A, d.A, ufx::out(d.C));
  ufx::sum(t, d.w, ufx::out(d.total));
  ufx::sum(t, ufx::ndview<const float, 2>(d.z.data(), {64, 16}), ufx::axis{1}, ufx::out(d.rows));
  ufx::accumulate(t, d.x, add_f{}, ufx::out(d.scan));
  scale.forall(1024)(t, 0.5f, d.z); // z /= 2
}

template <class T>
struct step_data {
  explicit step_data(const T& t)
      : x(ufx::to_device(ramp(1024, 0.25f), t)), y(ufx::to_device(ramp(1024, -1.f), t)), z({1024}, t), w({1024}, t),
        A(ufx::to_device(matrices(), t)), C({8, 4, 4}, t), total({}, t), rows({64}, t), scan({1024}, t) {}
  static std::vector<float> ramp(int n, float k) {
    std::vector<float> v(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = k * static_cast<float>(i % 17);
    return v;
  }
  static ufx::ndarray<float, 3> matrices() {
    ufx::ndarray<float, 3> m({8, 4, 4});
    for (int i = 0; i < 8 * 16; ++i) m.data()[i] = static_cast<float>(i % 5) - 2.f;
    return m;
  }
  ufx::device_array<float, 1> x, y, z, w;
  ufx::device_array<float, 3> A, C;
  ufx::device_array<float, 0> total;
  ufx::device_array<float, 1> rows, scan;
};

/// Every result of step_calls, on the host.
template <class D>
std::vector<float> results(const D& d) {
  std::vector<float> r;
  for (const auto* a : {&d.z, &d.w, &d.rows, &d.scan}) {
    auto h = a->to_host();
    r.insert(r.end(), h.data(), h.data() + h.size());
  }
  auto c = d.C.to_host();
  r.insert(r.end(), c.data(), c.data() + c.size());
  r.push_back(d.total.to_host()());
  return r;
}

} // namespace

TEST_CASE_TEMPLATE("graph: a captured sequence replays by one launch with the calls' results", T, ufx::sim_t,
                   ufx::cuda_t) {
  if (!ufx_test::kernel_runnable<T>()) return;
  const T t{};
  ufx::stream s(t);
  step_data<T> direct(t), captured(t);
  step_calls(t, direct); // the same calls, made one by one without a stream
  const auto want = results(direct);

  const auto at_capture = spent<T>([&] {
    ufx::graph g = ufx::capture(s, [&](auto st) { step_calls(st, captured); });
    (void)g;
  });
  show(at_capture);
  CHECK(at_capture.waits == 0);
  CHECK(at_capture.graph_launches == 0);
  CHECK(at_capture.to_host + at_capture.to_device == 0);

  ufx::graph g = ufx::capture(s, [&](auto st) { step_calls(st, captured); });
  CHECK(!g.empty());
  CHECK(g.size() >= 7); // at least one operation per call
  s.synchronize();
  CHECK(captured.total.to_host()() != want.back()); // captured, not run: the arrays hold what they held
  const auto replay = spent<T>([&] { g.launch(); });
  show(replay);
  CHECK(replay.graph_launches == 1);
  check_only_launches(replay, 0); // no kernel launch of its own, no allocation, wait, copy or pointer query
  s.synchronize();
  CHECK(results(captured) == want); // the same kernels on the same arrays: bitwise
  // each replay runs the calls again on what the arrays hold then: z is halved at the end of each step
  g.launch();
  g.launch();
  s.synchronize();
  step_calls(t, direct);
  step_calls(t, direct);
  CHECK(results(captured) == results(direct));
  // on another stream of the device
  ufx::stream other(t);
  g.launch(other);
  other.synchronize();
  step_calls(t, direct);
  CHECK(results(captured) == results(direct));
}

TEST_CASE_TEMPLATE("graph: what a capture cannot record is an error before anything is recorded", T, ufx::sim_t,
                   ufx::cuda_t) {
  if (!ufx_test::runnable<T>()) return;
  const T t{};
  ufx::stream s(t);
  auto add = ufx::vectorize(add_f{});
  auto x = ufx::to_device(std::vector<float>(256, 1.f), t);
  ufx::device_array<float, 1> z({256}, t);
  add(t, x, x, ufx::out(z));
  ufx::synchronize(t);
  auto refused = [&](auto&& fn, const std::string& what) {
    std::string msg;
    try {
      ufx::graph g = ufx::capture(s, fn);
      FAIL_CHECK(("captured: " + what));
    } catch (const ufx::device_error& e) {
      msg = e.what();
    }
    INFO(msg);
    CHECK(msg.find(what) != std::string::npos);
    CHECK(msg.find("inside ufx::capture") != std::string::npos);
    CHECK(!s.capturing()); // the capture ended with the error
  };
  refused([&](auto st) { add(st, x, x, ufx::out(z)), (void)ufx::sum(st, z); }, "a value returned to the host");
  refused([&](auto st) { (void)add(st, x, 1.f); }, "returns a new device array");
  refused(
      [&](auto st) {
        std::vector<float> h(256);
        add(st, x, x, ufx::out(h));
      },
      "host memory that is not dense and pinned");
  refused([&](auto st) { add(st, std::vector<float>(256, 1.f), x, ufx::out(z)); }, "operand 1 is host memory");
  refused([&](auto) { add(t, x, x, ufx::out(z)); }, "without a stream");
  ufx::stream other(t);
  refused([&](auto) { add(t.on(other), x, x, ufx::out(z)); }, "on a stream other than the captured one");
  refused([&](auto) { s.synchronize(); }, "a wait for the captured stream");
  refused([&](auto) { ufx::synchronize(t); }, "a wait for the device");
  refused([&](auto) { (void)z.to_host(); }, "a copy made at the call");
  refused([&](auto) { (void)ufx::to_device(std::vector<float>(4, 1.f), t); }, "a device array allocated");
  const ufx::ndview<const float, 1> head(z.data(), {255});
  ufx::ndview<float, 1> tail(z.data() + 1, {255});
  refused([&](auto st) { add(st, head, 1.f, ufx::out(tail)); }, "an input that overlaps an output");
  refused(
      [&](auto) {
        ufx::event e;
        e.record(s);
      },
      "an event on the captured stream");
  refused(
      [&](auto st) {
        ufx::graph inner = ufx::capture(s, [&](auto) {});
        (void)st;
      },
      "captures do not nest");
  ufx::graph done = ufx::capture(s, [&](auto st) { add(st, x, x, ufx::out(z)); });
  refused([&](auto) { done.launch(s); }, "ufx::graph: a graph launched inside ufx::capture");
  // a call refused after others were recorded: the whole capture is dropped, nothing ran
  std::string msg;
  try {
    ufx::graph g = ufx::capture(s, [&](auto st) {
      add(st, x, x, ufx::out(z));
      add(st, z, z, ufx::out(z));
      (void)z.to_host();
    });
  } catch (const ufx::device_error& e) {
    msg = e.what();
  }
  CHECK(msg.find("a copy made at the call") != std::string::npos);
  s.synchronize();
  CHECK(z.to_host()(0) == 2.f); // neither add ran
  // an exception of the user's own ends the capture too
  CHECK_THROWS_AS(ufx::capture(s,
                               [&](auto st) {
                                 add(st, x, x, ufx::out(z));
                                 throw std::runtime_error("mine");
                               }),
                  std::runtime_error);
  CHECK(!s.capturing());
  // the stream works as before, and an empty graph says it is one
  add(t.on(s), x, 2.f, ufx::out(z));
  s.synchronize();
  CHECK(z.to_host()(0) == 3.f);
  ufx::graph empty;
  CHECK(error_message([&] { empty.launch(s); }).find("launch of an empty graph") != std::string::npos);
}

TEST_CASE_TEMPLATE("graph: update re-records the calls on other arrays; pinned host memory is copied by each replay", T,
                   ufx::sim_t, ufx::cuda_t) {
  if (!ufx_test::runnable<T>()) return;
  const T t{};
  ufx::stream s(t);
  auto add = ufx::vectorize(add_f{});
  auto a = ufx::to_device(std::vector<float>(512, 1.f), t), b = ufx::to_device(std::vector<float>(512, 10.f), t);
  ufx::device_array<float, 1> z({512}, t);
  ufx::pinned_vector<float> in(512, 100.f), back(512, 0.f);
  auto step = [&](const ufx::device_array<float, 1>& src) {
    return [&](auto st) {
      add(st, src, in, ufx::out(z));   // in: copied by the stream at each replay
      add(st, z, 1.f, ufx::out(back)); // back: copied back by the stream at each replay
    };
  };
  ufx::graph g = ufx::capture(s, step(a)).named("step");
  CHECK(g.name() == "step");
  g.launch();
  s.synchronize();
  CHECK(back[0] == 102.f);
  in[7] = 200.f; // what the pinned memory holds at the replay
  g.launch();
  s.synchronize();
  CHECK(back[7] == 202.f);
  const void* handle = g.native_handle();
  g.update(s, step(b));
  CHECK(g.native_handle() != nullptr);
  (void)handle;
  const auto replay = spent<T>([&] { g.launch(); });
  CHECK(replay.graph_launches == 1);
  CHECK(replay.launches + replay.allocations + replay.waits + replay.queued_copies == 0);
  s.synchronize();
  CHECK(back[0] == 111.f);
  CHECK(back[7] == 211.f);
  // an update that throws leaves the graph as it was
  CHECK_THROWS_AS(g.update(s, [&](auto) { throw std::runtime_error("no"); }), std::runtime_error);
  g.launch();
  s.synchronize();
  CHECK(back[0] == 111.f);
}

TEST_CASE("graph: on the sim, a replay after an array it uses was freed is an error; a named graph opens one range") {
  ufx::stream s(ufx::sim);
  auto add = ufx::vectorize(add_f{});
  ufx::device_array<float, 1> z({64}, ufx::sim);
  std::string msg;
  {
    auto w = ufx::to_device(std::vector<float>(64, 5.f), ufx::sim);
    ufx::graph g = ufx::capture(s, [&](auto t) { add(t, w, w, ufx::out(z)); }).named("doubles");
    g.launch();
    s.synchronize();
    w = ufx::device_array<float, 1>();
    auto again = ufx::to_device(std::vector<float>(64, 6.f), ufx::sim); // may take w's memory: still an error
    msg = error_message([&] { g.launch(); });
  }
  CHECK(msg.find("ufx::graph 'doubles': an array that ufx::vectorize uses in the graph was freed") !=
        std::string::npos);
  s.synchronize();
  CHECK(z.to_host()(0) == 10.f);
  // the temporaries of captured calls live with the graph, and go with it
  const auto before = ufx::detail::sim_stats().live_allocations;
  auto d = ufx::to_device(std::vector<float>(1 << 16, 1.f), ufx::sim);
  ufx::device_array<float, 0> total({}, ufx::sim);
  {
    ufx::graph g = ufx::capture(s, [&](auto t) { ufx::sum(t, d, ufx::out(total)); }).named("total");
    CHECK(ufx::detail::sim_stats().live_allocations > before + 2); // d, total and the sum's partials
    static std::vector<std::string> names;
    names.clear();
    ufx::detail::set_range_observer([](const char* n) {
      if (n) names.emplace_back(n);
    });
    g.launch();
    ufx::detail::set_range_observer(nullptr);
    CHECK(names == std::vector<std::string>{"graph total"});
    s.synchronize();
  }
  CHECK(ufx::detail::sim_stats().live_allocations == before + 2);
  CHECK(total.to_host()() == 65536.f);
  // a failure inside a replay is the stream's, reported by its synchronize
  auto oob = ufx::kernel([](const ufx::thread& t, ufx::ndview<float, 1> a) { a(t.grid<1>() + 1) = 0.f; }, "oob");
  if (ufx_test::kernel_runnable<ufx::sim_t>()) {
    ufx::graph g = ufx::capture(s, [&](ufx::sim_t t) { oob.forall(64)(t, z); });
    g.launch();
    CHECK(error_message([&] { s.synchronize(); }).find("oob") != std::string::npos);
  }
}
