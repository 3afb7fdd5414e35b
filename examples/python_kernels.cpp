// ufx kernels called from Python: a module (built with pybind11) whose ufuncs are real numpy.ufunc objects over
// ufx::vectorize and ufx::guvectorize kernels, and whose functions take NumPy arrays (or CuPy's, PyTorch's: anything
// with __dlpack__) into ufx calls without a copy, and hand ufx's arrays back to NumPy without one.
// python_kernels.py uses it; tests/python/test_python.py checks it against NumPy.
#include <ufx/python.hpp>
#include <ufx/ufx.hpp>

#include <cmath>
#include <complex>
#include <cstdint>
#include <stdexcept>
#include <tuple>

namespace py = pybind11;

namespace {

// (m,n),(n,p)->(m,p): the core function of a matrix product, any element type
struct matmul_core {
  template <class T>
  void operator()(ufx::ndview<const T, 2> a, ufx::ndview<const T, 2> b, ufx::ndview<T, 2> c) const {
    for (ufx::index_t i = 0; i < c.extent(0); ++i)
      for (ufx::index_t j = 0; j < c.extent(1); ++j) {
        T s = 0;
        for (ufx::index_t k = 0; k < a.extent(1); ++k) s += a(i, k) * b(k, j);
        c(i, j) = s;
      }
  }
};

// tensors handed to Python, and how many of them their consumer has freed (each exactly once)
int frees = 0;
const void* made_data = nullptr; // the data of the last tensor handed over
void (*ufx_deleter)(DLManagedTensor*) = nullptr;
void counted_deleter(DLManagedTensor* m) {
  ++frees;
  ufx_deleter(m);
}
template <class A>
py::object handed(A&& a) {
  DLManagedTensor* t = ufx::to_dlpack(std::move(a));
  made_data = t->dl_tensor.data;
  ufx_deleter = t->deleter;
  t->deleter = &counted_deleter;
  return ufx::python::to_dlpack(t);
}

// x + x of a rank-1 array of T through DLPack, as a new array handed back
template <class T>
py::object doubled(py::object x) {
  const auto in = ufx::python::from_dlpack<ufx::ndview<const T, 1>>(x);
  ufx::ndarray<T, 1> r = ufx::vectorize([](T v) { return v + v; })(ufx::host, in.view());
  return handed(std::move(r));
}

} // namespace

