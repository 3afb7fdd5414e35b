// ufx::mpi under mpirun (2 and 3 ranks): every result is compared with the same call on one
// process, on every rank. Sizes are chosen so that blocks are uneven (7 rows) and, on 3 ranks, a
// rank holds no rows (2 rows); the values are small integers held in float, so sums are exact
// and the distributed result must equal the single-process one bit for bit.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include <ufx/mpi.hpp>
#include <ufx/ufx.hpp>

#include "common.hpp"
#include "gufunc_cores.hpp"

// The targets each rank runs its share on (common.hpp's, or ufx::host alone in the sanitizer build).
#if defined(UFX_TEST_MPI_HOST_ONLY)
#  define UFX_MPI_TEST_TARGETS ufx::host_t
#else
#  define UFX_MPI_TEST_TARGETS UFX_TEST_TARGETS
#endif

namespace {

using ufx::index_t;
namespace mpi = ufx::mpi;

const mpi::communicator world;

std::vector<float> values(index_t n, int mod = 17, int shift = 3) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = static_cast<float>((i * 7 + shift) % mod) - 5.f;
  return v;
}

ufx::ndarray<float, 2> matrix(index_t rows, index_t cols) {
  ufx::ndarray<float, 2> m({rows, cols});
  for (index_t i = 0; i < rows; ++i)
    for (index_t j = 0; j < cols; ++j) m(i, j) = static_cast<float>((i * 5 + j * 3) % 11) - 4.f;
  return m;
}

template <class T, int R>
bool same(const ufx::ndarray<T, R>& a, const ufx::ndarray<T, R>& b) {
  if (a.shape() != b.shape()) return false;
  for (index_t i = 0; i < a.size(); ++i)
    if (std::memcmp(a.data() + i, b.data() + i, sizeof(T)) != 0) return false;
  return true;
}

/// The same bits on every rank.
template <class T>
bool same_on_every_rank(const T& v) {
  std::vector<unsigned char> all(sizeof(T) * static_cast<std::size_t>(world.size()));
  MPI_Allgather(&v, sizeof(T), MPI_BYTE, all.data(), sizeof(T), MPI_BYTE, world.native());
  for (int r = 0; r < world.size(); ++r)
    if (std::memcmp(all.data() + sizeof(T) * static_cast<std::size_t>(r), &v, sizeof(T)) != 0) return false;
  return true;
}

/// The message every rank got, or "<no exception>".
template <class E, class Fn>
std::string thrown(Fn&& fn) {
  try {
    fn();
  } catch (const E& e) {
    return e.what();
  }
  return "<no exception>";
}

/// True on every rank when `ok` is true on every rank.
bool all_ranks(bool ok) {
  int mine = ok ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, world.native());
  return all == 1;
}

} // namespace

TEST_CASE("a balanced partition splits axis 0 unevenly and may leave a rank without rows") {
  const int n = world.size();
  for (index_t rows : {0, 1, 2, 7, 100}) {
    const mpi::partition p(world, {rows, 3});
    index_t total = 0;
    for (int r = 0; r < n; ++r) {
      CHECK(p.offset(r) == total);
      CHECK(p.rows(r) == rows / n + (r < rows % n ? 1 : 0));
      total += p.rows(r);
    }
    CHECK(total == rows);
    CHECK(p.local_shape() == std::vector<index_t>{p.rows(), 3});
    CHECK(p.row_size() == 3);
  }
  if (n == 3) {
    CHECK(mpi::partition(world, {2}).to_string() == "(2,) in rows 1,1,0 on 3 ranks");
    CHECK(mpi::partition(world, {7, 3}).to_string() == "(7,3) in rows 3,2,2 on 3 ranks");
  }
  std::vector<index_t> rows(static_cast<std::size_t>(n), 1);
  rows[0] = 5;
  const mpi::partition q(world, {static_cast<index_t>(n) + 4}, rows);
  CHECK(q.rows(0) == 5);
  CHECK(q.offset(n - 1) == static_cast<index_t>(n) + 3);
  CHECK(thrown<ufx::shape_error>([&] { mpi::partition(world, {3}, rows); }).find("add up to") != std::string::npos);
  CHECK(thrown<ufx::shape_error>([&] { mpi::partition(world, {}); }).find("has no axis 0") != std::string::npos);
}

