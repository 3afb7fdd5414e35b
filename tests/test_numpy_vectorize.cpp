// ufx::vectorize checked against NumPy: every case in data/numpy_vectorize_cases.txt (written by
// gen_numpy_vectorize.py; the format is described there) runs on every target and must give
// NumPy's shape and values, or NumPy's broadcast error text.
#include "common.hpp"

#include <ufx/eigen.hpp>

#include <array>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

// ---- the functions, with NumPy's meaning -------------------------------------------------------

struct add_f {
  template <class T>
  UFX_HD T operator()(T a, T b) const {
    return a + b;
  }
};
struct fms_f {
  template <class T>
  UFX_HD T operator()(T a, T b, T c) const {
    return a * b - c;
  }
};
/// np.where(a > b, a, b)
struct max_f {
  template <class T>
  UFX_HD T operator()(T a, T b) const {
    return a > b ? a : b;
  }
};
/// np.divmod on integers: floor division, and a remainder that takes the divisor's sign.
struct divmod_f {
  template <class T>
  UFX_HD std::tuple<T, T> operator()(T a, T b) const {
    T q = a / b, r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) {
      q -= 1;
      r += b;
    }
    return {q, r};
  }
};

// ---- the case file -----------------------------------------------------------------------------

/// Operand kinds; a case's list of kinds is its signature. 0..4 are ndarray ranks.
enum kind : int {
  k_scalar = 5, // a rank-0 operand passed as a plain T
  k_eigen_cm = 6,
  k_eigen_cb,
  k_eigen_ct, // column-major base: whole matrix, block, transposed block
  k_eigen_rm = 9,
  k_eigen_rb,
  k_eigen_rt, // row-major base
};

std::string kind_name(int k) {
  if (k == k_scalar) return "s";
  if (k < k_scalar) return std::to_string(k);
  const int e = k - k_eigen_cm;
  return std::string("E") + (e < 3 ? 'c' : 'r') + "mbt"[e % 3];
}

struct operand_data {
  int kind = 0;
  std::vector<ufx::index_t> shape;     // ndarray extents; Eigen: the base matrix (rows, cols)
  std::array<ufx::index_t, 4> block{}; // Eigen: r0, c0, nr, nc
  std::vector<double> values;          // row-major; int32 values are exact in a double
};

struct output_data {
  std::vector<ufx::index_t> shape;
  std::vector<double> values;
};

struct case_data {
  int id = -1;
  int line = 0;
  std::string func, dtype;
  std::vector<operand_data> in;
  std::vector<output_data> out;
  std::string error; // NumPy's text; empty when the call succeeds

  std::string signature() const {
    std::string s;
    for (const auto& o : in) {
      if (!s.empty()) s += ',';
      s += kind_name(o.kind);
    }
    return s;
  }
  std::string where() const {
    return "case " + std::to_string(id) + " (line " + std::to_string(line) + ": " + func + " " + dtype + " " +
           signature() + ")";
  }
};

std::vector<double> read_values(std::istringstream& ls) {
  std::vector<double> v;
  std::string tok;
  while (ls >> tok) {
    char* end = nullptr;
    v.push_back(std::strtod(tok.c_str(), &end));
    if (*end) throw std::runtime_error("not a number: '" + tok + "'");
  }
  return v;
}

std::vector<ufx::index_t> read_extents(std::istringstream& ls) {
  int rank = -1;
  ls >> rank;
  if (rank < 0 || rank > 4) throw std::runtime_error("bad rank");
  std::vector<ufx::index_t> s(static_cast<std::size_t>(rank));
  for (auto& e : s) ls >> e;
  if (!ls) throw std::runtime_error("bad extents");
  return s;
}

struct case_file {
  std::vector<case_data> cases;
  std::size_t declared = 0; // the file's own count
};

