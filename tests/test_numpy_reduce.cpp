// Cross-check against NumPy: reductions (add, multiply, minimum, maximum), argmin / argmax,
// add.accumulate and the statistics (mean, var, std, ddof 0 and 1) over random shapes (rank 1-4, extent-0 and extent-1
// dimensions), random axes, keepdims, C- and Fortran-ordered storage, NaNs. The cases come from
// tests/gen_numpy_reduce.py.
#include "common.hpp"

#include <fstream>
#include <sstream>

#include <ufx/reduce.hpp>
#include <ufx/reducers.hpp>

namespace {

struct reduce_case {
  std::string op, dtype, order;
  std::vector<ufx::index_t> shape;
  std::vector<int> axes; // empty: the whole array
  bool keep = false;
  std::vector<double> values;
  std::string error; // "value" or "shape" when NumPy raised
  std::vector<ufx::index_t> result_shape;
  std::vector<double> result;
};

double parse(const std::string& s) { return std::strtod(s.c_str(), nullptr); }

std::vector<reduce_case> load() {
  std::ifstream f(UFX_TEST_DATA_DIR "/numpy_reduce_cases.txt");
  std::vector<reduce_case> cases;
  std::string line, word;
  while (std::getline(f, line)) {
    std::istringstream in(line);
    if (!(in >> word)) continue;
    if (word == "case") {
      reduce_case c;
      int rank = 0, naxes = 0, keep = 0;
      in >> c.op >> c.dtype >> c.order >> rank;
      c.shape.resize(static_cast<std::size_t>(rank));
      for (auto& e : c.shape) in >> e;
      in >> naxes;
      c.axes.resize(static_cast<std::size_t>(naxes));
      for (auto& a : c.axes) in >> a;
      in >> keep;
      c.keep = keep != 0;
      cases.push_back(c);
    } else if (word == "values" || word == "result") {
      reduce_case& c = cases.back();
      if (word == "result") {
        int rank = 0;
        in >> rank;
        c.result_shape.resize(static_cast<std::size_t>(rank));
        for (auto& e : c.result_shape) in >> e;
      }
      std::size_t n = 0;
      in >> n;
      auto& v = word == "values" ? c.values : c.result;
      for (std::size_t i = 0; i < n && in >> word; ++i) v.push_back(parse(word));
    } else if (word == "error") {
      in >> cases.back().error;
    }
  }
  return cases;
}

/// add, multiply, minimum or maximum chosen at run time (one instantiation serves them all).
template <class T>
struct any_op {
  int which;
  UFX_HD T operator()(const T& a, const T& b) const {
    switch (which) {
    case 0: return ufx::plus{}(a, b);
    case 1: return ufx::multiplies{}(a, b);
    case 2: return ufx::minimum{}(a, b);
    default: return ufx::maximum{}(a, b);
    }
  }
};

constexpr int pad_rank = 4;

/// The case's input as a rank-4 view (leading extent-1 dimensions), C- or Fortran-ordered.
template <class T>
struct padded_input {
  std::vector<T> data;
  ufx::ndview<const T, pad_rank> view;
  int pad = 0;

  explicit padded_input(const reduce_case& c) {
    const int rank = static_cast<int>(c.shape.size());
    pad = pad_rank - rank;
    std::array<ufx::index_t, pad_rank> shape{}, strides{};
    shape.fill(1);
    for (int d = 0; d < rank; ++d) shape[static_cast<std::size_t>(pad + d)] = c.shape[static_cast<std::size_t>(d)];
    ufx::index_t s = 1;
    for (int k = 0; k < rank; ++k) { // strides of the logical dims in storage order
      const int d = c.order == "f" ? k : rank - 1 - k;
      strides[static_cast<std::size_t>(pad + d)] = s;
      s *= c.shape[static_cast<std::size_t>(d)];
    }
    data.resize(c.values.size());
    std::vector<ufx::index_t> idx(static_cast<std::size_t>(rank), 0);
    for (std::size_t i = 0; i < c.values.size(); ++i) { // values come in C order of the logical array
      ufx::index_t off = 0, rest = static_cast<ufx::index_t>(i);
      for (int d = rank - 1; d >= 0; --d) {
        const ufx::index_t e = c.shape[static_cast<std::size_t>(d)];
        off += (rest % e) * strides[static_cast<std::size_t>(pad + d)];
        rest /= e;
      }
      data[static_cast<std::size_t>(off)] = static_cast<T>(c.values[i]);
    }
    view = ufx::ndview<const T, pad_rank>(data.data(), shape, strides);
  }