TEST_CASE("scatter and gather round-trip std::vector and ndarray, with uneven and empty blocks") {
  for (index_t n : {0, 2, 7, 31}) {
    const std::vector<float> full = values(n);
    const mpi::partition p(world, {n});
    const auto x = mpi::scatter(p, world.rank() == 0 ? full : std::vector<float>{});
    CHECK(x.rows() == p.rows());
    CHECK(x.local().size() == static_cast<std::size_t>(p.rows()));
    for (index_t i = 0; i < x.rows(); ++i)
      CHECK(x.local()[static_cast<std::size_t>(i)] == full[static_cast<std::size_t>(x.offset() + i)]);
    CHECK(mpi::allgather(x) == full);
    const std::vector<float> at1 = mpi::gather(x, world.size() - 1);
    CHECK(at1 == (world.rank() == world.size() - 1 ? full : std::vector<float>{}));
  }
  const ufx::ndarray<float, 2> m = matrix(7, 4);
  const auto dm = mpi::scatter(mpi::partition(world, {7, 4}), m);
  CHECK(dm.local().shape()[0] == dm.rows());
  CHECK(same(mpi::allgather(dm), m));
  // a replicated partition: every rank gets, and gives back, the whole array
  const auto rep = mpi::scatter(mpi::partition::replicated(world, {7, 4}), m);
  CHECK(same(rep.local(), m));
  CHECK(same(mpi::allgather(rep), m));
  CHECK(same(mpi::gather(rep), world.rank() == 0 ? m : ufx::ndarray<float, 2>{}));
  // a device array on the root, blocks on the host
  const auto dd = mpi::scatter(mpi::partition(world, {7, 4}), ufx::to_device(m, ufx::sim));
  CHECK(same(mpi::allgather(dd), m));
}

TEST_CASE_TEMPLATE("vectorize on distributed operands equals the call on one process", Target, UFX_MPI_TEST_TARGETS) {
  const Target t{};
  const auto add = ufx::vectorize([](float a, float b) { return a + b; });
  const auto fma = ufx::vectorize([](float a, float b, float c) { return a * b + c; });
  for (index_t n : {0, 2, 7, 64}) {
    const mpi::partition p(world, {n});
    const std::vector<float> xf = values(n), yf = values(n, 13, 1);
    const auto x = mpi::scatter(p, xf), y = mpi::scatter(p, yf);
    const auto z = add(t, x, y);
    static_assert(std::is_same_v<std::remove_cvref_t<decltype(z)>, mpi::distributed<std::vector<float>>>);
    CHECK(z.partition() == p);
    CHECK(mpi::allgather(z) == add(t, xf, yf));
    CHECK(mpi::allgather(fma(t, x, 2.f, y)) == fma(t, xf, 2.f, yf));
    // into an existing distributed array, and in place
    auto w = mpi::scatter(p, std::vector<float>(static_cast<std::size_t>(n)));
    add(t, x, y, ufx::out(w));
    CHECK(mpi::allgather(w) == add(t, xf, yf));
    add(t, w, 1.f, ufx::out(w));
    CHECK(mpi::allgather(w) == add(t, add(t, xf, yf), 1.f));
    // a ready ufunc: a C++ double beside distributed float32 arrays is weak (NEP 50), the result float32
    const auto r = ufx::add(t, x, 1.0);
    static_assert(std::is_same_v<std::remove_cvref_t<decltype(r)>, mpi::distributed<std::vector<float>>>);
    CHECK(mpi::allgather(r) == ufx::add(t, xf, 1.0));
  }
  // 2-D blocks with a replicated row and a column of extent 1 along axis 0 broadcast on every rank
  const ufx::ndarray<float, 2> m = matrix(7, 4);
  const auto dm = mpi::scatter(mpi::partition(world, {7, 4}), m);
  const std::vector<float> row{1.f, 10.f, 100.f, 1000.f};
  const ufx::ndarray<float, 2> one_row = matrix(1, 4);
  CHECK(same(mpi::allgather(add(t, dm, row)), add(t, m, row)));
  CHECK(same(mpi::allgather(add(t, dm, one_row)), add(t, m, one_row)));
  CHECK(add(t, dm, row).global_shape() == std::vector<index_t>{7, 4});
}

