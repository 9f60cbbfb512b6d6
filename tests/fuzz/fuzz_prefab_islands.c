/* Fuzz target: prefab-islands parameters and grid sizes (the sample prefab sets). */
#define FUZZ_GEN "prefab-islands"
#include "fuzz_gen.h"