/// Parses the case file; throws naming the line on anything malformed.
case_file parse_cases(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot open " + path);
  case_file file;
  case_data* c = nullptr;
  std::string text, word;
  int line = 0;
  std::vector<double>* pending = nullptr; // the values the next 'v' line fills
  try {
    while (std::getline(f, text)) {
      ++line;
      std::istringstream ls(text);
      if (!(ls >> word) || word[0] == '#') continue;
      if (word == "cases") {
        ls >> file.declared;
      } else if (word == "case") {
        file.cases.emplace_back();
        c = &file.cases.back();
        c->line = line;
        ls >> c->id >> c->func >> c->dtype;
      } else if (!c) {
        throw std::runtime_error("'" + word + "' outside a case");
      } else if (word == "in") {
        operand_data o;
        std::string what;
        ls >> what;
        if (what == "s") {
          o.kind = k_scalar;
        } else if (what == "a") {
          o.shape = read_extents(ls);
          o.kind = static_cast<int>(o.shape.size());
        } else if (what == "E") {
          char order = 0, view = 0;
          o.shape.resize(2);
          ls >> order >> o.shape[0] >> o.shape[1] >> view >> o.block[0] >> o.block[1] >> o.block[2] >> o.block[3];
          const std::string views = "mbt";
          if (!ls || (order != 'c' && order != 'r') || views.find(view) == std::string::npos)
            throw std::runtime_error("bad Eigen operand");
          o.kind = (order == 'c' ? k_eigen_cm : k_eigen_rm) + static_cast<int>(views.find(view));
        } else {
          throw std::runtime_error("unknown operand kind '" + what + "'");
        }
        c->in.push_back(std::move(o));
        pending = &c->in.back().values;
      } else if (word == "out") {
        c->out.push_back({read_extents(ls), {}});
        pending = &c->out.back().values;
      } else if (word == "v") {
        if (!pending) throw std::runtime_error("values without an operand");
        *pending = read_values(ls);
        pending = nullptr;
      } else if (word == "error") {
        std::getline(ls >> std::ws, c->error);
      } else if (word == "end") {
        if (c->in.empty() || (c->out.empty() == c->error.empty())) throw std::runtime_error("incomplete case");
        c = nullptr;
      } else {
        throw std::runtime_error("unknown line '" + word + "'");
      }
    }
  } catch (const std::exception& e) {
    throw std::runtime_error(path + ":" + std::to_string(line) + ": " + e.what());
  }
  return file;
}

const case_file& cases() {
  static const case_file file = parse_cases(UFX_TEST_DATA_DIR "/numpy_vectorize_cases.txt");
  return file;
}

// ---- operands of static types ------------------------------------------------------------------

template <class T, int K>
struct operand {
  // K in 0..4: a ufx::ndarray<T, K>
  ufx::ndarray<T, K> a;
  explicit operand(const operand_data& d) {
    std::array<ufx::index_t, K> s{};
    for (int k = 0; k < K; ++k) s[k] = d.shape[static_cast<std::size_t>(k)];
    a = ufx::ndarray<T, K>(s);
    for (ufx::index_t i = 0; i < a.size(); ++i) a.data()[i] = static_cast<T>(d.values[static_cast<std::size_t>(i)]);
  }
  const ufx::ndarray<T, K>& get() const { return a; }
};

template <class T>
struct operand<T, k_scalar> {
  T v;
  explicit operand(const operand_data& d) : v(static_cast<T>(d.values.at(0))) {}
  T get() const { return v; }
};