TEST_CASE("a function with two outputs gives a tuple of distributed arrays") {
  const auto divmod = ufx::vectorize([](int a, int b) { return std::tuple{a / b, a % b}; });
  const mpi::partition p(world, {9});
  std::vector<int> a(9), b(9, 4);
  for (int i = 0; i < 9; ++i) a[static_cast<std::size_t>(i)] = 3 * i + 1;
  const auto [q, r] = divmod(mpi::scatter(p, a), mpi::scatter(p, b));
  const auto [q1, r1] = divmod(a, b);
  CHECK(mpi::allgather(q) == q1);
  CHECK(mpi::allgather(r) == r1);
}

TEST_CASE_TEMPLATE("guvectorize on distributed operands: a batch of matmuls and dot products split along the batch",
                   Target, UFX_MPI_TEST_TARGETS) {
  const Target t{};
  const auto matmul = ufx::guvectorize<"(m,n),(n,p)->(m,p)">(ufx_test::matmul_f{});
  const auto dot = ufx::guvectorize<"(n),(n)->()">(ufx_test::dot_f{});
  for (index_t batch : {2, 7}) {
    ufx::ndarray<float, 3> a({batch, 2, 3});
    for (index_t i = 0; i < a.size(); ++i) a.data()[i] = static_cast<float>(i % 7) - 3.f;
    ufx::ndarray<float, 2> b({3, 2}); // replicated: every batch entry times the same matrix
    for (index_t i = 0; i < b.size(); ++i) b.data()[i] = static_cast<float>(i % 5) - 1.f;
    const auto da = mpi::scatter(mpi::partition(world, {batch, 2, 3}), a);
    const auto c = matmul(t, da, b);
    CHECK(c.global_shape() == std::vector<index_t>{batch, 2, 2});
    CHECK(c.rows() == da.rows());
    CHECK(same(mpi::allgather(c), matmul(t, a, b)));
    // (batch, 3) rows dotted with a distributed (batch, 3) and with a replicated (3,)
    const ufx::ndarray<float, 2> x = matrix(batch, 3), y = matrix(batch, 3);
    const std::vector<float> w{1.f, 2.f, 3.f};
    const mpi::partition p(world, {batch, 3});
    const auto dx = mpi::scatter(p, x), dy = mpi::scatter(p, y);
    const auto xy = dot(t, dx, dy);
    CHECK(same(mpi::allgather(xy), dot(t, x, y)));
    CHECK(same(mpi::allgather(dot(t, dx, w)), dot(t, x, w)));
  }
  // axis 0 of a (3,) vector is its core dimension in "(n),(n)->()": it cannot be split
  const auto v = mpi::scatter(mpi::partition(world, {3}), std::vector<float>{1.f, 2.f, 3.f});
  const auto dx = mpi::scatter(mpi::partition(world, {3, 3}), matrix(3, 3));
  CHECK(thrown<ufx::mpi::error>([&] { (void)dot(t, dx, v); }).find("operand 1 (3,) in rows") != std::string::npos);
  CHECK(thrown<ufx::mpi::error>([&] { (void)dot(t, dx, v); }).find("is one of the gufunc's core dimensions") !=
        std::string::npos);
}

TEST_CASE("device-array blocks on ufx::sim run there and reduce like host blocks") {
  const index_t n = 7;
  const mpi::partition p(world, {n});
  const std::vector<float> xf = values(n);
  const auto hx = mpi::scatter(p, xf);
  mpi::distributed dx(p, ufx::to_device(hx.local(), ufx::sim));
  const auto twice = ufx::vectorize([](float a) { return 2.f * a; });
  const auto dy = twice(dx);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(dy.local())>, ufx::device_array<float, 1>>);
  const auto sum = ufx::reducer(ufx::plus{}, 0.f);
  const ufx::ndarray<float, 1> all = mpi::allgather(dy);
  CHECK(std::vector<float>(all.begin(), all.end()) == twice(xf));
  CHECK(sum(dy) == sum(twice(xf)));
  CHECK(ufx::argmax(dy) == ufx::argmax(xf));
  const auto c = ufx::accumulate(dy, ufx::plus{});
  const auto cf = ufx::accumulate(twice(xf), ufx::plus{});
  const auto cg = mpi::allgather(c);
  CHECK(std::vector<float>(cg.begin(), cg.end()) == std::vector<float>(cf.begin(), cf.end()));
}

