// Expected: "ufx::thread::match_any_sync / match_all_sync: the value must be trivially copyable and
// 4 or 8 bytes" (a short: CUDA's __match_any_sync takes 32- and 64-bit values).
#include <ufx/ufx.hpp>

unsigned body(const ufx::thread& t, short x) { return t.match_any_sync(0xffffffffu, x); }

int main() {}