template <class T, int K>
requires(K >= k_eigen_cm) struct operand<T, K> {
  static constexpr bool row_major = K >= k_eigen_rm;
  static constexpr int view = (K - k_eigen_cm) % 3; // 0 whole, 1 block, 2 transposed block
  Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, row_major ? Eigen::RowMajor : Eigen::ColMajor> m;
  std::array<ufx::index_t, 4> b;
  explicit operand(const operand_data& d) : m(d.shape[0], d.shape[1]), b(d.block) {
    for (ufx::index_t i = 0; i < m.rows(); ++i)
      for (ufx::index_t j = 0; j < m.cols(); ++j)
        m(i, j) = static_cast<T>(d.values[static_cast<std::size_t>(i * m.cols() + j)]);
    // an empty matrix's data() is null, and Eigen's block adds its offset to it (UBSan: "applying non-zero offset to
    // null pointer"); the block of an empty matrix is empty wherever it starts, so it starts at (0, 0)
    if (m.size() == 0) b[0] = b[1] = 0;
  }
  decltype(auto) get() const {
    if constexpr (view == 0) return (m);
    else if constexpr (view == 1) return m.block(b[0], b[1], b[2], b[3]);
    else return m.block(b[0], b[1], b[2], b[3]).transpose();
  }
};

// ---- results as (static rank, shape, row-major values) -----------------------------------------

struct result_data {
  int static_rank = -1;
  std::vector<ufx::index_t> shape;
  std::vector<double> values;
};

template <class T>
result_data flatten(const T& x) {
  if constexpr (std::is_arithmetic_v<T>) {
    return {0, {}, {static_cast<double>(x)}};
  } else if constexpr (std::is_base_of_v<Eigen::DenseBase<T>, T>) {
    result_data r{2, {x.rows(), x.cols()}, {}};
    for (ufx::index_t i = 0; i < x.rows(); ++i)
      for (ufx::index_t j = 0; j < x.cols(); ++j) r.values.push_back(static_cast<double>(x(i, j)));
    return r;
  } else {
    result_data r{T::rank, std::vector<ufx::index_t>(x.shape().begin(), x.shape().end()), {}};
    for (ufx::index_t i = 0; i < x.size(); ++i) r.values.push_back(static_cast<double>(x.data()[i]));
    return r;
  }
}

template <class X>
std::vector<result_data> flatten_all(const X& x) {
  if constexpr (requires { std::tuple_size<X>::value; })
    return std::apply([](const auto&... r) { return std::vector<result_data>{flatten(r)...}; }, x);
  else return {flatten(x)};
}

std::string shape_text(const std::vector<ufx::index_t>& s) {
  std::string t = "(";
  for (std::size_t k = 0; k < s.size(); ++k) {
    if (k) t += ',';
    t += std::to_string(s[k]);
  }
  return t + (s.size() == 1 ? ",)" : ")");
}

std::string number(double x) {
  std::ostringstream o;
  o.precision(17);
  o << x;
  return o.str();
}

/// Empty when `got` is NumPy's answer: same rank and shape, values equal (integers) or within
/// 1e-12 relative (float64).
std::string compare(const case_data& c, const std::vector<result_data>& got) {
  if (got.size() != c.out.size())
    return std::to_string(got.size()) + " outputs, NumPy has " + std::to_string(c.out.size());
  const bool exact = c.dtype == "i32";
  for (std::size_t j = 0; j < got.size(); ++j) {
    const auto& g = got[j];
    const auto& w = c.out[j];
    const std::string which = "output " + std::to_string(j) + ": ";
    if (g.static_rank != static_cast<int>(w.shape.size()))
      return which + "a result of static rank " + std::to_string(g.static_rank) + ", NumPy's has rank " +
             std::to_string(w.shape.size());
    if (g.shape != w.shape) return which + "shape " + shape_text(g.shape) + ", NumPy's is " + shape_text(w.shape);
    for (std::size_t i = 0; i < g.values.size(); ++i) {
      const double a = g.values[i], b = w.values[i];
      if (exact ? a != b : !(std::abs(a - b) <= 1e-12 * std::abs(b)))
        return which + "element " + std::to_string(i) + " (row-major) is " + number(a) + ", NumPy's is " + number(b);
    }
  }
  return "";
}

// ---- signatures: the static operand types this file instantiates --------------------------------

template <int... K>
struct sig {};
template <class... S>
struct sig_list {};
template <class... A, class... B>
sig_list<A..., B...> operator+(sig_list<A...>, sig_list<B...>) {
  return {};
}