TEST_CASE("operands split differently are a shape_error on every rank naming both partitions") {
  const int n = world.size();
  std::vector<index_t> rows(static_cast<std::size_t>(n), 1);
  rows[0] += 2; // (n + 2,) as 3,1,1 instead of the balanced split
  const mpi::partition balanced(world, {static_cast<index_t>(n) + 2}),
      skewed(world, {static_cast<index_t>(n) + 2}, rows);
  const auto x = mpi::scatter(balanced, values(n + 2)), y = mpi::scatter(skewed, values(n + 2));
  const auto add = ufx::vectorize([](float a, float b) { return a + b; });
  const std::string what = thrown<ufx::shape_error>([&] { (void)add(x, y); });
  CHECK(what.find("ufx::vectorize: operand 0 and operand 1 are split differently across the ranks") !=
        std::string::npos);
  CHECK(what.find(balanced.to_string()) != std::string::npos);
  CHECK(what.find(skewed.to_string()) != std::string::npos);
  CHECK(all_ranks(what.find(skewed.to_string()) != std::string::npos));
  CHECK(thrown<ufx::shape_error>([&] {
          (void)ufx::transform_reduce(x, y, add, ufx::plus{}, 0.f);
        }).find("split differently") != std::string::npos);
  // a replicated array that spans axis 0 is not a distributed operand
  CHECK(thrown<ufx::mpi::error>([&] { (void)add(x, values(n + 2)); }).find("is not distributed but spans axis 0") !=
        std::string::npos);
}

TEST_CASE("a wrong block on one rank makes every rank throw ufx::mpi::error naming that rank") {
  const int last = world.size() - 1;
  const mpi::partition p(world, {7});
  // the constructor is collective: the last rank's block has one element too many
  std::vector<float> block(static_cast<std::size_t>(p.rows() + (world.rank() == last ? 1 : 0)));
  int rank = -1;
  std::string what;
  try {
    mpi::distributed bad(p, block);
  } catch (const ufx::mpi::error& e) {
    rank = e.rank();
    what = e.what();
    CHECK(e.kind() == "ufx::shape_error");
  }
  CHECK(rank == last);
  CHECK(what.find("rank " + std::to_string(last) + " failed") != std::string::npos);
  CHECK(what.find("the local block on rank " + std::to_string(last)) != std::string::npos);
  // a block resized after construction: the next call fails on every rank, the others included
  auto x = mpi::scatter(p, values(7));
  if (world.rank() == last) x.local().push_back(1.f);
  const auto add = ufx::vectorize([](float a, float b) { return a + b; });
  const auto sum = ufx::reducer(ufx::plus{}, 0.f);
  what = thrown<ufx::mpi::error>([&] { (void)add(x, 1.f); });
  CHECK(what.find("rank " + std::to_string(last) +
                  " failed (ufx::shape_error): ufx::vectorize: operand 0's local block") != std::string::npos);
  CHECK(thrown<ufx::mpi::error>([&] { (void)sum(x); }).find("ufx::reducer: operand 0's local block") !=
        std::string::npos);
  // on the failing rank the original exception is nested
  if (world.rank() == last) {
    try {
      (void)add(x, 1.f);
    } catch (const ufx::mpi::error& e) {
      CHECK(thrown<ufx::shape_error>([&] { std::rethrow_if_nested(e); }) != "<no exception>");
    }
  } else {
    CHECK_THROWS_AS((void)add(x, 1.f), ufx::mpi::error);
  }
  // the ranks are still in step: a good call afterwards works
  x.local().resize(static_cast<std::size_t>(p.rows()));
  CHECK(sum(x) == sum(mpi::allgather(x)));
}

