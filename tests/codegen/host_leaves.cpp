// Host code that tests/codegen/check_host_leaves.py reads from the object code (objdump): the
// generic reduction leaf (reduce_kernel::mapped_leaf) of a user's operator, in each of its clones.
// Compiled, not linked or run.
#include <ufx/ufx.hpp>

#include <vector>

// a user's `a + b`: the leaf's lanes, and their horizontal combine, in vector registers
float ufx_codegen_user_sum_f32(const std::vector<float>& x) {
  return ufx::reducer([](float a, float b) { return a + b; }, 0.0f)(ufx::serial, x);
}
double ufx_codegen_user_sum_f64(const std::vector<double>& x) {
  return ufx::reducer([](double a, double b) { return a + b; }, 0.0)(ufx::serial, x);
}
// a user's maximum
float ufx_codegen_user_max_f32(const std::vector<float>& x) {
  return ufx::reducer([](float a, float b) { return a < b ? b : a; }, -1e30f)(ufx::serial, x);
}
