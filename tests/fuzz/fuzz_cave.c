/* Fuzz target: cave parameters and grid sizes. */
#define FUZZ_GEN "cave"
#include "fuzz_gen.h"