TEST_CASE_TEMPLATE("every reducer of a distributed array returns the single-process value on every rank", Target,
                   UFX_MPI_TEST_TARGETS) {
  const Target t{};
  for (index_t n : {1, 2, 7, 1000}) {
    const std::vector<float> xf = values(n);
    const auto x = mpi::scatter(mpi::partition(world, {n}), xf);
    const auto check = [&](const auto& r) {
      const auto d = r(t, x);
      CHECK(d == r(t, xf));
      CHECK(same_on_every_rank(d));
    };
    check(ufx::reducer(ufx::plus{}, 0.f));
    check(ufx::reducer(ufx::minimum)); // no identity: the rank without rows gives no partial
    check(ufx::reducer(ufx::maximum));
    check(ufx::reducer(ufx::logical_and, true));
    check(ufx::reducer(ufx::logical_or, false));
    check(ufx::reducer([](float a, float b) { return std::fabs(a) > std::fabs(b) ? a : b; }));
    // the Numba tutorial's |x| reducer: the ranks' partials are accumulators, combined by op
    const auto absum = ufx::reducer([](float a, float b) { return b < 0 ? a - b : a + b; }, 0.f);
    float exact = 0;
    for (float v : xf) exact += std::fabs(v);
    CHECK(absum(t, x) == exact);
    CHECK(absum(t, x, 1.f) == exact + 1.f);
    const std::vector<int> small = [&] {
      std::vector<int> v(static_cast<std::size_t>(std::min<index_t>(n, 20)));
      for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int>(i % 3) + 1;
      return v;
    }();
    const auto xs = mpi::scatter(mpi::partition(world, {static_cast<index_t>(small.size())}), small);
    const auto prod = ufx::reducer(ufx::multiplies{}, 1);
    CHECK(prod(t, xs) == prod(t, small));
    // Numba's init is combined once, not once per rank
    const auto sum = ufx::reducer(ufx::plus{}, 0.f);
    CHECK(sum(t, x, 100.f) == sum(t, xf, 100.f));
    CHECK(ufx::reduce(t, x, ufx::maximum, -1000.f) == ufx::reduce(t, xf, ufx::maximum, -1000.f));
  }
}

TEST_CASE_TEMPLATE("int32 sums and products across ranks widen to int64, as NumPy's and one process's do", Target,
                   UFX_MPI_TEST_TARGETS) {
  const Target t{};
  for (index_t n : {1, 2, 7, 1000}) {
    const std::vector<int> v(static_cast<std::size_t>(n), std::numeric_limits<int>::max());
    const auto x = mpi::scatter(mpi::partition(world, {n}), v);
    const auto s = ufx::sum(t, x);
    static_assert(std::is_same_v<decltype(s), const std::int64_t>);
    CHECK(s == n * std::int64_t{std::numeric_limits<int>::max()}); // past INT_MAX from n = 2
    CHECK(s == ufx::sum(t, v));
    CHECK(same_on_every_rank(s));
    const std::vector<int> f(static_cast<std::size_t>(std::min<index_t>(n, 3)), 65536);
    const auto xp = mpi::scatter(mpi::partition(world, {static_cast<index_t>(f.size())}), f);
    CHECK(ufx::prod(t, xp) == ufx::prod(t, f)); // 65536^2 = 2^32 and 65536^3 = 2^48 in int64
    const std::vector<std::int64_t> c = mpi::allgather(ufx::accumulate(t, x, ufx::plus{}));
    CHECK(c == ufx::accumulate(t, v, ufx::plus{}));
  }
}

