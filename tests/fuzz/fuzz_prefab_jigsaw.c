/* Fuzz target: prefab-jigsaw parameters and grid sizes (the sample prefab sets). */
#define FUZZ_GEN "prefab-jigsaw"
#include "fuzz_gen.h"
