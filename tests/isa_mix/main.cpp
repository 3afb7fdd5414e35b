// Prints what each linked unit computes: "a <bits>..." for isa_a.cpp (baseline), "b ..." for
// isa_b.cpp (-mavx2 -mfma). check.cmake compares the two-unit programs, linked in either order,
// with each unit alone.
#include <cstdint>
#include <cstdio>

extern "C" void ufx_isa_unit_a(std::uint32_t* out);
extern "C" void ufx_isa_unit_b(std::uint32_t* out);

int main() {
  std::uint32_t r[5];
#ifdef UFX_ISA_HAS_A
  ufx_isa_unit_a(r);
  std::printf("a %08x %08x %08x %08x %08x\n", r[0], r[1], r[2], r[3], r[4]);
#endif
#ifdef UFX_ISA_HAS_B
  ufx_isa_unit_b(r);
  std::printf("b %08x %08x %08x %08x %08x\n", r[0], r[1], r[2], r[3], r[4]);
#endif
}