TEST_CASE_TEMPLATE("a float16 sum across ranks adds the ranks' float partials and rounds once, as one process does",
                   Target, UFX_MPI_TEST_TARGETS) {
  const Target t{};
  // +1000 in the first half, -1000 in the second: the sum is 0 in float; a rank's partial rounded to float16 first
  // would be an infinity (16,384,000 on one of two ranks), and the ranks' infinities would add to a NaN
  std::vector<ufx::float16> v(32768, ufx::float16(1000.f));
  for (std::size_t i = v.size() / 2; i < v.size(); ++i) v[i] = ufx::float16(-1000.f);
  const auto x = mpi::scatter(mpi::partition(world, {static_cast<index_t>(v.size())}), v);
  const auto s = ufx::sum(t, x);
  static_assert(std::is_same_v<decltype(s), const ufx::float16>);
  CHECK(s.bits() == ufx::sum(t, v).bits());
  CHECK(s.bits() == 0);
  CHECK(ufx::sum(t, x, ufx::float16(0.5f)).bits() == 0x3800); // Numba's init, added in float: 0.5
  CHECK(same_on_every_rank(float(s)));
  // a sum of k / 2048 (exact in float16, every float partial exact): 4046.8134765625, rounded once to 4046
  std::vector<ufx::float16> w;
  for (long long i = 0; i < 32768; ++i)
    w.push_back(ufx::float16(static_cast<float>((7 * i * i + 3 * i) % 511) / 2048.f));
  const auto y = mpi::scatter(mpi::partition(world, {static_cast<index_t>(w.size())}), w);
  CHECK(ufx::sum(t, y).bits() == 0x6be7);
  CHECK(ufx::prod(t, mpi::scatter(mpi::partition(world, {4}), std::vector<ufx::float16>(4, ufx::float16(300.f))))
            .bits() == 0x7c00); // 8.1e9 in float: past float16's largest, inf (rounded once, as one process)
}

TEST_CASE("an empty distributed reduction gives the identity, or NumPy's error on every rank") {
  const auto x = mpi::scatter(mpi::partition(world, {0}), std::vector<float>{});
  CHECK(ufx::reducer(ufx::plus{}, 0.f)(x) == 0.f);
  CHECK(ufx::reducer(ufx::plus{}, 0.f)(x, 5.f) == 5.f);
  CHECK(thrown<ufx::value_error>([&] {
          (void)ufx::reducer(ufx::maximum)(x);
        }).find("zero-size array to reduction operation which has no identity") != std::string::npos);
  CHECK(thrown<ufx::value_error>([&] { (void)ufx::argmax(x); }).find("attempt to get argmax of an empty sequence") !=
        std::string::npos);
}

TEST_CASE("a float32 sum across ranks keeps the pairwise accuracy and is the same on every rank") {
  const index_t n = 1 << 20;
  const std::vector<float> xf(static_cast<std::size_t>(n), 0.1f);
  const auto x = mpi::scatter(mpi::partition(world, {n}), xf);
  const auto sum = ufx::reducer(ufx::plus{}, 0.f);
  const float s = sum(ufx::host, x);
  const double exact = static_cast<double>(n) * static_cast<double>(0.1f);
  CHECK(std::fabs(s - exact) / exact < 1e-6); // a naive float loop is off by about 1e-2 here
  CHECK(same_on_every_rank(s));
  CHECK(std::fabs(s - sum(xf)) / exact < 1e-6);
  // the same value on every call: the combine does not depend on timing
  for (int k = 0; k < 5; ++k) CHECK(sum(ufx::host, x) == s);
}

TEST_CASE_TEMPLATE("transform_reduce over distributed operands, with a replicated one", Target, UFX_MPI_TEST_TARGETS) {
  const Target t{};
  const auto mul = [](float a, float b) { return a * b; };
  for (index_t n : {2, 7, 50}) {
    const mpi::partition p(world, {n});
    const std::vector<float> xf = values(n), yf = values(n, 5, 2);
    const auto x = mpi::scatter(p, xf), y = mpi::scatter(p, yf);
    CHECK(ufx::transform_reduce(t, x, y, mul, ufx::plus{}, 0.f) ==
          ufx::transform_reduce(t, xf, yf, mul, ufx::plus{}, 0.f));
    CHECK(ufx::transform_reduce(t, x, 3.f, mul, ufx::maximum, -1e9f) ==
          ufx::transform_reduce(t, xf, 3.f, mul, ufx::maximum, -1e9f));
  }
  // (7,4) blocks times a replicated row: a matrix-vector product reduced along axis 1 stays distributed
  const ufx::ndarray<float, 2> m = matrix(7, 4);
  const std::vector<float> v{1.f, -2.f, 3.f, 4.f};
  const auto dm = mpi::scatter(mpi::partition(world, {7, 4}), m);
  const auto mv = ufx::transform_reduce(t, dm, v, mul, ufx::plus{}, 0.f, ufx::axis{1});
  CHECK(same(mpi::allgather(mv), ufx::transform_reduce(t, m, v, mul, ufx::plus{}, 0.f, ufx::axis{1})));
}

