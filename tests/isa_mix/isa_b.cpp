#define UFX_UNIT ufx_isa_unit_b
#include "unit.inc"
