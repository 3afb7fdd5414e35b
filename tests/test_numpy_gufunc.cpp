// ufx::guvectorize checked against NumPy: every case in data/numpy_gufunc_cases.txt (written by
// gen_numpy_gufunc.py, with np.matmul, np.einsum, np.cross, np.mean/np.std; the format is described
// there) runs on every target and must give NumPy's shapes and values, or a shape_error of the kind
// NumPy raised.
#include "common.hpp"
#include "gufunc_cores.hpp"

#include <ufx/guvectorize.hpp>

#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace {

using ufx::index_t;

// ---- the core functions, with NumPy's meaning ---------------------------------------------------

using ufx_test::cross_f;
using ufx_test::matmul_f;
using inner_f = ufx_test::dot_f;

/// np.mean and np.std (ddof 0) along the core; an empty core gives NaN, as in NumPy.
struct meanstd_f {
  UFX_HD void operator()(ufx::ndview<const double, 1> x, double& mean, double& sd) const {
    const double n = static_cast<double>(x.extent(0));
    double s = 0;
    for (index_t i = 0; i < x.extent(0); ++i) s += x(i);
    mean = s / n;
    double q = 0;
    for (index_t i = 0; i < x.extent(0); ++i) q += (x(i) - mean) * (x(i) - mean);
    sd = sqrt(q / n);
  }
};

// ---- the case file -------------------------------------------------------------------------------

struct array_data {
  std::string kind; // "2", "3t", ...; empty for outputs
  std::vector<index_t> shape;
  std::vector<double> values; // row-major; int32 values are exact in a double
};

struct case_data {
  int id = -1;
  int line = 0;
  std::string func, dtype;
  std::vector<array_data> in, out;
  std::string error_kind, error_text; // empty when NumPy succeeds

  std::string key() const {
    std::string k = func + " " + dtype;
    for (std::size_t i = 0; i < in.size(); ++i) k += (i ? "," : " ") + in[i].kind;
    return k;
  }
  std::string where() const {
    return "case " + std::to_string(id) + " (line " + std::to_string(line) + ": " + key() + ")";
  }
};

std::vector<index_t> read_shape(std::istringstream& ls) {
  int rank = -1;
  ls >> rank;
  if (rank < 0 || rank > 4) throw std::runtime_error("bad rank");
  std::vector<index_t> s(static_cast<std::size_t>(rank));
  for (auto& e : s) ls >> e;
  return s;
}

std::vector<double> read_values(std::istringstream& ls) {
  std::vector<double> v;
  std::string tok;
  while (ls >> tok) v.push_back(tok == "nan" ? NAN : std::stod(tok));
  return v;
}

std::vector<case_data> read_cases(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot open " + path);
  std::vector<case_data> cases;
  std::string line, tok;
  int lineno = 0, declared = -1;
  array_data* last = nullptr;
  while (std::getline(f, line)) {
    ++lineno;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    ls >> tok;
    if (tok == "cases") {
      ls >> declared;
    } else if (tok == "case") {
      case_data c;
      c.line = lineno;
      ls >> c.id >> c.func >> c.dtype;
      cases.push_back(c);
    } else if (tok == "in" || tok == "out") {
      array_data a;
      if (tok == "in") ls >> a.kind;
      a.shape = read_shape(ls);
      auto& list = tok == "in" ? cases.back().in : cases.back().out;
      list.push_back(a);
      last = &list.back();
    } else if (tok == "v") {
      last->values = read_values(ls);
    } else if (tok == "error") {
      ls >> cases.back().error_kind;
      std::getline(ls, cases.back().error_text);
    } else if (tok != "end") {
      throw std::runtime_error(path + ":" + std::to_string(lineno) + ": unknown line '" + tok + "'");
    }
  }
  if (declared != static_cast<int>(cases.size())) throw std::runtime_error(path + ": wrong case count");
  return cases;
}

const std::vector<case_data>& all_cases() {
  static const std::vector<case_data> cases = read_cases(std::string(UFX_TEST_DATA_DIR) + "/numpy_gufunc_cases.txt");
  return cases;
}

// ---- operands ------------------------------------------------------------------------------------

