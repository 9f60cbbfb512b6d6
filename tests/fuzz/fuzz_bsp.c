/* Fuzz target: bsp parameters and grid sizes. */
#define FUZZ_GEN "bsp"
#include "fuzz_gen.h"
