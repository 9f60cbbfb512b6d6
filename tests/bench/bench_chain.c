/* Room chain generator: time per map at four sizes, with the room count
 * scaled to the area (the defaults' 10..15 rooms per 80x25), tiles only and with
 * the full structured result. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct chain_bench {
    dg_grid grid;
    dg_chain_params params;
    dg_result result;
    dg_allocator alloc;
    int with_result;
} chain_bench;

static void chain_op(void *ctx, int64_t i)
{
    chain_bench *b = ctx;
    dg_chain_generate(&b->grid, &b->params, (uint64_t)i, b->with_result ? &b->result : NULL,
                      &b->alloc, NULL);
}

static void chain_row(int32_t w, int32_t h, int with_result, int reps, int64_t batch)
{
    chain_bench b;
    bench_mem mem;
    uint8_t *cells = malloc((size_t)w * (size_t)h);
    if (!cells || dg_grid_init(&b.grid, cells, w, h, 0) != DG_OK)
    {
        free(cells);
        return;
    }
    dg_chain_defaults(&b.params);
    int64_t scale = (int64_t)w * h / 2000; /* 80x25 = 1 */
    b.params.rooms_min = (int32_t)(10 * (scale > 1 ? scale : 1));
    b.params.rooms_max = (int32_t)(15 * (scale > 1 ? scale : 1));
    b.alloc = bench_allocator(&mem);
    b.with_result = with_result;
    dg_result_init(&b.result, NULL);
    char name[64], size[32];
    snprintf(name, sizeof name, "chain %s", with_result ? "+result" : "tiles");
    snprintf(size, sizeof size, "%dx%d", (int)w, (int)h);
    bench_run(name, size, (int64_t)w * h, reps, batch, chain_op, &b, &mem);
    if (with_result)
    {
        chain_op(&b, 1);
        printf("%-28s %-10s floor %d permille, %d/%d rooms, %d overlaps\n", "", size,
               (int)b.result.metrics.floor_permille, (int)b.result.metrics.placed,
               (int)b.result.metrics.requested, (int)b.result.metrics.overlaps);
    }
    dg_result_free(&b.result);
    free(cells);
}

BENCH(bench_chain)
{
    for (int with_result = 0; with_result <= 1; with_result++)
    {
        chain_row(80, 25, with_result, 301, 50);
        chain_row(80, 50, with_result, 201, 20);
        chain_row(200, 200, with_result, 101, 2);
        chain_row(1000, 1000, with_result, 21, 1);
    }
}
