/* Level-graph layout (dg_graph_generate): time per layout of each test graph
 * (tests/graph_samples.h) at room distance 0..2, and of graphs of 10, 20,
 * 40 and 64 rooms at distance 0..4, with the share laid out. */
#include "bench.h"
#include "../graph_samples.h"

#include <stdlib.h>

typedef struct graph_bench {
    sample_graph s;
    dg_grid grid;
    dg_result result;
    dg_allocator alloc;
    int64_t failed;
} graph_bench;

static void graph_op(void *ctx, int64_t i)
{
    graph_bench *b = ctx;
    if (dg_graph_generate(&b->grid, &b->s.g, (uint64_t)i, &b->result, &b->alloc, NULL) != DG_OK)
        b->failed++;
}

static void graph_row(graph_bench *b, const char *what, int32_t distance, int reps)
{
    bench_mem mem;
    uint8_t *cells = malloc((size_t)b->s.width * (size_t)b->s.height);
    if (!cells || dg_grid_init(&b->grid, cells, b->s.width, b->s.height, 0) != DG_OK)
    {
        free(cells);
        return;
    }
    b->alloc = bench_allocator(&mem);
    b->failed = 0;
    dg_result_init(&b->result, NULL);
    char name[64], size[32];
    snprintf(name, sizeof name, "graph %s d=%d", what, (int)distance);
    snprintf(size, sizeof size, "%dx%d", (int)b->s.width, (int)b->s.height);
    bench_run(name, size, (int64_t)b->s.width * b->s.height, reps, 1, graph_op, b, &mem);
    printf("%-28s %-10s %d rooms, %lld of %d seeds not laid out\n", "", size,
           (int)b->s.g.node_count, (long long)b->failed, reps + 1);
    dg_result_free(&b->result);
    free(cells);
}

BENCH(bench_graph)
{
    graph_bench *b = malloc(sizeof *b);
    if (!b)
        return;
    for (size_t k = 0; k < SAMPLE_GRAPHS; k++)
        for (int32_t d = 0; d <= 2; d++)
        {
            sample_graphs[k].make(&b->s, d);
            graph_row(b, sample_graphs[k].name, d, 101);
        }
    static const int32_t sizes[] = {10, 20, 40, 64};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        for (int32_t d = 0; d <= 4; d++)
        {
            char what[16];
            snprintf(what, sizeof what, "%d rooms", (int)sizes[k]);
            sample_sized(&b->s, sizes[k], d);
            graph_row(b, what, d, 101);
        }
    free(b);
}