PYBIND11_MODULE(ufx_kernels, m) {
  m.doc() = "ufx kernels as NumPy ufuncs (examples/python_kernels.cpp)";

  // a generic function: its loops are named, integers first and then narrowest first, as NumPy's own (NumPy takes
  // the first loop its inputs cast to safely, and int8 casts to float16 safely)
  const auto add = ufx::vectorize([](auto a, auto b) { return a + b; }).identity(0);
  m.attr("add") =
      ufx::python::ufunc<std::int32_t(std::int32_t, std::int32_t), std::int64_t(std::int64_t, std::int64_t),
                         ufx::float16(ufx::float16, ufx::float16), float(float, float), double(double, double),
                         std::complex<double>(std::complex<double>, std::complex<double>)>(add, "add",
                                                                                           "a + b, as np.add");
  // a typed function: its own types make the one loop
  m.attr("hypot") = ufx::python::ufunc(ufx::vectorize([](double x, double y) { return std::hypot(x, y); }), "hypot");
  // three inputs
  m.attr("clip") = ufx::python::ufunc(
      ufx::vectorize([](double x, double lo, double hi) { return x < lo ? lo : (x > hi ? hi : x); }), "clip");
  // two outputs
  m.attr("divmod") = ufx::python::ufunc(ufx::vectorize([](double a, double b) {
                                          const double q = std::floor(a / b);
                                          return std::tuple<double, double>(q, a - q * b);
                                        }),
                                        "divmod");
  // ufx's own ufuncs are kernels too
  m.attr("maximum") = ufx::python::ufunc<float(float, float), double(double, double)>(ufx::maximum, "maximum");
  // a loop that throws: NumPy raises the exception as a RuntimeError naming the ufunc
  m.attr("sqrt_checked") = ufx::python::ufunc(ufx::vectorize([](double x) {
                                                if (x < 0) throw std::domain_error("sqrt_checked of a negative number");
                                                return std::sqrt(x);
                                              }),
                                              "sqrt_checked");

  // on ufx::serial: in the calling thread, so NumPy sees its floating-point flags (np.errstate)
  m.attr("reciprocal") = ufx::python::ufunc(ufx::serial, ufx::vectorize([](double x) { return 1 / x; }), "reciprocal");

  // generalized ufuncs, with their signatures
  const auto matmul = ufx::guvectorize<"(m,n),(n,p)->(m,p)">(matmul_core{});
  m.attr("matmul") = ufx::python::gufunc<void(float, float, float), void(double, double, double)>(matmul, "matmul");
  m.attr("norm") = ufx::python::gufunc(ufx::guvectorize<"(n)->()">([](ufx::ndview<const double, 1> x, double& r) {
                                         double s = 0;
                                         for (ufx::index_t i = 0; i < x.extent(0); ++i) s += x(i) * x(i);
                                         r = std::sqrt(s);
                                       }),
                                       "norm");
  m.attr("scale") = ufx::python::gufunc(
      ufx::guvectorize<"(n),()->(n)">([](ufx::ndview<const double, 1> x, double a, ufx::ndview<double, 1> r) {
        for (ufx::index_t i = 0; i < x.extent(0); ++i) r(i) = a * x(i);
      }),
      "scale");
  m.attr("cross") = ufx::python::gufunc(
      ufx::guvectorize<"(3),(3)->(3)">(
          [](ufx::ndview<const double, 1> a, ufx::ndview<const double, 1> b, ufx::ndview<double, 1> c) {
            c(0) = a(1) * b(2) - a(2) * b(1);
            c(1) = a(2) * b(0) - a(0) * b(2);
            c(2) = a(0) * b(1) - a(1) * b(0);
          }),
      "cross");

  // DLPack: NumPy's arrays into ufx calls, in place, and ufx's arrays out
  m.def(
      "affine_inplace",
      [](py::object x, float a, float b) {
        const auto v = ufx::python::from_dlpack<ufx::ndview<float, 1>>(x);
        ufx::vectorize([a, b](float e) { return a * e + b; })(ufx::host, v.view(), ufx::out(v.view()));
      },
      "x = a x + b in place, on a float32 array of rank 1 (any strides)");
  m.def(
      "total",
      [](py::object x) {
        return ufx::sum(ufx::host, ufx::python::from_dlpack<ufx::ndview<const double, 2>>(x).view());
      },
      "the sum of a float64 array of rank 2 (any strides: a transposed array is read in place)");
  m.def(
      "make",
      [](int rows, int cols) {
        const auto outer = ufx::vectorize([](double i, double j) { return 10 * i + j / 4; });
        ufx::ndarray<double, 2> i({rows, 1}), j({1, cols});
        for (int k = 0; k < rows; ++k) i(k, 0) = k;
        for (int k = 0; k < cols; ++k) j(0, k) = k;
        ufx::ndarray<double, 2> a = outer(ufx::host, i, j);
        return handed(std::move(a));
      },
      "a[i, j] = 10 i + j / 4, computed by ufx and handed over through DLPack");
  m.def(
      "arange", [](int n) { return ufx::python::to_numpy(ufx::arange<float>(n)); },
      "0, 1, ..., n - 1 as float32: a ufx array that NumPy owns, no copy");
  m.def("doubled_f16", &doubled<ufx::float16>, "x + x of a float16 array (rounded once, as NumPy's)");
  m.def("doubled_c64", &doubled<std::complex<float>>, "x + x of a complex64 array");
  m.def("doubled_c128", &doubled<std::complex<double>>, "x + x of a complex128 array");
  m.def(
      "frees", [] { return frees; }, "how many tensors handed to Python their consumer has freed");
  m.def(
      "made_data", [] { return reinterpret_cast<std::uintptr_t>(made_data); },
      "the address of the last tensor's data handed over (NumPy's array must show it: no copy)");
}