/// An ndarray<T, R> operand, or (Transposed) a view with its last two axes' strides swapped onto
/// an ndarray that stores them the other way round.
template <class T, int R, bool Transposed = false>
struct operand {
  ufx::ndarray<T, R> base;
  ufx::ndview<const T, R> view;

  explicit operand(const array_data& d) {
    std::array<index_t, R> shape{};
    for (int k = 0; k < R; ++k) shape[k] = d.shape[static_cast<std::size_t>(k)];
    std::array<index_t, R> stored = shape;
    if constexpr (Transposed) std::swap(stored[R - 2], stored[R - 1]);
    base = ufx::ndarray<T, R>(stored);
    std::array<index_t, R> strides = base.view().strides();
    if constexpr (Transposed) std::swap(strides[R - 2], strides[R - 1]);
    view = ufx::ndview<const T, R>(base.data(), shape, strides);
    ufx::ndview<T, R> w(base.data(), shape, strides);
    // write the row-major values of `shape` through the (possibly transposed) view
    std::array<index_t, R> idx{};
    for (std::size_t i = 0; i < d.values.size(); ++i) {
      index_t off = 0;
      for (int k = 0; k < R; ++k) off += idx[k] * strides[k];
      w.data()[off] = static_cast<T>(d.values[i]);
      for (int k = R - 1; k >= 0; --k) {
        if (++idx[k] < shape[k]) break;
        idx[k] = 0;
      }
    }
  }
  const auto& arg() const {
    if constexpr (Transposed) return view;
    else return base;
  }
};

// ---- results -------------------------------------------------------------------------------------

template <class T, int R>
array_data flat(const ufx::ndarray<T, R>& a) {
  array_data d;
  d.shape.assign(a.shape().begin(), a.shape().end());
  for (const T& x : a) d.values.push_back(static_cast<double>(x));
  return d;
}
template <class T>
requires std::is_arithmetic_v<T> array_data flat(const T& x) { return array_data{"", {}, {static_cast<double>(x)}}; }

bool same_value(double got, double want, bool approx) {
  if (std::isnan(want)) return std::isnan(got);
  if (!approx) return got == want;
  return std::abs(got - want) <= 1e-12 * std::max(1.0, std::abs(want));
}

void check_output(const case_data& c, std::size_t j, const array_data& got) {
  INFO(c.where() << ", output " << j);
  REQUIRE(j < c.out.size());
  const array_data& want = c.out[j];
  CHECK(got.shape == want.shape);
  REQUIRE(got.values.size() == want.values.size());
  long bad = 0;
  for (std::size_t i = 0; i < got.values.size(); ++i)
    bad += !same_value(got.values[i], want.values[i], c.func == "meanstd");
  CHECK(bad == 0);
}

template <class Target, class G, class... Op>
void run_case(const G& g, const case_data& c, const Op&... ops) {
  INFO(c.where());
  if (!c.error_kind.empty()) {
    std::string msg;
    try {
      (void)g(Target{}, ops.arg()...);
      msg = "<no exception>";
    } catch (const ufx::shape_error& e) {
      msg = e.what();
    }
    INFO("NumPy: " << c.error_text);
    INFO("ufx:   " << msg);
    if (c.error_kind == "core") {
      CHECK(msg.find("has a mismatch in its core dimension") != std::string::npos);
      // np.matmul reports a gufunc core mismatch: the sizes must read the same
      const auto at = c.error_text.find("(size ");
      if (at != std::string::npos) CHECK(msg.find(c.error_text.substr(at)) != std::string::npos);
    } else {
      CHECK(msg.find("operands could not be broadcast together") != std::string::npos);
    }
    return;
  }
  auto r = g(Target{}, ops.arg()...);
  if constexpr (requires { std::tuple_size<decltype(r)>::value; }) {
    std::apply(
        [&](const auto&... x) {
          std::size_t j = 0;
          (check_output(c, j++, flat(x)), ...);
        },
        r);
  } else {
    check_output(c, 0, flat(r));
  }
}

