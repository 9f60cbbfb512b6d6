/* Fuzz target: attach parameters and grid sizes. */
#define FUZZ_GEN "attach"
#include "fuzz_gen.h"
