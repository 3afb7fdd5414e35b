// Expected: "ufx::python: NumPy has no dtype for this element type" (ufx::bfloat16: NumPy has no bfloat16).
#include <ufx/python.hpp>

void make(pybind11::module_& m) {
  const auto twice = ufx::vectorize([](ufx::bfloat16 x) { return x + x; });
  m.attr("twice") = ufx::python::ufunc(twice, "twice");
}
