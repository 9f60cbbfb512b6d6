/* Fuzz target: prefab-full parameters and grid sizes (the sample prefab sets). */
#define FUZZ_GEN "prefab-full"
#include "fuzz_gen.h"
