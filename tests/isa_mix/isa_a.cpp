#define UFX_UNIT ufx_isa_unit_a
#include "unit.inc"