// The generator's lists (gen_numpy_vectorize.py, SIGNATURES and EIGEN_SIGNATURES). One
// instantiation of the whole call per signature: keep the lists short.
namespace signatures {
constexpr int s = k_scalar, ecm = k_eigen_cm, ecb = k_eigen_cb, ect = k_eigen_ct, erm = k_eigen_rm, erb = k_eigen_rb,
              ert = k_eigen_rt;
constexpr int kinds6[] = {s, 0, 1, 2, 3, 4};
template <std::size_t... I>
auto all_pairs(std::index_sequence<I...>) -> sig_list<sig<kinds6[I / 6], kinds6[I % 6]>...>;
using pairs_all = decltype(all_pairs(std::make_index_sequence<36>{}));
using pairs_some =
    sig_list<sig<s, s>, sig<s, 0>, sig<0, s>, sig<0, 0>, sig<1, s>, sig<s, 2>, sig<1, 1>, sig<1, 2>, sig<2, 1>,
             sig<2, 2>, sig<1, 3>, sig<3, 2>, sig<3, 3>, sig<2, 4>, sig<4, 4>, sig<4, 0>, sig<s, 4>>;
using triples = sig_list<sig<s, s, s>, sig<0, 0, 0>, sig<s, 1, 1>, sig<1, s, 1>, sig<1, 1, s>, sig<0, s, 1>,
                         sig<1, 2, 3>, sig<3, 2, 1>, sig<2, 1, 3>, sig<2, 2, 2>, sig<1, s, 3>, sig<3, 0, 1>,
                         sig<4, 0, 4>, sig<s, 4, s>, sig<2, 2, 4>, sig<4, 1, 0>>;
using eigen_add_f64 =
    sig_list<sig<ecm, s>, sig<erm, s>, sig<ecb, s>, sig<erb, 0>, sig<ect, s>, sig<ert, s>, sig<ecb, ert>, sig<ert, ecb>,
             sig<erb, ecm>, sig<ect, ect>, sig<ecb, 1>, sig<1, ert>, sig<3, ecb>, sig<s, ect>>;
using eigen_add_i32 = sig_list<sig<ecb, erb>>;
using eigen_fms_f64 = sig_list<sig<ecb, ert, s>, sig<erb, 1, ecm>, sig<ect, s, 2>>;
using eigen_max_i32 = sig_list<sig<erb, ect>, sig<ecm, erb>>;
using eigen_divmod_i32 = sig_list<sig<ect, s>, sig<erb, ecb>>;
} // namespace signatures

/// Runs case `c` (whose signature is K...) with F over T on target `t`; empty when NumPy agrees.
template <class F, class T, int... K>
std::string run_case(sig<K...>, const case_data& c, ufx::target t) {
  const auto ops = [&]<std::size_t... I>(std::index_sequence<I...>) {
    return std::tuple<operand<T, K>...>(operand<T, K>(c.in[I])...);
  }
  (std::make_index_sequence<sizeof...(K)>{});
  const auto kernel = ufx::vectorize(F{});
  // One run-time ufx::target, not the static tag: a single instantiation per signature then
  // serves every target, which halves this file's compile time.
  const auto call = [&] { return std::apply([&](const auto&... o) { return kernel(t, o.get()...); }, ops); };
  if (!c.error.empty()) {
    const std::string want = "ufx::vectorize: " + c.error;
    try {
      call();
    } catch (const ufx::shape_error& e) {
      return e.what() == want ? "" : "error '" + std::string(e.what()) + "', expected '" + want + "'";
    } catch (const std::exception& e) {
      return "an exception that is not a shape_error: " + std::string(e.what());
    }
    return "no error, expected '" + want + "'";
  }
  try {
    return compare(c, flatten_all(call()));
  } catch (const std::exception& e) {
    return std::string("threw: ") + e.what();
  }
}

