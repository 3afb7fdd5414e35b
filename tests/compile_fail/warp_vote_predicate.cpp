// Expected: "ufx::thread::all_sync / any_sync / eq_sync / ballot_sync: the predicate is a bool or an
// integer" (a float predicate: CUDA's is an int; compare the float explicitly).
#include <ufx/ufx.hpp>

bool body(const ufx::thread& t, float x) { return t.all_sync(0xffffffffu, x); }

int main() {}
