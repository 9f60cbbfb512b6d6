/* Fuzz target: room chain parameters and grid sizes. */
#define FUZZ_GEN "chain"
#include "fuzz_gen.h"
