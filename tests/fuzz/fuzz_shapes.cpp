// Seeded property test of ufx's shape steps against NumPy (issue #8, "Checks"): the broadcaster,
// the gufunc shape binder, the axis normaliser and the gufunc signature parser (run at run time).
// tests/fuzz/numpy_oracle.py generates the cases and NumPy's answer to each; this program starts
// it, reads its lines through a pipe and checks ufx's answer to every case: the same result, or an
// error on both sides (messages are not compared). Any disagreement fails the run and is printed
// with the case.
//
//   fuzz_shapes broadcast|gufunc|axes|signature [--seed S] [--count N] [--python P] [--oracle F]
//               [--show K]   (K: how many disagreements to print, default 10)
//
// The seed and count default to 1 and 1000000 (what CTest runs); UFX_FUZZ_SEED and UFX_FUZZ_COUNT
// in the environment change the defaults, arguments override both.
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <ufx/detail/core/broadcast.hpp>
#include <ufx/detail/step/gufunc_shape.hpp>
#include <ufx/detail/core/reduce_plan.hpp>
#include <ufx/detail/core/signature.hpp>
#include <ufx/errors.hpp>

#ifndef UFX_FUZZ_PYTHON
#  define UFX_FUZZ_PYTHON "/usr/bin/python3"
#endif
#ifndef UFX_FUZZ_ORACLE
#  define UFX_FUZZ_ORACLE "numpy_oracle.py"
#endif

// ---------------------------------------------------------------------------------------------
// The adapter: every call into ufx is here. When the detail functions change (headers moved, the
// `who` argument dropped), this block is the only place to follow.
namespace adapter {
using ufx::index_t;
using ufx::detail::dims;
inline constexpr int max_rank = ufx::max_rank;
using shape_error = ufx::shape_error; // what ufx throws for a shape NumPy rejects

inline dims broadcast(std::span<const dims> shapes) { return ufx::detail::broadcast(shapes); }

/// The loop shape and the size of each signature dimension (signature numbering).
struct bound {
  dims loop;
  std::vector<index_t> sizes;
};
template <class Sig>
bound bind_gufunc(std::span<const dims> shapes, bool with_outputs) {
  const ufx::detail::gufunc_shape g = ufx::detail::bind_gufunc_shape<Sig>(shapes, with_outputs);
  return {g.loop, std::vector<index_t>(g.dim_size, g.dim_size + Sig::ndims)};
}

inline unsigned reduced_mask(const int* axes, int n, int rank) { return ufx::detail::reduced_mask(axes, n, rank); }

/// The signature parser run at run time (guvectorize runs the same constexpr function at compile
/// time): an empty optional for a malformed signature.
using parsed_signature = ufx::detail::parsed_signature;
inline std::optional<parsed_signature> parse_signature(const std::string& text) {
  const parsed_signature p = ufx::detail::parse_signature(text.data(), static_cast<int>(text.size()));
  if (p.error != ufx::detail::sig_error::none) return std::nullopt;
  return p;
}

template <ufx::detail::fixed_string S>
using signature = ufx::detail::signature_of<S>;
} // namespace adapter
// ---------------------------------------------------------------------------------------------

