// Expected: "ufx::thread::shfl_*_sync: the value must be trivially copyable and at most 64 bytes"
// (a 72-byte struct: a shuffle moves 4 bytes at a time, ufx up to 64 bytes in pieces).
#include <ufx/ufx.hpp>

struct big {
  double v[9];
};

void body(const ufx::thread& t, const big& b) { (void)t.shfl_sync(0xffffffffu, b, 0); }

int main() {}
