// Cross-check against NumPy: reductions (add, multiply, minimum, maximum), argmin / argmax,
// add.accumulate and the statistics (mean, var, std, ddof 0 and 1) over random shapes (rank 1-4, extent-0 and extent-1
// dimensions), random axes, keepdims, C- and Fortran-ordered storage, NaNs; the ready reductions' result
// types (np.sum, np.prod, np.cumsum, np.cumprod, np.min, np.max of every dtype) and their values on
// narrow integers whose results overflow the input type. The cases come from tests/gen_numpy_reduce.py.
#include "common.hpp"

#include <cstdint>
#include <fstream>
#include <memory>
#include <sstream>
#include <type_traits>

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

/// NumPy's result dtype of a function on an input dtype (`dtype FUNC IN OUT` lines).
struct dtype_rule {
  std::string func, in, out;
};

std::vector<dtype_rule> load_dtypes() {
  std::ifstream f(UFX_TEST_DATA_DIR "/numpy_reduce_cases.txt");
  std::vector<dtype_rule> rules;
  std::string line, word;
  while (std::getline(f, line)) {
    std::istringstream in(line);
    dtype_rule r;
    if (in >> word && word == "dtype" && in >> r.func >> r.in >> r.out) rules.push_back(r);
  }
  return rules;
}

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
    case 2: return ufx::ops::minimum{}(a, b);
    default: return ufx::ops::maximum{}(a, b);
    }
  }
};

constexpr int pad_rank = 4;

/// The case's input as a rank-4 view (leading extent-1 dimensions), C- or Fortran-ordered.
template <class T>
struct padded_input {
  std::unique_ptr<T[]> data; // not a std::vector: T may be bool
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
    data.reset(new T[c.values.size()]);
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
    view = ufx::ndview<const T, pad_rank>(data.get(), shape, strides);
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

/// The result against NumPy's: its shape where it is an array, its values (same()).
void compare(const reduce_case& c, const std::vector<double>& got, const std::vector<ufx::index_t>& got_shape) {
  REQUIRE(c.error.empty());
  if (!c.axes.empty() || c.op == "accumulate" || c.op == "cumsum" || c.op == "cumprod")
    CHECK(got_shape == c.result_shape);
  REQUIRE(got.size() == c.result.size());
  long bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) bad += !same(got[i], c.result[i], c.op);
  CHECK(bad == 0);
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
  compare(c, got, got_shape);
}

/// A case of NumPy's own reductions of a narrow integer type T (np.sum, np.prod, np.cumsum,
/// np.cumprod), through ufx's ready ones, whose results widen as NumPy's do: exact, so equal.
template <class Target, class T>
void run_widening_case(const reduce_case& c) {
  const padded_input<T> in(c);
  std::vector<double> got;
  std::vector<ufx::index_t> got_shape;
  auto take = [&](const auto& r, bool scan) {
    static_assert(sizeof(typename std::remove_cvref_t<decltype(r)>::value_type) == 8); // int64 or uint64
    got.assign(r.begin(), r.end());
    got_shape = numpy_shape(c, r, in.pad, scan);
  };
  const bool sum = c.op == "sum" || c.op == "cumsum";
  if (c.op == "cumsum" || c.op == "cumprod") {
    with_axes(c, in, [&](auto ax) {
      if constexpr (decltype(ax)::size() == 1) {
        if (sum) take(ufx::accumulate(Target{}, in.view, ufx::plus{}, ax), true);
        else take(ufx::accumulate(Target{}, in.view, ufx::multiplies{}, ax), true);
      }
    });
  } else if (c.axes.empty()) {
    const auto r = sum ? ufx::sum(Target{}, in.view) : ufx::prod(Target{}, in.view);
    static_assert(sizeof(r) == 8);
    got = {static_cast<double>(r)};
  } else {
    with_axes(c, in, [&](auto ax) {
      take(sum ? ufx::sum(Target{}, in.view, ax, ufx::keepdims) : ufx::prod(Target{}, in.view, ax, ufx::keepdims),
           false);
    });
  }
  compare(c, got, got_shape);
}

