// The python component of an installed ufx: a module whose ufunc run_consumer.cmake imports and calls.
#include <ufx/python.hpp>

PYBIND11_MODULE(consumer_python, m) {
  m.attr("twice") = ufx::python::ufunc(ufx::vectorize([](double x) { return 2 * x; }), "twice", "2 x");
}
