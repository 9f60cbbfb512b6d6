/* Fuzz target: maze parameters and grid sizes. */
#define FUZZ_GEN "maze"
#include "fuzz_gen.h"
