// bench_sweep compiled by nvcc: the same sweep with ufx::cuda among its targets (sweep.cpp).
#include "sweep.cpp"