template <class F, class T, int... K>
bool try_sig(sig<K...> sg, const case_data& c, ufx::target t, std::string& problem) {
  if (c.in.size() != sizeof...(K)) return false;
  int j = 0;
  for (int k : {K...})
    if (c.in[static_cast<std::size_t>(j++)].kind != k) return false;
  problem = run_case<F, T>(sg, c, t);
  return true;
}

template <class F, class T, class... S>
std::string run_in(sig_list<S...>, const case_data& c, ufx::target t) {
  std::string problem;
  if (!(try_sig<F, T>(S{}, c, t, problem) || ...))
    problem = "signature " + c.signature() + " is not instantiated for " + c.func + " " + c.dtype +
              ": add it to the lists in test_numpy_vectorize.cpp";
  return problem;
}

/// Runs case `c` on `t`; empty when ufx agrees with NumPy.
std::string run(const case_data& c, ufx::target t) {
  using namespace signatures;
  const std::string f = c.func + " " + c.dtype;
  if (f == "add f64") return run_in<add_f, double>(pairs_all{} + eigen_add_f64{}, c, t);
  if (f == "add i32") return run_in<add_f, int>(pairs_all{} + eigen_add_i32{}, c, t);
  if (f == "max f64") return run_in<max_f, double>(pairs_some{}, c, t);
  if (f == "max i32") return run_in<max_f, int>(pairs_some{} + eigen_max_i32{}, c, t);
  if (f == "divmod i32") return run_in<divmod_f, int>(pairs_some{} + eigen_divmod_i32{}, c, t);
  if (f == "fms f64") return run_in<fms_f, double>(triples{} + eigen_fms_f64{}, c, t);
  if (f == "fms i32") return run_in<fms_f, int>(triples{}, c, t);
  return "unknown function '" + f + "'";
}

} // namespace

TEST_CASE("the NumPy case file parses and covers ranks 0-4, empty arrays, Eigen views and errors") {
  const case_file& file = cases();
  REQUIRE(file.cases.size() == file.declared);
  REQUIRE(file.cases.size() > 100);
  int errors = 0, three = 0, empty = 0, scalars = 0, rank0 = 0, eigen = 0, two_out = 0;
  bool result_rank[5] = {}, eigen_kind[6] = {};
  for (const auto& c : file.cases) {
    errors += !c.error.empty();
    three += c.in.size() == 3;
    two_out += c.out.size() == 2;
    for (const auto& o : c.out) {
      result_rank[o.shape.size()] = true;
      empty += o.values.empty();
    }
    for (const auto& o : c.in) {
      scalars += o.kind == k_scalar;
      rank0 += o.kind == 0;
      if (o.kind >= k_eigen_cm) {
        ++eigen;
        eigen_kind[o.kind - k_eigen_cm] = true;
      }
    }
  }
  MESSAGE("NumPy cross-check of ufx::vectorize: " << file.cases.size() << " cases (" << errors << " broadcast errors, "
                                                  << three << " with three operands, " << empty << " empty outputs, "
                                                  << eigen << " Eigen operands) on each target");
  CHECK(errors >= 10);
  CHECK(three >= 10);
  CHECK(two_out >= 10);
  CHECK(empty >= 5);
  CHECK(scalars >= 10);
  CHECK(rank0 >= 10);
  for (bool r : result_rank) CHECK(r);
  for (bool k : eigen_kind) CHECK(k);
}

TEST_CASE_TEMPLATE("vectorize gives NumPy's shapes, values and broadcast errors on every case", Target,
                   UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const case_file& file = cases();
  REQUIRE(!file.cases.empty());
  std::size_t ran = 0;
  for (const auto& c : file.cases) {
    const std::string problem = run(c, ufx::target(Target{}));
    ++ran;
    INFO(c.where(), " on ", Target::name());
    CHECK(problem == "");
  }
  CHECK(ran == file.declared);
}
