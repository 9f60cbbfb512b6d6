/* Fuzz target: walk (drunkard's walk and tunnelers) parameters and grid sizes. */
#define FUZZ_GEN "walk"
#include "fuzz_gen.h"