TEST_CASE_TEMPLATE("axis reductions: axis 0 across the ranks is replicated, axis 1 stays distributed", Target,
                   UFX_MPI_TEST_TARGETS) {
  const Target t{};
  for (index_t rows : {2, 7}) {
    const ufx::ndarray<float, 2> m = matrix(rows, 5);
    const auto dm = mpi::scatter(mpi::partition(world, {rows, 5}), m);
    const auto sum = ufx::reducer(ufx::plus{}, 0.f);
    const auto mx = ufx::reducer(ufx::maximum);
    // axis 0: every rank holds the whole result
    const auto s0 = sum(t, dm, ufx::axis{0});
    CHECK(s0.partition().is_replicated());
    CHECK(same(s0.local(), sum(t, m, ufx::axis{0})));
    CHECK(same(mx(t, dm, ufx::axis{0}).local(), mx(t, m, ufx::axis{0})));
    CHECK(same(sum(t, dm, 1.f, ufx::axis{0}).local(), sum(t, m, 1.f, ufx::axis{0})));
    CHECK(same(sum(t, dm, ufx::axis{0}, ufx::keepdims).local(), sum(t, m, ufx::axis{0}, ufx::keepdims)));
    CHECK(same(ufx::reduce(t, dm, ufx::minimum, 100.f, ufx::axis{-2}).local(),
               ufx::reduce(t, m, ufx::minimum, 100.f, ufx::axis{-2})));
    // axis 1: rows stay where they are
    const auto s1 = sum(t, dm, ufx::axis{1});
    CHECK(!s1.partition().is_replicated());
    CHECK(s1.rows() == dm.rows());
    CHECK(same(mpi::allgather(s1), sum(t, m, ufx::axis{1})));
    CHECK(same(mpi::allgather(mx(t, dm, ufx::axis{1})), mx(t, m, ufx::axis{1})));
    // both axes: one value
    CHECK(sum(t, dm, ufx::axis{0, 1}) == sum(t, m, ufx::axis{0, 1}));
    // into an existing container: replicated for axis 0
    std::vector<float> col(5);
    sum(t, dm, ufx::axis{0}, ufx::out(col));
    const auto want = sum(t, m, ufx::axis{0});
    CHECK(col == std::vector<float>(want.begin(), want.end()));
    // a full reduction of a replicated result is not counted once per rank
    CHECK(sum(t, s0) == sum(t, want));
  }
}

