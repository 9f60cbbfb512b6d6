/* Fuzz target: scatter parameters and grid sizes. */
#define FUZZ_GEN "scatter"
#include "fuzz_gen.h"
