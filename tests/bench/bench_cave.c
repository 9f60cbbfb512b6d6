/* Cave generator: time per map at five sizes with the defaults, tiles only
 * and with the full structured result; the cost per cell should stay flat
 * from 200x200 up (bit-row automaton, linear-time connect). */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct cave_bench {
    dg_grid grid;
    dg_cave_params params;
    dg_result result;
    dg_allocator alloc;
    int with_result;
} cave_bench;

static void cave_op(void *ctx, int64_t i)
{
    cave_bench *b = ctx;
    dg_cave_generate(&b->grid, &b->params, (uint64_t)i, b->with_result ? &b->result : NULL,
                     &b->alloc, NULL);
}

static void cave_row(int32_t w, int32_t h, int with_result, int reps, int64_t batch)
{
    cave_bench b;
    bench_mem mem;
    uint8_t *cells = malloc((size_t)w * (size_t)h);
    if (!cells || dg_grid_init(&b.grid, cells, w, h, 0) != DG_OK)
    {
        free(cells);
        return;
    }
    dg_cave_defaults(&b.params);
    b.alloc = bench_allocator(&mem);
    b.with_result = with_result;
    dg_result_init(&b.result, NULL);
    char name[64], size[32];
    snprintf(name, sizeof name, "cave %s", with_result ? "+result" : "tiles");
    snprintf(size, sizeof size, "%dx%d", (int)w, (int)h);
    bench_run(name, size, (int64_t)w * h, reps, batch, cave_op, &b, &mem);
    if (with_result)
    {
        cave_op(&b, 1);
        printf("%-28s %-10s floor %d permille, %d caves of %d regions, %d tunnels\n", "", size,
               (int)b.result.metrics.floor_permille, (int)b.result.metrics.placed,
               (int)b.result.metrics.requested, (int)b.result.metrics.corridors);
    }
    dg_result_free(&b.result);
    free(cells);
}

BENCH(bench_cave)
{
    for (int with_result = 0; with_result <= 1; with_result++)
    {
        cave_row(80, 25, with_result, 301, 50);
        cave_row(80, 50, with_result, 201, 20);
        cave_row(200, 200, with_result, 101, 2);
        cave_row(1000, 1000, with_result, 21, 1);
        cave_row(2048, 2048, with_result, 11, 1);
    }
}
