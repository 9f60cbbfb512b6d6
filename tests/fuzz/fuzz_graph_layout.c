/* Fuzz target: generator 'graph' (tests/hard_graph.c decodes the bytes: graph
 * text as it comes, a sample graph cut short, a graph built in C with hostile
 * fields, or none) on grids of any size. */
#define FUZZ_GEN "graph"
#include "fuzz_gen.h"
