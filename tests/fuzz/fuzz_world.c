/* Fuzz target: world parameters, windows anywhere in (and beyond) the range,
 * marker buffers, door symmetry of arbitrary rooms. */
#define FUZZ_GEN "world"
#include "fuzz_gen.h"
