// Expected: "ufx::python::ufunc: the function cannot take this loop's argument types, or returns another type than
// the loop's result type R" (float + double is a double: the loop float(float, double) would narrow it).
#include <ufx/python.hpp>

void make(pybind11::module_& m) {
  const auto add = ufx::vectorize([](auto a, auto b) { return a + b; });
  m.attr("add") = ufx::python::ufunc<float(float, double)>(add, "add");
}
