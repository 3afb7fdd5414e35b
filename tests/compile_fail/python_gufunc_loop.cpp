// Expected: "ufx::python::gufunc: a loop void(E...) names one element type per operand of the signature" (three
// operands, two types).
#include <ufx/python.hpp>

struct dot {
  template <class T>
  void operator()(ufx::ndview<const T, 1> a, ufx::ndview<const T, 1> b, T& r) const {
    r = 0;
    for (ufx::index_t i = 0; i < a.extent(0); ++i) r += a(i) * b(i);
  }
};

void make(pybind11::module_& m) {
  m.attr("dot") = ufx::python::gufunc<void(double, double)>(ufx::guvectorize<"(n),(n)->()">(dot{}), "dot");
}