/// One entry per combination of static operand types the case file uses.
template <class Target>
std::map<std::string, std::function<void(const case_data&)>> runners() {
  std::map<std::string, std::function<void(const case_data&)>> t;
  auto add = [&]<class... Op>(const std::string& key, auto g, std::type_identity<Op>...) {
    t[key] = [g](const case_data& c) {
      [&]<std::size_t... I>(std::index_sequence<I...>) { run_case<Target>(g, c, Op(c.in[I])...); }
      (std::index_sequence_for<Op...>{});
    };
  };
  auto matmul = ufx::guvectorize<"(m,n),(n,p)->(m,p)">(matmul_f{});
  auto inner = ufx::guvectorize<"(n),(n)->()">(inner_f{});
  auto cross = ufx::guvectorize<"(3),(3)->(3)">(cross_f{});
  auto meanstd = ufx::guvectorize<"(n)->(),()">(meanstd_f{});
  using std::type_identity;
  using d2 = operand<double, 2>;
  using d3 = operand<double, 3>;
  using d4 = operand<double, 4>;
  using d1 = operand<double, 1>;
  add("matmul f64 2,2", matmul, type_identity<d2>{}, type_identity<d2>{});
  add("matmul f64 3,2", matmul, type_identity<d3>{}, type_identity<d2>{});
  add("matmul f64 2,3", matmul, type_identity<d2>{}, type_identity<d3>{});
  add("matmul f64 3,3", matmul, type_identity<d3>{}, type_identity<d3>{});
  add("matmul f64 4,3", matmul, type_identity<d4>{}, type_identity<d3>{});
  add("matmul f64 3,4", matmul, type_identity<d3>{}, type_identity<d4>{});
  add("matmul f64 4,4", matmul, type_identity<d4>{}, type_identity<d4>{});
  add("matmul f64 2t,3", matmul, type_identity<operand<double, 2, true>>{}, type_identity<d3>{});
  add("matmul f64 3t,2t", matmul, type_identity<operand<double, 3, true>>{}, type_identity<operand<double, 2, true>>{});
  add("matmul f64 4,2t", matmul, type_identity<d4>{}, type_identity<operand<double, 2, true>>{});
  add("matmul i32 2,2", matmul, type_identity<operand<int, 2>>{}, type_identity<operand<int, 2>>{});
  add("matmul i32 3,3", matmul, type_identity<operand<int, 3>>{}, type_identity<operand<int, 3>>{});
  add("inner f64 1,1", inner, type_identity<d1>{}, type_identity<d1>{});
  add("inner f64 2,1", inner, type_identity<d2>{}, type_identity<d1>{});
  add("inner f64 1,2", inner, type_identity<d1>{}, type_identity<d2>{});
  add("inner f64 2,2", inner, type_identity<d2>{}, type_identity<d2>{});
  add("inner f64 3,2", inner, type_identity<d3>{}, type_identity<d2>{});
  add("inner f64 3,3", inner, type_identity<d3>{}, type_identity<d3>{});
  add("cross f64 1,1", cross, type_identity<d1>{}, type_identity<d1>{});
  add("cross f64 2,1", cross, type_identity<d2>{}, type_identity<d1>{});
  add("cross f64 2,2", cross, type_identity<d2>{}, type_identity<d2>{});
  add("cross f64 3,2", cross, type_identity<d3>{}, type_identity<d2>{});
  add("meanstd f64 1", meanstd, type_identity<d1>{});
  add("meanstd f64 2", meanstd, type_identity<d2>{});
  add("meanstd f64 3", meanstd, type_identity<d3>{});
  return t;
}

} // namespace

TEST_CASE_TEMPLATE("guvectorize gives NumPy's answers for matmul, einsum, cross, mean and std", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const auto& cases = all_cases();
  REQUIRE(cases.size() > 50);
  const auto table = runners<Target>();
  std::map<std::string, int> ran;
  for (const case_data& c : cases) {
    const auto it = table.find(c.key());
    INFO(c.where());
    REQUIRE_MESSAGE(it != table.end(), "no runner for this operand combination: add it to runners()");
    it->second(c);
    ++ran[c.func + (c.error_kind.empty() ? "" : " error")];
  }
  // every function, and errors of every kind, were exercised
  for (const char* f : {"matmul", "inner", "cross", "meanstd", "matmul error", "inner error", "cross error"})
    CHECK_MESSAGE(ran[f] > 0, f);
}