  int axis(const reduce_case& c, std::size_t i) const {
    const int rank = static_cast<int>(c.shape.size());
    const int a = c.axes[i];
    return (a < 0 ? a + rank : a) + pad;
  }
};

/// Calls fn(ufx::axis{...}) with the case's axes, shifted past the padding.
template <class T, class Fn>
void with_axes(const reduce_case& c, const padded_input<T>& in, Fn&& fn) {
  int a[pad_rank] = {};
  for (std::size_t i = 0; i < c.axes.size(); ++i) a[i] = in.axis(c, i);
  switch (c.axes.size()) {
  case 1: return fn(ufx::axis{a[0]});
  case 2: return fn(ufx::axis{a[0], a[1]});
  case 3: return fn(ufx::axis{a[0], a[1], a[2]});
  default: return fn(ufx::axis{a[0], a[1], a[2], a[3]});
  }
}

bool same(double got, double want, const std::string& op) {
  if (std::isnan(want)) return std::isnan(got);
  if (op == "add" || op == "multiply" || op == "accumulate")
    return std::abs(got - want) <= 1e-12 * (1 + std::abs(want)) * 64;
  if (std::isinf(want)) return got == want;
  // the statistics: one pass (Chan's update) against NumPy's two; data at an offset of 1e6 carry
  // 1e-10 of absolute rounding into each deviation, so the variance's bound is absolute there
  if (op == "mean") return std::abs(got - want) <= 1e-13 * (1 + std::abs(want));
  if (op == "var" || op == "var1") return std::abs(got - want) <= 1e-9 * (1 + std::abs(want));
  if (op == "std" || op == "std1") return std::abs(got - want) <= 1e-9 * (1 + std::abs(want));
  return got == want;
}

/// The result's shape as NumPy reports it, from our keepdims shape (padding dropped).
template <class A>
std::vector<ufx::index_t> numpy_shape(const reduce_case& c, const A& r, int pad, bool scan) {
  std::vector<ufx::index_t> s;
  for (int d = pad; d < pad_rank; ++d) {
    bool reduced = false;
    for (int a : c.axes) reduced = reduced || (a < 0 ? a + static_cast<int>(c.shape.size()) : a) + pad == d;
    if (scan || c.keep || !reduced) s.push_back(r.extent(d));
  }
  return s;
}

template <class Target, class T>
void run_case(const reduce_case& c) {
  const padded_input<T> in(c);
  std::vector<double> got;
  std::vector<ufx::index_t> got_shape;
  auto take = [&](const auto& r, bool scan) {
    got.assign(r.begin(), r.end());
    got_shape = numpy_shape(c, r, in.pad, scan);
  };
  const int which = c.op == "add" ? 0 : c.op == "multiply" ? 1 : c.op == "minimum" ? 2 : 3;
  const bool has_identity = which < 2;
  auto with_identity = ufx::reducer(any_op<T>{which}, static_cast<T>(which == 1 ? 1 : 0));
  auto no_identity = ufx::reducer(any_op<T>{which});
  try {
    if (c.op == "mean" || c.op == "var" || c.op == "std" || c.op == "var1" || c.op == "std1") {
      const ufx::ddof dd{c.op.back() == '1' ? 1 : 0};
      auto stat = [&](const auto&... opt) {
        if (c.op == "mean") return ufx::mean(Target{}, in.view, opt...);
        if (c.op[0] == 'v') return ufx::var(Target{}, in.view, opt..., dd);
        return ufx::std(Target{}, in.view, opt..., dd);
      };
      if (c.axes.empty()) got = {static_cast<double>(stat())};
      else with_axes(c, in, [&](auto ax) { take(stat(ax, ufx::keepdims), false); });
    } else if (c.op == "accumulate") {
      with_axes(c, in, [&](auto ax) {
        if constexpr (decltype(ax)::size() == 1) take(ufx::accumulate(Target{}, in.view, ufx::plus{}, ax), true);
      });
    } else if (c.op == "argmin" || c.op == "argmax") {
      if constexpr (std::is_floating_point_v<T>) {
        const bool mx = c.op == "argmax";
        if (c.axes.empty())
          got = {static_cast<double>(mx ? ufx::argmax(Target{}, in.view) : ufx::argmin(Target{}, in.view))};
        else
          with_axes(c, in, [&](auto ax) {
            if constexpr (decltype(ax)::size() == 1)
              take(mx ? ufx::argmax(Target{}, in.view, ax, ufx::keepdims)
                      : ufx::argmin(Target{}, in.view, ax, ufx::keepdims),
                   false);
          });
      }
    } else if (c.axes.empty()) {
      got = {static_cast<double>(has_identity ? with_identity(Target{}, in.view) : no_identity(Target{}, in.view))};
    } else {
      with_axes(c, in, [&](auto ax) {
        take(has_identity ? with_identity(Target{}, in.view, ax, ufx::keepdims)
                          : no_identity(Target{}, in.view, ax, ufx::keepdims),
             false);
      });
    }
  } catch (const ufx::value_error&) {
    CHECK(c.error == "value");
    return;
  } catch (const ufx::shape_error&) {
    CHECK(c.error == "shape");
    return;
  }
  REQUIRE(c.error.empty());
  if (!c.axes.empty() || c.op == "accumulate") CHECK(got_shape == c.result_shape);
  REQUIRE(got.size() == c.result.size());
  long bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) bad += !same(got[i], c.result[i], c.op);
  CHECK(bad == 0);
}

} // namespace

TEST_CASE_TEMPLATE("reductions, argmin/argmax and accumulate agree with NumPy", Target, UFX_TEST_TARGETS) {
  if (!ufx_test::runnable<Target>()) return;
  const auto cases = load();
  REQUIRE(cases.size() >= 200);
  int n = 0;
  for (const auto& c : cases) {
    CAPTURE(n);
    CAPTURE(c.op);
    CAPTURE(c.dtype);
    ++n;
    if (c.dtype == "i8") run_case<Target, long long>(c);
    else run_case<Target, double>(c);
  }
}
