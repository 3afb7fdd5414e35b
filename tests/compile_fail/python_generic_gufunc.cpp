// Expected: "ufx::python::gufunc: the core function is generic ... name the loops" (a template call operator has no
// element types of its own to make a loop from).
#include <ufx/python.hpp>

struct dot {
  template <class T>
  void operator()(ufx::ndview<const T, 1> a, ufx::ndview<const T, 1> b, T& r) const {
    r = 0;
    for (ufx::index_t i = 0; i < a.extent(0); ++i) r += a(i) * b(i);
  }
};

void make(pybind11::module_& m) { m.attr("dot") = ufx::python::gufunc(ufx::guvectorize<"(n),(n)->()">(dot{}), "dot"); }