TEST_CASE("argmin and argmax give the global index, ties across ranks going to the smallest") {
  const int n = world.size();
  for (index_t len : {2, 7, 40}) {
    const mpi::partition p(world, {len});
    // the largest value at the last row of every rank: the first rank with rows wins
    std::vector<float> xf(static_cast<std::size_t>(len), 0.f);
    for (int r = 0; r < n; ++r)
      if (p.rows(r) > 0) xf[static_cast<std::size_t>(p.offset(r) + p.rows(r) - 1)] = 9.f;
    const auto x = mpi::scatter(p, xf);
    CHECK(ufx::argmax(x) == ufx::argmax(xf));
    CHECK(ufx::argmax(x) == p.rows(0) - 1);
    CHECK(ufx::argmin(x) == ufx::argmin(xf));
    CHECK(same_on_every_rank(ufx::argmax(x)));
    // a NaN wins, as in NumPy
    xf[static_cast<std::size_t>(len - 1)] = std::numeric_limits<float>::quiet_NaN();
    const auto xn = mpi::scatter(p, xf);
    CHECK(ufx::argmax(ufx::host, xn) == len - 1);
    CHECK(ufx::argmin(ufx::sim, xn) == len - 1);
  }
  // 2-D: a flat C-order index; along axis 1 the result stays distributed
  const ufx::ndarray<float, 2> m = matrix(7, 3);
  const auto dm = mpi::scatter(mpi::partition(world, {7, 3}), m);
  CHECK(ufx::argmax(dm) == ufx::argmax(m));
  CHECK(ufx::argmin(dm) == ufx::argmin(m));
  CHECK(same(mpi::allgather(ufx::argmax(dm, ufx::axis{1})), ufx::argmax(m, ufx::axis{1})));
  // along axis 0, across the ranks: every rank holds the answer; ties in a column go to the first row
  for (index_t rows : {2, 7}) {
    ufx::ndarray<float, 2> t3({rows, 3}, 1.f);
    for (index_t i = 0; i < rows; ++i) t3(i, 1) = static_cast<float>(i % 2); // 0,1,0,1,...: ties across ranks
    t3(rows - 1, 2) = 5.f;
    const auto dt = mpi::scatter(mpi::partition(world, {rows, 3}), t3);
    const auto a0 = ufx::argmax(dt, ufx::axis{0});
    CHECK(a0.partition().is_replicated());
    CHECK(same(a0.local(), ufx::argmax(t3, ufx::axis{0})));
    CHECK(same(ufx::argmin(ufx::sim, dt, ufx::axis{0}).local(), ufx::argmin(t3, ufx::axis{0})));
    CHECK(same(ufx::argmax(dt, ufx::axis{-2}, ufx::keepdims).local(), ufx::argmax(t3, ufx::axis{-2}, ufx::keepdims)));
    ufx::ndarray<index_t, 1> into({3});
    ufx::argmin(ufx::host, dt, ufx::axis{0}, ufx::out(into));
    CHECK(same(into, ufx::argmin(t3, ufx::axis{0})));
  }
  const auto v = mpi::scatter(mpi::partition(world, {7}), values(7));
  CHECK(ufx::argmax(v, ufx::axis{0}) == ufx::argmax(values(7)));
  const auto none = mpi::scatter(mpi::partition(world, {0, 3}), ufx::ndarray<float, 2>({0, 3}));
  CHECK(thrown<ufx::mpi::error>([&] {
          (void)ufx::argmax(none, ufx::axis{0});
        }).find("attempt to get argmax of an empty sequence") != std::string::npos);
}

TEST_CASE_TEMPLATE("accumulate along axis 0 carries between the ranks; along axis 1 it stays local", Target,
                   UFX_MPI_TEST_TARGETS) {
  const Target t{};
  for (index_t n : {0, 2, 7, 100}) {
    const std::vector<float> xf = values(n);
    const auto x = mpi::scatter(mpi::partition(world, {n}), xf);
    CHECK(mpi::allgather(ufx::accumulate(t, x, ufx::plus{})) == ufx::accumulate(t, xf, ufx::plus{}));
    CHECK(mpi::allgather(ufx::accumulate(t, x, ufx::maximum)) == ufx::accumulate(t, xf, ufx::maximum));
    auto into = mpi::scatter(mpi::partition(world, {n}), std::vector<float>(static_cast<std::size_t>(n)));
    ufx::accumulate(t, x, ufx::plus{}, ufx::out(into));
    CHECK(mpi::allgather(into) == ufx::accumulate(t, xf, ufx::plus{}));
  }
  const ufx::ndarray<float, 2> m = matrix(7, 3);
  const auto dm = mpi::scatter(mpi::partition(world, {7, 3}), m);
  CHECK(same(mpi::allgather(ufx::accumulate(t, dm, ufx::plus{})), ufx::accumulate(t, m, ufx::plus{})));
  CHECK(same(mpi::allgather(ufx::accumulate(t, dm, ufx::plus{}, ufx::axis{1})),
             ufx::accumulate(t, m, ufx::plus{}, ufx::axis{1})));
}

TEST_CASE("the environment does not initialise MPI twice, and a communicator reports rank and size") {
  const mpi::environment again; // MPI is already initialised by main
  CHECK(!again.owns());
  CHECK(again.thread_level() >= MPI_THREAD_FUNNELED);
  CHECK(world.size() >= 1);
  CHECK(world.rank() < world.size());
  CHECK(mpi::communicator(MPI_COMM_WORLD) == world);
}
