// Expected: "ufx: UFX_HOST_VECTOR_BYTES must be 16, 32 or 64" (the width of the CPU reduction
// leaves' vectors, set by the user for the whole build).
#define UFX_HOST_VECTOR_BYTES 48
#include <ufx/ufx.hpp>

int main() {}