namespace {

using adapter::dims;
using adapter::index_t;

// The gufunc signatures under test. numpy_oracle.py checks its model of NumPy's rules against a
// real NumPy gufunc where one has the same signature (see its docstring).
using signatures = std::tuple<adapter::signature<"(m,n),(n,p)->(m,p)">,                       // matrix_multiply
                              adapter::signature<"(i),(i)->()">,                              // inner1d
                              adapter::signature<"(i),(i),(i)->()">,                          // innerwt
                              adapter::signature<"(3),(3)->(3)">,                             // cross1d
                              adapter::signature<"(i)->(i)">,                                 // cumsum
                              adapter::signature<"(n)->()">,                                  // model only
                              adapter::signature<"(m,m)->()">,                                // linalg det
                              adapter::signature<"(m,m)->(),()">,                             // linalg slogdet
                              adapter::signature<"(m,m),(m,n)->(m,n)">,                       // linalg solve
                              adapter::signature<"(n,d)->(p)">,                               // euclidean_pdist
                              adapter::signature<"(m,n)->(n,m)">,                             // model only
                              adapter::signature<"()->()">,                                   // np.negative
                              adapter::signature<"(),()->()">,                                // np.add
                              adapter::signature<"(n),()->(n)">,                              // model only
                              adapter::signature<"(i),()->()">,                               // always_error_gufunc
                              adapter::signature<"(n,3),(3)->(n)">,                           // model only
                              adapter::signature<"(m,n),(m,nrhs),()->(n,nrhs),(nrhs),(),(m)"> // linalg lstsq_m
                              >;
constexpr int nsigs = std::tuple_size_v<signatures>;

struct sig_info {
  std::string text;
  int nin, operands, ndims;
  std::vector<int> ranks, dim_ix;
  std::vector<long long> fixed;
  adapter::bound (*bind)(std::span<const dims>, bool);
};

template <class Sig>
sig_info info_of() {
  sig_info s{std::string(Sig::str()), Sig::nin, Sig::operands, Sig::ndims, {}, {}, {}, &adapter::bind_gufunc<Sig>};
  for (int k = 0; k < Sig::operands; ++k) {
    s.ranks.push_back(Sig::core_rank(k));
    for (int j = 0; j < Sig::core_rank(k); ++j) s.dim_ix.push_back(Sig::dim(k, j));
  }
  for (int d = 0; d < Sig::ndims; ++d) s.fixed.push_back(Sig::parsed.fixed[d]);
  return s;
}

template <std::size_t... I>
std::vector<sig_info> all_sigs(std::index_sequence<I...>) {
  return {info_of<std::tuple_element_t<I, signatures>>()...};
}

// ---------------------------------------------------------------------------------------------

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// One line of the oracle split into integers before and after the '|'.
struct line_reader {
  std::vector<long long> in, answer;
  bool has_bar = false;
  /// False when something other than integers and one '|' is on the line.
  bool parse(const char* p) {
    in.clear();
    answer.clear();
    bool& after = has_bar;
    after = false;
    while (true) {
      while (*p == ' ' || *p == '\t') ++p;
      if (*p == '\0' || *p == '\n') return true;
      if (*p == '|') {
        if (after) return false;
        after = true;
        ++p;
        continue;
      }
      char* end = nullptr;
      errno = 0;
      const long long v = std::strtoll(p, &end, 10);
      if (end == p || errno) return false;
      (after ? answer : in).push_back(v);
      p = end;
    }
  }
};

/// Reads a shape "rank e..." at `pos`; false when malformed or too long for dims.
bool read_shape(const std::vector<long long>& v, std::size_t& pos, dims& d) {
  if (pos >= v.size()) return false;
  const long long r = v[pos++];
  if (r < 0 || r > adapter::max_rank || pos + static_cast<std::size_t>(r) > v.size()) return false;
  d.rank = static_cast<int>(r);
  for (int k = 0; k < d.rank; ++k) d[k] = static_cast<index_t>(v[pos++]);
  return true;
}

std::string shape_str(const dims& d) { return ufx::detail::format_shape(d); }

struct outcome {
  bool ok = false;    // a result (else an error)
  bool other = false; // an exception other than shape_error: never right
  std::string text;   // the result, or the error's message
};

struct runner {
  std::string component;
  long long seed = 1, count = 1000000;
  std::string python = UFX_FUZZ_PYTHON, oracle = UFX_FUZZ_ORACLE;
  int show = 10;

  std::vector<sig_info> sigs = all_sigs(std::make_index_sequence<nsigs>{});
  long long cases = 0, failures = 0, both_ok = 0, both_error = 0;
  bool saw_end = false, oracle_failed = false;

  void fail(const char* line, const std::string& what) {
    ++failures;
    if (failures <= show) std::printf("DISAGREE: %s\n  case: %s", what.c_str(), line);
  }

  template <class Fn>
  outcome attempt(Fn&& fn) {
    try {
      return {true, false, fn()};
    } catch (const adapter::shape_error& e) {
      return {false, false, e.what()};
    } catch (const std::exception& e) {
      return {false, true, e.what()};
    }
  }

  /// Compares ufx's outcome with NumPy's (`want_ok`, and `want` when a result).
  void judge(const char* line, const outcome& got, bool want_ok, const std::string& want) {
    ++cases;
    if (got.other) {
      fail(line, "ufx throws an exception other than shape_error: " + got.text);
    } else if (got.ok != want_ok) {
      fail(line, want_ok ? "NumPy gives " + want + ", ufx throws: " + got.text : "NumPy raises, ufx gives " + got.text);
    } else if (got.ok && got.text != want) {
      fail(line, "NumPy gives " + want + ", ufx gives " + got.text);
    } else {
      ++(got.ok ? both_ok : both_error);
    }
  }

