// Expected: "ufx::thread::sync_count / sync_and / sync_or: the predicate is a bool or an integer"
// (a double predicate).
#include <ufx/ufx.hpp>

int body(const ufx::thread& t, double x) { return t.sync_count(x); }

int main() {}
