/* Fuzz target: prefab-mixed parameters and grid sizes (the sample prefab sets). */
#define FUZZ_GEN "prefab-mixed"
#include "fuzz_gen.h"