  void broadcast_case(const char* line, const line_reader& r) {
    std::size_t pos = 0;
    if (r.in.empty()) return malformed(line);
    const long long n = r.in[pos++];
    if (n < 0 || n > 64) return malformed(line);
    std::vector<dims> shapes(static_cast<std::size_t>(n));
    for (dims& d : shapes)
      if (!read_shape(r.in, pos, d)) return malformed(line);
    if (pos != r.in.size()) return malformed(line);
    std::size_t apos = 0;
    dims want;
    const bool want_ok = r.answer.size() != 1 || r.answer[0] != -1;
    if (want_ok && (!read_shape(r.answer, apos, want) || apos != r.answer.size())) return malformed(line);
    judge(line, attempt([&] { return shape_str(adapter::broadcast(shapes)); }), want_ok, shape_str(want));
  }

  void axes_case(const char* line, const line_reader& r) {
    if (r.in.size() < 2 || r.answer.size() != 1) return malformed(line);
    const long long rank = r.in[0], n = r.in[1];
    if (rank < 0 || rank > adapter::max_rank || n < 0 || static_cast<std::size_t>(n) + 2 != r.in.size())
      return malformed(line);
    std::vector<int> axes;
    for (long long k = 0; k < n; ++k) axes.push_back(static_cast<int>(r.in[2 + k]));
    const bool want_ok = r.answer[0] != -1;
    judge(line, attempt([&] {
            return std::to_string(adapter::reduced_mask(axes.data(), static_cast<int>(n), static_cast<int>(rank)));
          }),
          want_ok, std::to_string(r.answer[0]));
  }

  void gufunc_case(const char* line, const line_reader& r) {
    if (r.in.size() < 3) return malformed(line);
    const long long k = r.in[0], with_out = r.in[1], n = r.in[2];
    if (k < 0 || k >= nsigs) return malformed(line);
    const sig_info& s = sigs[static_cast<std::size_t>(k)];
    if (n != (with_out ? s.operands : s.nin)) return malformed(line);
    std::size_t pos = 3;
    std::vector<dims> shapes(static_cast<std::size_t>(n));
    for (dims& d : shapes)
      if (!read_shape(r.in, pos, d)) return malformed(line);
    if (pos != r.in.size()) return malformed(line);
    const bool want_ok = r.answer.size() != 1 || r.answer[0] != -1;
    std::string want;
    if (want_ok) {
      std::size_t apos = 0;
      dims loop;
      if (!read_shape(r.answer, apos, loop) || apos >= r.answer.size()) return malformed(line);
      const long long nd = r.answer[apos++];
      if (apos + static_cast<std::size_t>(nd) != r.answer.size()) return malformed(line);
      want = shape_str(loop) + " sizes";
      for (long long d = 0; d < nd; ++d) want += " " + std::to_string(r.answer[apos + d]);
      // an all-scalar signature binds no dimension: NumPy's side says so with nd = 0
    }
    judge(line, attempt([&] {
            const adapter::bound b = s.bind(shapes, with_out != 0);
            std::string t = shape_str(b.loop) + " sizes";
            for (index_t v : b.sizes) t += " " + std::to_string(v);
            return t;
          }),
          want_ok, want);
  }

  /// "HEX | NIN NOUT RANK... IX... NDIMS FIXED..." or "HEX | -1": a signature's text in hex and
  /// NumPy's parse of it (as ufx must give it: numpy_oracle.py turns the deliberate differences
  /// into ufx's answers).
  void signature_case(const char* line) {
    const char* bar = std::strchr(line, '|');
    if (!bar) return malformed(line);
    std::string text;
    const char* p = line;
    for (; p + 1 < bar && p[0] != ' '; p += 2) {
      auto nib = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
      text += static_cast<char>(nib(p[0]) * 16 + nib(p[1]));
    }
    line_reader r;
    if (*p != ' ' || !r.parse(bar + 1) || r.has_bar || r.in.empty()) return malformed(line);
    const bool want_ok = r.in.size() != 1 || r.in[0] != -1;
    std::string want;
    for (long long v : r.in) want.append(" ").append(std::to_string(v));
    judge(line, attempt([&]() -> std::string {
            const std::optional<adapter::parsed_signature> q = adapter::parse_signature(text);
            if (!q) throw adapter::shape_error("malformed"); // judged as an error, like NumPy's ValueError
            std::string t;
            auto put = [&t](long long v) { t.append(" ").append(std::to_string(v)); };
            put(q->nin);
            put(q->nout);
            for (int k = 0; k < q->operands(); ++k) put(q->rank[k]);
            for (int k = 0; k < q->operands(); ++k)
              for (int j = 0; j < q->rank[k]; ++j) put(q->dim[k][j]);
            put(q->ndims);
            for (int d = 0; d < q->ndims; ++d) put(q->fixed[d]);
            return t;
          }),
          want_ok, want);
  }

