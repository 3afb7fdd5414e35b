// Expected: "UFX_GUFUNC_SMALL_SIZES must list positive core sizes" for a list with a 0 in it.
#define UFX_GUFUNC_SMALL_SIZES 0, 4
#include <ufx/guvectorize.hpp>

int main() {}
