// Expected: "ufx::python::ufunc: the function is generic ... name the loops" (a generic lambda has no types of its
// own to make a loop from).
#include <ufx/python.hpp>

void make(pybind11::module_& m) {
  const auto add = ufx::vectorize([](auto a, auto b) { return a + b; });
  m.attr("add") = ufx::python::ufunc(add, "add");
}