  /// "sig K CORE_ENABLED NDIMS NOPS RANK... IX... FIXED...": NumPy's parse of signature K must be
  /// ufx's (the same dimension numbering, so the bound sizes compare index by index).
  void sig_header(const char* line) {
    line_reader r;
    if (!r.parse(line + 3) || r.has_bar || r.in.size() < 4) return malformed(line);
    const long long k = r.in[0];
    if (k < 0 || k >= nsigs) return malformed(line);
    const sig_info& s = sigs[static_cast<std::size_t>(k)];
    std::vector<long long> mine{k, s.ndims > 0 ? 1 : 0, s.ndims, s.operands};
    for (int v : s.ranks) mine.push_back(v);
    for (int v : s.dim_ix) mine.push_back(v);
    for (long long v : s.fixed) mine.push_back(v);
    if (mine != r.in) {
      ++failures;
      std::printf("DISAGREE: ufx parses signature %s unlike NumPy's test_signature\n  numpy: %s", s.text.c_str(), line);
    }
  }

  void malformed(const char* line) {
    ++failures;
    oracle_failed = true;
    if (failures <= show) std::printf("MALFORMED oracle line: %s", line);
  }

  void end_line(const char* line) {
    std::printf("oracle: %s", line);
    saw_end = true;
    long long n = -1;
    std::sscanf(line, "end %lld", &n);
    if (n != cases) {
      std::printf("the oracle announced %lld cases, %lld were checked\n", n, cases);
      oracle_failed = true;
    }
    const char* m = std::strstr(line, "model_mismatch=");
    if (m && std::atoll(m + std::strlen("model_mismatch=")) != 0) {
      std::printf("numpy_oracle.py's gufunc model disagrees with real NumPy gufuncs (see its stderr)\n");
      oracle_failed = true;
    }
  }

  int run() {
    std::string cmd = quote(python) + " " + quote(oracle) + " " + component + " --seed " + std::to_string(seed) +
                      " --count " + std::to_string(count) + " --max-rank " + std::to_string(adapter::max_rank);
    if (component == "gufunc")
      for (const sig_info& s : sigs) cmd += " --sig " + quote(s.text);
    std::printf("running: %s\n", cmd.c_str());
    std::fflush(stdout);
    const auto t0 = std::chrono::steady_clock::now();
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) {
      std::perror("popen");
      return 2;
    }
    std::vector<char> buf(1 << 16);
    line_reader r;
    while (std::fgets(buf.data(), static_cast<int>(buf.size()), p)) {
      const char* line = buf.data();
      if (line[0] == '#') continue;
      if (std::strncmp(line, "end ", 4) == 0) {
        end_line(line);
        continue;
      }
      if (std::strncmp(line, "sig ", 4) == 0) {
        sig_header(line);
        continue;
      }
      if (component == "signature") {
        signature_case(line);
        continue;
      }
      if (!r.parse(line) || !r.has_bar) {
        malformed(line);
        continue;
      }
      if (component == "broadcast") broadcast_case(line, r);
      else if (component == "axes") axes_case(line, r);
      else gufunc_case(line, r);
    }
    const int status = pclose(p);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%s: %lld cases in %.1f s (seed %lld): %lld results and %lld errors agree, %lld disagree\n",
                component.c_str(), cases, secs, seed, both_ok, both_error, failures);
    if (status != 0) std::printf("the oracle exited with status %d\n", status);
    if (!saw_end) std::printf("the oracle's output ended early\n");
    return failures || oracle_failed || status != 0 || !saw_end ? 1 : 0;
  }
};

long long env_or(const char* name, long long fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atoll(v) : fallback;
}

} // namespace

int main(int argc, char** argv) {
  runner run;
  run.seed = env_or("UFX_FUZZ_SEED", 1);
  run.count = env_or("UFX_FUZZ_COUNT", 1000000);
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--seed" && has_value) run.seed = std::atoll(argv[++i]);
    else if (a == "--count" && has_value) run.count = std::atoll(argv[++i]);
    else if (a == "--python" && has_value) run.python = argv[++i];
    else if (a == "--oracle" && has_value) run.oracle = argv[++i];
    else if (a == "--show" && has_value) run.show = std::atoi(argv[++i]);
    else if (run.component.empty() && (a == "broadcast" || a == "gufunc" || a == "axes" || a == "signature"))
      run.component = a;
    else {
      std::fprintf(
          stderr,
          "usage: %s broadcast|gufunc|axes|signature [--seed S] [--count N] [--python P] [--oracle F] [--show K]\n",
          argv[0]);
      return 2;
    }
  }
  if (run.component.empty()) {
    std::fprintf(stderr, "%s: name a component: broadcast, gufunc, axes or signature\n", argv[0]);
    return 2;
  }
  return run.run();
}