/// NumPy's name of a C++ arithmetic type.
template <class T>
std::string numpy_name() {
  if constexpr (std::is_same_v<T, bool>) return "bool";
  else if constexpr (std::is_floating_point_v<T>) return "float" + std::to_string(8 * sizeof(T));
  else return (std::is_signed_v<T> ? "int" : "uint") + std::to_string(8 * sizeof(T));
}

/// fn(std::type_identity<T>{}) for the C++ type of a NumPy dtype, by its name or its code (b1, i1,
/// u1, ...); nothing for another name.
template <class Fn>
void with_dtype(const std::string& name, Fn&& fn) {
  if (name == "bool" || name == "b1") fn(std::type_identity<bool>{});
  else if (name == "int8" || name == "i1") fn(std::type_identity<std::int8_t>{});
  else if (name == "uint8" || name == "u1") fn(std::type_identity<std::uint8_t>{});
  else if (name == "int16" || name == "i2") fn(std::type_identity<std::int16_t>{});
  else if (name == "uint16" || name == "u2") fn(std::type_identity<std::uint16_t>{});
  else if (name == "int32" || name == "i4") fn(std::type_identity<std::int32_t>{});
  else if (name == "uint32" || name == "u4") fn(std::type_identity<std::uint32_t>{});
  else if (name == "int64" || name == "i8") fn(std::type_identity<std::int64_t>{});
  else if (name == "uint64" || name == "u8") fn(std::type_identity<std::uint64_t>{});
  else if (name == "float32" || name == "f4") fn(std::type_identity<float>{});
  else if (name == "float64" || name == "f8") fn(std::type_identity<double>{});
}

/// The NumPy name of the type ufx's ready reduction `func` gives for a ufx::ndarray<T, 1> (its types
/// only: nothing runs).
template <class T>
std::string ufx_result_dtype(const std::string& func) {
  using V = const ufx::ndarray<T, 1>&;
  if (func == "sum") return numpy_name<std::remove_cvref_t<decltype(ufx::sum(std::declval<V>()))>>();
  if (func == "prod") return numpy_name<std::remove_cvref_t<decltype(ufx::prod(std::declval<V>()))>>();
  if (func == "min") return numpy_name<std::remove_cvref_t<decltype(ufx::min(std::declval<V>()))>>();
  if (func == "max") return numpy_name<std::remove_cvref_t<decltype(ufx::max(std::declval<V>()))>>();
  using cumsum = decltype(ufx::accumulate(std::declval<V>(), ufx::plus{}));
  using cumprod = decltype(ufx::accumulate(std::declval<V>(), ufx::multiplies{}));
  if (func == "cumsum") return numpy_name<typename cumsum::value_type>();
  if (func == "cumprod") return numpy_name<typename cumprod::value_type>();
  return "unknown function " + func;
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
    else if (c.dtype == "f8") run_case<Target, double>(c);
    else
      with_dtype(c.dtype, [&](auto t) {
        using T = typename decltype(t)::type;
        if constexpr (std::is_integral_v<T> && sizeof(T) < 8) run_widening_case<Target, T>(c);
      });
  }
}

TEST_CASE("the ready reductions give NumPy's result dtypes: integers below 64 bits sum and multiply in 64") {
  const auto rules = load_dtypes();
  REQUIRE(rules.size() == 66); // 6 functions x 11 dtypes
  for (const auto& r : rules) {
    CAPTURE(r.func);
    CAPTURE(r.in);
    bool known = false;
    with_dtype(r.in, [&](auto t) {
      known = true;
      CHECK(ufx_result_dtype<typename decltype(t)::type>(r.func) == r.out);
    });
    CHECK(known);
  }
}
